import Fences
import Geotriggers
import Support

extension Scenario {
    /// The fences the scenario watches: its fence file as `options` read it, with its fence
    /// changes applied (each added or replaced version a fence of its own, valid from its
    /// change), less the fences its geotrigger's `where` leaves out.
    ///
    /// - Throws: ``Support/FencesimError`` when the fence file or the changes file cannot be
    ///   read, or a change does not apply.
    public func readFences(options: FenceReadOptions) throws(FencesimError) -> FenceSet {
        var all = try FenceReader.read(path: fencesPath, options: options)
        if let fenceChangesPath {
            all = try all.applying(try FenceChanges.read(path: fenceChangesPath, options: options, fences: all))
        }
        guard let clause = geotrigger.fencesWhere else { return all }
        return all.selecting(clause)
    }
}
