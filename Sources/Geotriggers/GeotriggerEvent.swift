import Spatial
import Support

/// A notification or finding of the geotrigger engine, with its provenance (SPEC §2, last
/// paragraph): the fix, the fence, the feed geometry, the signed distance and the accuracy, and
/// for derived or suppressed events the reason.
public struct GeotriggerEvent: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case enter, exit, dwell, cross, passthrough, suppressed

        /// Order of events of one fence at the same instant. One fix changes a fence's state
        /// once, so an enter and an exit share an instant only in a zero-length visit (a path
        /// touching the boundary between fixes), where the enter comes first.
        var rank: Int {
            switch self {
            case .passthrough: 0
            case .cross: 1
            case .enter: 2
            case .exit: 3
            case .dwell: 4
            case .suppressed: 5
            }
        }
    }

    /// Which side of a line fence the device came from, relative to the line's digitised direction.
    public enum Direction: String, Sendable {
        case leftToRight = "left-to-right"
        case rightToLeft = "right-to-left"
    }

    /// A distance to the millimetre, as events carry it and the log writes it.
    @inline(__always)
    public static func millimetres(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    /// The millimetre of every distance within `error` of `value` (the millimetre of the exact
    /// distance, when `value` is within `error` of it), or `nil` when they have more than one,
    /// or when zero's sign is in doubt. The error is doubled against the rounding of the bounds
    /// themselves.
    static func millimetres(_ value: Double, within error: Double) -> Double? {
        guard value.isFinite, error.isFinite else { return nil }
        if error == 0 { return millimetres(value) }
        let low = millimetres(value - 2 * error)
        return low.bitPattern == millimetres(value + 2 * error).bitPattern ? low : nil
    }

    public var kind: Kind
    /// When the event happened: the fix's time, or an interpolated or threshold time.
    public var time: Timestamp
    /// Index of the fence in its file.
    public var fence: Int
    /// Index of the fix that produced the event (the later fix for interpolated events).
    public var fixIndex: Int
    public var fixTime: Timestamp
    /// The feed geometry tested: `point`, or `accuracy` with ``feedRadius``.
    public var feed: GeotriggerSettings.Feed
    public var feedRadius: Double
    /// Signed distance from the fix to the fence boundary in metres, to the millimetre (negative
    /// inside).
    public var distance: Double?
    /// The fix's horizontal accuracy, metres.
    public var accuracy: Double
    /// True for events at interpolated times between two fixes.
    public var interpolated: Bool
    public var direction: Direction?
    /// For `passthrough`: the interpolated entry and exit.
    public var enterTime: Timestamp?
    public var exitTime: Timestamp?
    /// For `dwell`: the threshold.
    public var dwellSeconds: Double?
    /// For `suppressed` and derived events: why.
    public var reason: String? {
        get { texts?.reason }
        set { texts = Texts.of(reason: newValue, message: message) }
    }
    /// Whether the fence's `notify` setting lets this event out as a notification; state
    /// consumers (check-ins) see every event.
    public var notified: Bool
    public var message: String? {
        get { texts?.message }
        set { texts = Texts.of(reason: reason, message: newValue) }
    }
    /// The reason and the message, out of line: most events have neither, and an event copies
    /// as its bytes and one reference (with two strings, every copy of an event went through an
    /// outlined copy that retained both, and released them after).
    private var texts: Texts?

    private final class Texts: Sendable {
        let reason: String?
        let message: String?

        private init(reason: String?, message: String?) {
            self.reason = reason
            self.message = message
        }

        /// The texts, or `nil` when there are none (a failable initializer of a class allocates
        /// before it fails).
        @inline(__always)
        static func of(reason: String?, message: String?) -> Texts? {
            reason == nil && message == nil ? nil : Texts(reason: reason, message: message)
        }
    }
    /// Where the event happened (WGS84; the fix, or the interpolated point).
    public var longitude: Double
    public var latitude: Double

    public init(
        kind: Kind, time: Timestamp, fence: Int, fixIndex: Int, fixTime: Timestamp, feed: GeotriggerSettings.Feed,
        feedRadius: Double, distance: Double?, accuracy: Double, interpolated: Bool = false, direction: Direction? = nil,
        enterTime: Timestamp? = nil, exitTime: Timestamp? = nil, dwellSeconds: Double? = nil, reason: String? = nil,
        notified: Bool = true, message: String? = nil, longitude: Double, latitude: Double
    ) {
        self.kind = kind
        self.time = time
        self.fence = fence
        self.fixIndex = fixIndex
        self.fixTime = fixTime
        self.feed = feed
        self.feedRadius = feedRadius
        self.distance = distance
        self.accuracy = accuracy
        self.interpolated = interpolated
        self.direction = direction
        self.enterTime = enterTime
        self.exitTime = exitTime
        self.dwellSeconds = dwellSeconds
        self.texts = Texts.of(reason: reason, message: message)
        self.notified = notified
        self.longitude = longitude
        self.latitude = latitude
    }
}
