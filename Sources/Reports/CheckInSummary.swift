import Accuracy
import EventPipeline
import Support

/// Check-ins and check-outs per zone against the truth visits of the zone's fences (issue 23),
/// and the Places state over time, read from the events a report keeps for its HTML.
///
/// A zone's truth *stays* are the union of the truth visits of its fences in one trace (being
/// in two overlapping fences of a zone is one stay). A stay is matched by the first check-in
/// whose check-in to check-out interval overlaps it; the dwell error is the checked-in duration
/// minus the stay's.
public struct CheckInSummary: Sendable {
    /// One zone's row.
    public struct Zone: Sendable {
        public var zone: String
        public var stays = 0
        public var checkIns = 0
        public var checkOuts = 0
        /// Stays with an overlapping check-in.
        public var matched = 0
        /// Check-ins that overlap no stay.
        public var unmatched = 0
        /// Check-in time − stay start, seconds.
        public var checkInLatencies: [Double] = []
        /// Checked-in duration − stay duration, seconds (both closed).
        public var dwellErrors: [Double] = []
    }

    /// One change of the Places state: seconds from the trace's start and the three POIs.
    public struct PlacesStep: Sendable, Equatable {
        public var seconds: Double
        public var current: String?
        public var lastEntered: String?
        public var lastExited: String?
    }

    public var zones: [Zone] = []

    /// Folds one trace's events and truth visits into the per-zone rows.
    ///
    /// - Complexity: O(events + visits × check-ins of the zone).
    mutating func add(events: [LogEvent], visits: some Sequence<VisitScore>, start: Timestamp, end: Timestamp) {
        var intervals: [String: [(Timestamp, Timestamp?)]] = [:]
        var order: [String] = []
        func note(_ zone: String) { if intervals[zone] == nil { intervals[zone] = []; order.append(zone) } }
        var checkOuts: [String: Int] = [:]
        for e in events {
            guard e.type == .checkin || e.type == .checkout, case .string(let zone)? = e.field("zone") else { continue }
            note(zone)
            if e.type == .checkin {
                intervals[zone, default: []].append((e.time, nil))
            } else {
                checkOuts[zone, default: 0] += 1
                if let k = intervals[zone]?.lastIndex(where: { $0.1 == nil }) { intervals[zone]?[k].1 = e.time }
            }
        }
        var raw: [String: [(Timestamp, Timestamp)]] = [:]
        for v in visits {
            note(v.zone)
            raw[v.zone, default: []].append((v.truth.enter, v.truth.exit ?? end))
        }
        var stays: [String: [(Timestamp, Timestamp)]] = [:]
        for (zone, list) in raw {
            var merged: [(Timestamp, Timestamp)] = []
            for interval in list.sorted(by: { $0.0 < $1.0 }) {
                if let last = merged.last, interval.0 <= last.1 {
                    merged[merged.count - 1].1 = max(last.1, interval.1)
                } else {
                    merged.append(interval)
                }
            }
            stays[zone] = merged
        }
        for zone in order {
            var row = zones.first(where: { $0.zone == zone }) ?? Zone(zone: zone)
            let ins = intervals[zone] ?? []
            let mine = stays[zone] ?? []
            row.stays += mine.count
            row.checkIns += ins.count
            row.checkOuts += checkOuts[zone] ?? 0
            var used = [Bool](repeating: false, count: ins.count)
            for stay in mine {
                guard let k = ins.indices.first(where: { !used[$0] && ins[$0].0 < stay.1 && (ins[$0].1 ?? end) > stay.0 }) else { continue }
                used[k] = true
                row.matched += 1
                row.checkInLatencies.append(ins[k].0.seconds(since: stay.0))
                if let out = ins[k].1 {
                    row.dwellErrors.append(out.seconds(since: ins[k].0) - stay.1.seconds(since: stay.0))
                }
            }
            row.unmatched += used.filter { !$0 }.count
            if let k = zones.firstIndex(where: { $0.zone == zone }) { zones[k] = row } else { zones.append(row) }
        }
    }

    /// Folds in another summary's rows (a later trace's), as ``add(events:visits:start:end:)``
    /// would have folded that trace.
    mutating func merge(_ other: CheckInSummary) {
        for row in other.zones {
            guard let k = zones.firstIndex(where: { $0.zone == row.zone }) else {
                zones.append(row)
                continue
            }
            zones[k].stays += row.stays
            zones[k].checkIns += row.checkIns
            zones[k].checkOuts += row.checkOuts
            zones[k].matched += row.matched
            zones[k].unmatched += row.unmatched
            zones[k].checkInLatencies += row.checkInLatencies
            zones[k].dwellErrors += row.dwellErrors
        }
    }

    /// The Places state after each `places.*` event of a trace.
    static func places(_ events: [LogEvent], start: Timestamp) -> [PlacesStep] {
        var out: [PlacesStep] = []
        for e in events {
            switch e.type {
            case .placesEntry, .placesExit, .placesExpired, .placesLookup: break
            default: continue
            }
            func poi(_ key: String) -> String? { if case .string(let s)? = e.field(key) { return s } else { return nil } }
            let step = PlacesStep(
                seconds: e.time.seconds(since: start), current: poi("current"), lastEntered: poi("lastEntered"),
                lastExited: poi("lastExited"))
            if let last = out.last, last.current == step.current, last.lastEntered == step.lastEntered, last.lastExited == step.lastExited {
                continue
            }
            out.append(step)
        }
        return out
    }
}
