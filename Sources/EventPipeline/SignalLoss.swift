import Geotriggers
import Support
import Traces

/// Operating-system signal loss (SPEC §6.2, seed 000: "device operating systems may not provide
/// geofence exit signals"): a seeded share of enter and exit notifications never reaches
/// check-ins and Places.
///
/// The decision ``isLost(_:trace:fence:occurrence:)`` is a pure function of the seed, the trace's
/// name, the fence id, the kind and how many notifications of that kind the fence has had before
/// in that trace, so it does not depend on workers, on other fences, or on the fix times (the
/// k-th exit of a fence is lost or kept whatever the resampling). ``apply(_:fences:)`` is the hook
/// between the geotrigger engine and the pipeline: a lost notification becomes a `suppressed`
/// event with reason `exitLoss` or `entryLoss`, which the log shows and which check-ins, Places
/// and scoring do not take as an enter or exit.
public struct SignalLoss: Sendable {
    /// The share of exit notifications lost, in `[0, 1]`.
    public var exitLoss: Double
    /// The share of enter notifications lost, in `[0, 1]`.
    public var entryLoss: Double
    public var seed: UInt64
    /// The trace whose notifications these are.
    public let trace: String
    /// Enters and exits seen so far per fence index (the occurrence counters).
    private var enters: [Int: Int] = [:]
    private var exits: [Int: Int] = [:]

    /// The suppression reasons written to the log.
    public static let exitReason = "exitLoss"
    public static let entryReason = "entryLoss"

    /// The loss of `degradation` for one trace, or `nil` when it loses nothing.
    public init?(_ degradation: Degradation, trace: String) {
        guard degradation.losesSignals else { return nil }
        self.init(exitLoss: degradation.exitLoss, entryLoss: degradation.entryLoss, seed: degradation.seed, trace: trace)
    }

    public init(exitLoss: Double, entryLoss: Double, seed: UInt64, trace: String) {
        self.exitLoss = exitLoss
        self.entryLoss = entryLoss
        self.seed = seed
        self.trace = trace
    }

    /// Whether the `occurrence`-th (0-based) notification of `kind` (`.enter` or `.exit`) of
    /// `fence` in `trace` is lost.
    public func isLost(_ kind: GeotriggerEvent.Kind, trace: String, fence: String, occurrence: Int) -> Bool {
        let share: Double
        switch kind {
        case .enter: share = entryLoss
        case .exit: share = exitLoss
        default: return false
        }
        guard share > 0 else { return false }
        guard share < 1 else { return true }
        var hash = SignalLoss.fnv1a(trace, SignalLoss.fnv1a(fence, 0xcbf2_9ce4_8422_2325))
        hash = SignalLoss.fnv1a(kind.rawValue, hash) ^ UInt64(truncatingIfNeeded: occurrence) &* 0x9E37_79B9_7F4A_7C15
        var rng = SplitMix64(seed: hash ^ seed ^ 0x6C6F_7373_6573_2121)
        _ = rng.next()
        return rng.nextUnitDouble() < share
    }

    /// Turns the lost notifications among one fix's engine events into `suppressed` events.
    ///
    /// Only notified enters and exits count (interpolated ones included); passthrough reports,
    /// dwells and line crossings are never lost.
    public mutating func apply(_ events: inout [GeotriggerEvent], fences: [String]) {
        for k in events.indices where events[k].notified {
            let kind = events[k].kind
            guard kind == .enter || kind == .exit else { continue }
            let fence = events[k].fence
            let occurrence: Int
            if kind == .enter {
                occurrence = enters[fence, default: 0]
                enters[fence] = occurrence + 1
            } else {
                occurrence = exits[fence, default: 0]
                exits[fence] = occurrence + 1
            }
            guard isLost(kind, trace: trace, fence: fences[fence], occurrence: occurrence) else { continue }
            events[k].kind = .suppressed
            events[k].reason = kind == .enter ? SignalLoss.entryReason : SignalLoss.exitReason
            events[k].message =
                "\(kind.rawValue) notification not delivered by the operating system (degrade.\(kind == .enter ? "entryLoss" : "exitLoss"))"
        }
    }

    /// 64-bit FNV-1a of `text`'s UTF-8 bytes, continuing from `hash`.
    static func fnv1a(_ text: String, _ hash: UInt64) -> UInt64 {
        var h = hash
        for byte in text.utf8 {
            h ^= UInt64(byte)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }
}
