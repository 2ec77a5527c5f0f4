import Fences
import Spatial
import Support

extension POI {
    /// Builds the POI of a circle fence.
    ///
    /// Name, library, rank and metadata come from the fence's Places properties (SPEC §1.2, §4);
    /// a missing name becomes the id, a missing library the empty string (what the iOS SDK reads
    /// for a missing `libraryid`), a missing rank ``defaultRank``. Metadata values are turned into
    /// strings as the SDKs do; see ``metadataStrings(from:)`` for what is dropped.
    ///
    /// - Throws: `FencesimError(.badData)` located at the feature when the fence is not a circle:
    ///   Places POIs are circles in both SDKs (centre and radius, `PI/PointOfInterest.swift`).
    public init(fence: Fence) throws(FencesimError) {
        guard case .circle(let radius) = fence.kind, case .point(let centre) = fence.shape else {
            throw FencesimError(
                .badData,
                "fence \"\(fence.id)\" is a \(fence.kind.name), not a circle; Adobe Places POIs are circles (a Point with a radius)",
                at: fence.location)
        }
        self.init(
            id: fence.id, name: fence.name ?? fence.id, latitude: centre.latitude, longitude: centre.longitude,
            radiusMeters: radius, library: fence.library ?? "", rank: fence.rank ?? POI.defaultRank,
            metadata: POI.metadataStrings(from: fence.metadata).values)
    }

    /// The string form of a fence's `metadata` object, and the keys that had to be dropped.
    ///
    /// Strings are kept, numbers and booleans become their JSON text (`5`, `2.5`, `true`), as
    /// Android's `value.toString()` does (`PA/PlacesUtil.java convertPOIMetadataToStringMap`).
    /// Objects and arrays are dropped as on Android; iOS would keep Foundation's description of
    /// them (`String(describing:)`), text no rule can sensibly match, so fencesim drops them on
    /// every platform. `null` values are dropped too. Anything but an object yields no metadata.
    public static func metadataStrings(from metadata: JSONValue?) -> (values: [String: String], dropped: [String]) {
        guard case .object(let members)? = metadata else { return ([:], []) }
        var values: [String: String] = [:]
        var dropped: [String] = []
        for member in members {
            switch member.node.value {
            case .string(let s): values[member.key] = s
            case .int(let i): values[member.key] = String(i)
            case .double(let d): values[member.key] = JSONWriter.number(d)
            case .bool(let b): values[member.key] = b ? "true" : "false"
            case .null, .array, .object:
                values[member.key] = nil
                dropped.append(member.key)
            }
        }
        return (values, dropped)
    }
}
