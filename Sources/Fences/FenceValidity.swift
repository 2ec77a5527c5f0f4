import Support

/// When a fence exists in trace time: from `validFrom` (inclusive) until `validUntil`
/// (exclusive), and within that, when a schedule is given, only in its windows (days of the week
/// and hours in a time zone, read as ``ZoneConditions/TimeWindow``). Outside its validity a fence
/// is not tested and makes no events.
///
/// Models graphics fences added, removed or moved while an ArcGIS geotrigger monitor runs, and
/// the expiry of fences in other platforms.
public struct FenceValidity: Hashable, Sendable {
    /// The first instant the fence exists (`nil`: since before the trace).
    public var from: Timestamp?
    /// The first instant it no longer exists (`nil`: after the trace).
    public var until: Timestamp?
    /// The windows it exists in (empty: no schedule, always within `from..<until`).
    public var schedule: [ZoneConditions.TimeWindow]

    public init(from: Timestamp? = nil, until: Timestamp? = nil, schedule: [ZoneConditions.TimeWindow] = []) {
        self.from = from
        self.until = until
        self.schedule = schedule
    }

    /// Whether the fence exists at `time`.
    public func contains(_ time: Timestamp) -> Bool {
        if let from, time < from { return false }
        if let until, time >= until { return false }
        return schedule.isEmpty || schedule.contains { $0.contains(time) }
    }

    /// The instants after `start` and up to `end` (both ends in trace time) at which the fence
    /// appears or disappears, in time order, each with whether it exists from then on.
    ///
    /// A schedule can change only at whole minutes of UTC (its windows are whole local minutes,
    /// and time-zone offsets are whole minutes), so those are the instants looked at besides
    /// `from` and `until`.
    ///
    /// - Complexity: O(1) without a schedule; with one, proportional to the minutes between
    ///   `start` and `end`.
    public func changes(after start: Timestamp, through end: Timestamp) -> [(time: Timestamp, exists: Bool)] {
        guard start < end else { return [] }
        var candidates: [Timestamp] = []
        if let from, start < from, from <= end { candidates.append(from) }
        if let until, start < until, until <= end { candidates.append(until) }
        if !schedule.isEmpty {
            // Whole minutes after `start`, through `end`, within `from..<until`.
            var minute = start.seconds - ((start.seconds % 60) + 60) % 60 + 60
            if let from, from.seconds > minute { minute = from.seconds - ((from.seconds % 60) + 60) % 60 }
            var last = end.seconds
            if let until, until.seconds < last { last = until.seconds }
            while minute <= last {
                let t = Timestamp(seconds: minute)
                if start < t, t <= end { candidates.append(t) }
                minute += 60
            }
            candidates.sort()
        }
        var exists = contains(start)
        var found: [(time: Timestamp, exists: Bool)] = []
        var previous: Timestamp?
        for t in candidates where t != previous {
            previous = t
            let now = contains(t)
            if now != exists {
                found.append((t, now))
                exists = now
            }
        }
        return found
    }
}

extension FenceValidity {
    /// Whether fences of validities `a` and `b` (`nil`: always) may exist at the same time: their
    /// `validFrom..<validUntil` spans meet (schedules are not compared).
    public static func mayCoexist(_ a: FenceValidity?, _ b: FenceValidity?) -> Bool {
        let starts = [a?.from, b?.from].compactMap { $0 }
        let ends = [a?.until, b?.until].compactMap { $0 }
        guard let start = starts.max(), let end = ends.min() else { return true }
        return start < end
    }
}

extension ZoneConditions.TimeWindow {
    /// Day names as a time window reads them (the first three letters, any case), 0 = Sunday.
    public static let dayNumbers = ["sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6]

    /// The day number of a day name (``dayNumbers``), or `nil`.
    public static func dayNumber(_ name: String) -> Int? {
        dayNumbers[String(name.lowercased().prefix(3))]
    }

    /// Minutes after midnight of a time of day `HH:MM` (`24:00` allowed), or `nil`.
    public static func minuteOfDay(_ text: String) -> Int? {
        guard text.count == 5, text.dropFirst(2).first == ":", let h = Int(text.prefix(2)), let m = Int(text.suffix(2)),
            (0...24).contains(h), (0...59).contains(m), h * 60 + m <= 1440
        else { return nil }
        return h * 60 + m
    }
}
