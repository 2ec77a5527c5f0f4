import Foundation
import Support

extension Scenario {
    /// The scenario's `profile` (an operating system's geofencing layer between the engine and
    /// the app), or `nil` when it has none.
    ///
    /// - Parameter override: a profile given on the command line, used instead of the scenario's.
    /// - Throws: ``Support/FencesimError`` `.badData` located at the offending value.
    public func profile(override: OSProfile? = nil) throws(FencesimError) -> OSProfile? {
        if let override { return override }
        guard let node = root["profile"] else { return nil }
        return try OSProfile(config: node, directory: directory)
    }
}
