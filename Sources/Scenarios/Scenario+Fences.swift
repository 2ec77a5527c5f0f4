import Fences
import Geotriggers
import Support

extension Scenario {
    /// The fences the scenario watches: its fence file as `options` read it, with its fence
    /// changes applied (each added or replaced version a fence of its own, valid from its
    /// change), less the fences its geotrigger's `where` leaves out; with `geotriggers:`, one
    /// fence for each (geotrigger, fence) pair (``watched(_:)``).
    ///
    /// - Throws: ``Support/FencesimError`` when the fence file or the changes file cannot be
    ///   read, or a change does not apply.
    public func readFences(options: FenceReadOptions) throws(FencesimError) -> FenceSet {
        var all = try FenceReader.read(path: fenceFiles[0].path, options: options)
        if fenceFiles.count > 1 || fenceFiles[0].set != nil {
            all = try Scenario.union(fenceFiles, first: all, options: options)
        }
        // Changes name the fences as the scenario's sets name them (`NAME/ID` in a named set).
        if let fenceChangesPath {
            all = try all.applying(try FenceChanges.read(path: fenceChangesPath, options: options, fences: all))
        }
        if !geotriggers.isEmpty { return try watched(all) }
        guard let clause = geotrigger.fencesWhere else { return all }
        return all.selecting(clause)
    }

    /// The fences of several files, in the order written: a named set's ids prefixed with
    /// `NAME/`; an id two files share (after prefixing) is a located error. Each fence keeps
    /// its ``Fences/Fence/index`` and location in its own file.
    static func union(_ files: [FenceFile], first: FenceSet, options: FenceReadOptions) throws(FencesimError) -> FenceSet {
        var fences: [Fence] = []
        var warnings: [Diagnostic] = []
        var seen: [String: SourceLocation] = [:]
        for (k, file) in files.enumerated() {
            let set = k == 0 ? first : try FenceReader.read(path: file.path, options: options)
            warnings += set.warnings
            for var fence in set.fences {
                if let name = file.set { fence.id = "\(name)/\(fence.id)" }
                if let other = seen[fence.id] {
                    throw FencesimError(
                        .badData,
                        "fence id \"\(fence.id)\" is also in \(other); ids must be unique across a scenario's fence files (give them as a map of named sets to prefix each set's ids)",
                        at: fence.location)
                }
                seen[fence.id] = fence.location
                fences.append(fence)
            }
        }
        return FenceSet(file: files.map(\.path).joined(separator: ", "), fences: fences, warnings: warnings)
    }
}
