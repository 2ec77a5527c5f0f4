import Fences
import Spatial
import Support

/// Every POI of a scenario, playing the Places query service for nearby lookups.
///
/// Sorted by id; lookups by id are O(1).
public struct POICatalog: Sendable {
    /// The POIs, sorted by id.
    public private(set) var pois: [POI]
    /// What building the catalog noticed: fences with Places properties that cannot be POIs,
    /// metadata values that were dropped.
    public private(set) var findings: [Diagnostic]
    private var indexByID: [String: Int]

    /// A catalog of the given POIs (ids must be unique; a later duplicate replaces an earlier).
    public init(pois: [POI]) {
        var byID: [String: POI] = [:]
        for p in pois { byID[p.id] = p }
        self.pois = byID.values.sorted { $0.id < $1.id }
        self.findings = []
        self.indexByID = Dictionary(uniqueKeysWithValues: self.pois.enumerated().map { ($0.element.id, $0.offset) })
    }

    /// The POIs of a fence set: every circle fence is a POI (SPEC §4).
    ///
    /// Non-circle fences are not POIs. They are skipped silently unless they carry a Places
    /// property (`library`, `rank`/`weight` or `metadata`), in which case a located warning says
    /// the fence is not a POI: fence files mix geotrigger areas with Places circles, so this is
    /// a finding, not an error (``POI/init(fence:)`` throws for a single fence instead).
    /// Metadata values that cannot be strings are dropped with a warning.
    ///
    /// - Complexity: O(n log n) in the number of fences.
    public init(fences: [Fence]) {
        var pois: [POI] = []
        var findings: [Diagnostic] = []
        for fence in fences {
            guard case .circle = fence.kind else {
                if fence.library != nil || fence.rank != nil || fence.metadata != nil {
                    findings.append(
                        Diagnostic(
                            .warning,
                            "fence \"\(fence.id)\" has Places properties but is a \(fence.kind.name); only circles are Places POIs, so Places ignores it",
                            at: fence.location, kind: "places-not-a-circle"))
                }
                continue
            }
            do {
                pois.append(try POI(fence: fence))
            } catch {
                findings.append(Diagnostic(.warning, error.message, at: error.location, kind: "places-not-a-circle"))
                continue
            }
            for key in POI.metadataStrings(from: fence.metadata).dropped {
                findings.append(
                    Diagnostic(
                        .warning,
                        "metadata \"\(key)\" of fence \"\(fence.id)\" is not a string, number or boolean; Places metadata holds strings, so it is dropped (as the Android SDK does)",
                        at: fence.location, kind: "places-metadata-dropped"))
            }
        }
        self.init(pois: pois)
        self.findings = findings
    }

    /// The POI with `id`, if any.
    public func poi(id: String) -> POI? {
        indexByID[id].map { pois[$0] }
    }

    /// Geodesic distance in metres from a position to a POI's centre (WGS84).
    public static func distance(latitude: Double, longitude: Double, to poi: POI) -> Double {
        Geodesic.wgs84.distance(latitude1: latitude, longitude1: longitude, latitude2: poi.latitude, longitude2: poi.longitude)
    }

    /// What the query service would answer for a device at a position: the `limit` POIs
    /// nearest to it by geodesic distance to their centres (ties by id), split into those whose
    /// circle contains it (distance ≤ radius, boundary inside as in SPEC §2) and the others,
    /// each nearest first.
    ///
    /// The real service's ranking is not public; nearest-N by centre distance is fencesim's
    /// model of it (SPEC §4).
    ///
    /// - Complexity: O(n log n) in the size of the catalog.
    public func query(latitude: Double, longitude: Double, limit: Int) -> PlacesQueryResponse {
        let ranked = pois.map { (poi: $0, distance: POICatalog.distance(latitude: latitude, longitude: longitude, to: $0)) }
            .sorted { ($0.distance, $0.poi.id) < ($1.distance, $1.poi.id) }
            .prefix(max(0, limit))
        var within: [POI] = []
        var others: [POI] = []
        for entry in ranked {
            if entry.distance <= entry.poi.radiusMeters { within.append(entry.poi) } else { others.append(entry.poi) }
        }
        return PlacesQueryResponse(userWithin: within, pois: others)
    }
}
