/// Which geotrigger watches each fence of a set that several named geotriggers watch (a
/// scenario's `geotriggers:`): the set holds one fence for each (geotrigger, fence) pair, so that
/// one engine keeps each pair's state with the pair's settings.
///
/// The set's first ``sharedCount`` fences are the distinct fences watched, each once (the pair
/// of the first geotrigger that watches it), in the order of the fences they were selected from;
/// the further pairs follow, by geotrigger, then in that order. What sees a fence once (check-ins,
/// Places, rules' fence lookups, scoring) reads that first part.
public struct FenceWatchers: Sendable {
    /// The geotriggers' names, in the order the scenario gives them.
    public var names: [String]
    /// By fence of the set: the index in ``names`` of the geotrigger watching it.
    public var geotrigger: [Int32]
    /// By fence of the set: the index of the same fence among the first ``sharedCount``.
    public var shared: [Int32]
    /// How many distinct fences are watched.
    public var sharedCount: Int

    public init(names: [String], geotrigger: [Int32], shared: [Int32], sharedCount: Int) {
        self.names = names
        self.geotrigger = geotrigger
        self.shared = shared
        self.sharedCount = sharedCount
    }

    /// The name of the geotrigger watching fence `fence` of the set.
    @inline(__always)
    public func name(of fence: Int) -> String {
        names[Int(geotrigger[fence])]
    }
}

extension FenceSet {
    /// The distinct fences watched, each once (the set itself when one geotrigger watches it):
    /// what check-ins, Places and rules index.
    public var watchedOnce: FenceSet {
        guard let watchers, watchers.sharedCount < fences.count else { return self }
        var set = self
        set.fences = Array(fences[..<watchers.sharedCount])
        return set
    }
}
