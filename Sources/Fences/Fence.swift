import Spatial
import Support

/// A geofence read from a GeoJSON feature (SPEC §1.2).
///
/// Geometry is kept in WGS84 longitude/latitude (x = longitude); the engine projects it into its
/// metric frame. Every property of the feature is kept in `properties`, in file order, for
/// message templates, filters and reports.
public struct Fence: Sendable {
    /// What the fence is, with the measurements that define it.
    public enum Kind: Hashable, Sendable {
        /// A polygon or multipolygon (holes respected).
        case area
        /// A circle around a point, evaluated by distance, never as a polygon.
        case circle(radiusMeters: Double)
        /// A line crossed in either direction (Bluedot GEOLINE).
        case line
        /// A Bluedot beacon: check-in within `proximity`, check-out beyond `rangeMeters`.
        case beacon(rangeMeters: Double, proximity: BeaconProximity)

        /// `area`, `circle`, `line` or `beacon`.
        public var name: String {
            switch self {
            case .area: "area"
            case .circle: "circle"
            case .line: "line"
            case .beacon: "beacon"
            }
        }
    }

    /// The largest circle radius or beacon range, in metres, a fence file or `--radius` may
    /// give: 1000 km. Far beyond any geofence, and no metric frame fits a larger circle; past it
    /// PROJ fails on the circle's extent with a message that names neither the fence nor the
    /// radius.
    public static let radiusLimitMeters = 1_000_000.0

    /// The largest buffer, either way, that a fence's `buffer` property, a flag or a scenario
    /// may give: 1000 km. Far beyond any geofence, and no metric frame fits a fence grown more
    /// than that; past it GEOS computes on overflowing coordinates (NaN at 1e308) instead of
    /// refusing.
    public static let bufferLimitMeters = 1_000_000.0

    /// The most self-intersections (pairs of edges that cross or overlap) an invalid polygon
    /// may have for make-valid to repair it: 1,000. GEOS's make-valid nodes every crossing and
    /// its time grows faster than their number (on a star-shaped ring: 415 crossings 0.2 s, 4,267
    /// 3.7 s, 17,187 46 s); a real digitizing error crosses itself a handful of times. The same
    /// GEOS validity check that refuses invalid geometry without make-valid comes first, so a
    /// valid fence never pays for the count.
    public static let makeValidCrossingLimit = 1_000

    /// The most pairs of edges with overlapping x ranges the self-intersection count of an
    /// invalid polygon may test before make-valid is refused: 20 million (about a second), so
    /// that edges that overlap without crossing cannot make the count itself slow.
    public static let makeValidPairBudget = 20_000_000

    /// 0-based index of the feature in its file (the bench's "fence number").
    public var index: Int
    /// The fence's unique id (`properties.id`).
    public var id: String
    public var name: String?
    public var kind: Kind
    /// The geometry in WGS84 degrees: a point for circles and beacons.
    public var shape: Shape
    /// The Bluedot zone the fence belongs to (`properties.zone`), if any.
    public var zone: String?
    /// Metres added around the fence (`properties.buffer`); negative shrinks polygons.
    public var bufferMeters: Double?
    /// Adobe Places library (`properties.library`).
    public var library: String?
    /// Places rank, the SDK's `weight` (`properties.rank` or `properties.weight`); lower wins.
    public var rank: Int?
    /// Places metadata object (`properties.metadata`).
    public var metadata: JSONValue?
    /// Every property of the feature, in file order.
    public var properties: [JSONMember]
    /// Where the feature starts in its file.
    public var location: SourceLocation
    /// When the fence exists in trace time (`validFrom`, `validUntil`, `schedule`); `nil`:
    /// always.
    public var validity: FenceValidity? {
        get { validityBox?.validity }
        set { validityBox = newValue.map(ValidityBox.init) }
    }
    /// Whether the fence has a ``validity``. Inlined, so that asking it of a fence in an array
    /// reads one field: a getter called across modules is handed the whole fence, copied (a
    /// dozen reference counts).
    @inlinable public var hasValidity: Bool { validityBox != nil }
    /// ``validity`` behind one reference: most fences have none, and a fence set of 100,000
    /// holds no 48 bytes a fence for it (4.8 MB of a replay's peak).
    @usableFromInline var validityBox: ValidityBox?

    /// An immutable box: a fence copied shares it, a fence changed gets a new one.
    @usableFromInline final class ValidityBox: Sendable {
        let validity: FenceValidity
        init(_ validity: FenceValidity) { self.validity = validity }
    }

    public init(
        index: Int, id: String, name: String? = nil, kind: Kind, shape: Shape, zone: String? = nil,
        bufferMeters: Double? = nil, library: String? = nil, rank: Int? = nil, metadata: JSONValue? = nil,
        properties: [JSONMember] = [], location: SourceLocation, validity: FenceValidity? = nil
    ) {
        validityBox = validity.map(ValidityBox.init)
        self.index = index
        self.id = id
        self.name = name
        self.kind = kind
        self.shape = shape
        self.zone = zone
        self.bufferMeters = bufferMeters
        self.library = library
        self.rank = rank
        self.metadata = metadata
        self.properties = properties
        self.location = location
    }

    /// For beacons: the standard deviation, in metres, of the noise added to the simulated
    /// distance on each fix (`properties.signalNoise`, default 0), and the seed of that noise
    /// (`properties.signalSeed`, default 0). With no radio data in a trace, beacon proximity is
    /// simulated from distance (SPEC §3); the noise stands for an unsteady signal.
    public var beaconSignalNoise: (sigmaMeters: Double, seed: UInt64) {
        let sigma = property("signalNoise")?.number ?? 0
        let seed = property("signalSeed")?.number ?? 0
        return (sigma.isFinite && sigma > 0 ? sigma : 0, seed >= 0 && seed < 1.8e19 ? UInt64(seed) : 0)
    }

    /// The property named `key`, if the feature has it.
    public func property(_ key: String) -> JSONNode? {
        properties.last(where: { $0.key == key })?.node
    }
}

/// A beacon's check-in proximity (Bluedot Point SDK; SPEC §3).
public enum BeaconProximity: Hashable, Sendable {
    /// Within 1 m.
    case immediate
    /// Within 3 m.
    case near
    /// Anywhere within the beacon's full range.
    case far
    /// Within the given distance.
    case meters(Double)

    /// The check-in distance for a beacon of full range `range`.
    public func distance(range: Double) -> Double {
        switch self {
        case .immediate: min(1, range)
        case .near: min(3, range)
        case .far: range
        case .meters(let m): min(m, range)
        }
    }
}
