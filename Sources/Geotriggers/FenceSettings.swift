/// Every fence's resolved settings, by fence index, each distinct value held once.
///
/// Most fences share their zone's settings, or the scenario's: a settings value is 240 bytes,
/// and one per fence held 24 MB for 100,000 fences, a tenth of an event-log replay's peak
/// memory, copied value by value when the settings were resolved. Here each fence holds the
/// position of its value among the distinct ones (4 bytes), and changing every fence's settings
/// the same way (a sweep's combination) changes each distinct value once.
///
/// Reading a fence's settings (``subscript(_:)``) borrows the stored value: no copy, no reference
/// counting of its filter and message.
public struct FenceSettings: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    /// The distinct values, in the order first met.
    public private(set) var distinct: [GeotriggerSettings]
    /// Each fence's value, as its position in ``distinct``.
    private var positions: [Int32]

    /// No fences.
    public init() {
        distinct = []
        positions = []
    }

    /// The settings of each fence in turn, equal values stored once.
    public init(_ values: some Sequence<GeotriggerSettings>) {
        var builder = Builder()
        for value in values { builder.append(value) }
        self = builder.settings
    }

    public init(arrayLiteral values: GeotriggerSettings...) {
        self.init(values)
    }

    /// Builds the settings fence by fence: a value equal to one already met is stored once.
    public struct Builder {
        public private(set) var settings = FenceSettings()
        /// Where each distinct value is.
        private var position: [GeotriggerSettings: Int32] = [:]

        public init() {}

        /// The next fence's settings.
        public mutating func append(_ value: GeotriggerSettings) {
            settings.positions.append(intern(value))
        }

        /// The next fence's settings, given as the position of a value added with
        /// ``intern(_:)`` (no hashing per fence).
        public mutating func append(position: Int32) {
            precondition(Int(position) < settings.distinct.count, "a position among the distinct values")
            settings.positions.append(position)
        }

        /// The position of `value` among the distinct values, stored now if it is new.
        public mutating func intern(_ value: GeotriggerSettings) -> Int32 {
            if let k = position[value] { return k }
            let k = Int32(settings.distinct.count)
            settings.distinct.append(value)
            position[value] = k
            return k
        }

        public mutating func reserveCapacity(_ fences: Int) {
            settings.positions.reserveCapacity(fences)
        }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { positions.count }

    /// Fence `fence`'s settings, borrowed in place.
    public subscript(fence: Int) -> GeotriggerSettings {
        _read { yield distinct[Int(positions[fence])] }
    }

    /// The position of fence `fence`'s settings in ``distinct``.
    @inline(__always)
    public func position(of fence: Int) -> Int {
        Int(positions[fence])
    }

    /// The position in ``distinct`` of each value some fence has, once each, in the order of
    /// the first fence that has it (a value interned for no fence is skipped).
    ///
    /// What a question about every fence's settings reads (``contains(where:)``,
    /// ``allSatisfy(_:)``): going through the fences copied each fence's value, retaining its
    /// filter and message, for 100,000 fences each time one was asked.
    public func positionsInUse() -> [Int] {
        var seen = [Bool](repeating: false, count: distinct.count)
        var inUse: [Int] = []
        for p in positions where !seen[Int(p)] {
            seen[Int(p)] = true
            inUse.append(Int(p))
            if inUse.count == distinct.count { break }
        }
        return inUse
    }

    /// Whether some fence's settings satisfy `predicate` (asked once per distinct value in use).
    public func contains(where predicate: (GeotriggerSettings) throws -> Bool) rethrows -> Bool {
        for p in positionsInUse() where try predicate(distinct[p]) { return true }
        return false
    }

    /// Whether every fence's settings satisfy `predicate` (asked once per distinct value in use).
    public func allSatisfy(_ predicate: (GeotriggerSettings) throws -> Bool) rethrows -> Bool {
        try !contains { try !predicate($0) }
    }

    /// Changes every fence's settings by `change` (each distinct value once: the same result as
    /// changing each fence's).
    public mutating func modifyEach(_ change: (inout GeotriggerSettings) -> Void) {
        for k in distinct.indices { change(&distinct[k]) }
    }

    /// Whether the two give every fence equal settings (however the values are shared).
    public static func == (a: FenceSettings, b: FenceSettings) -> Bool {
        a.count == b.count && a.indices.allSatisfy { a[$0] == b[$0] }
    }
}
