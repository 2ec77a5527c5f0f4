import Foundation
import Support

extension Scenario {
    /// The scenario's `profile` (an operating system's geofencing layer between the engine and
    /// the app), or `nil` when it has none.
    ///
    /// - Parameter override: a profile given on the command line, used instead of the scenario's.
    /// - Throws: ``Support/FencesimError`` `.badData` located at the offending value; located at
    ///   `profile` when the scenario also simulates Places or rules, which read the engine's
    ///   events and not yet the profile's deliveries.
    public func profile(override: OSProfile? = nil) throws(FencesimError) -> OSProfile? {
        let node = root["profile"]
        var profile = override
        if profile == nil, let node { profile = try OSProfile(config: node, directory: directory) }
        guard profile != nil else { return nil }
        if places != nil || root["rules"] != nil {
            throw FencesimError(.badData,
                                "a profile cannot be combined with places or rules yet: they read the engine's events, not what the profile delivers (check-ins do)",
                                at: node?.location ?? SourceLocation(file: file))
        }
        return profile
    }
}
