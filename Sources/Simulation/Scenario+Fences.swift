import Fences
import Geotriggers
import Support

extension Scenario {
    /// The fences the scenario watches: its fence file as `options` read it, less the fences
    /// its geotrigger's `where` leaves out.
    ///
    /// - Throws: ``Support/FencesimError`` when the fence file cannot be read.
    public func readFences(options: FenceReadOptions) throws(FencesimError) -> FenceSet {
        let all = try FenceReader.read(path: fencesPath, options: options)
        guard let clause = geotrigger.fencesWhere else { return all }
        return all.selecting(clause)
    }
}
