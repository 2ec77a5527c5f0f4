import Spatial
import Support

/// The scheduled fences (``FenceIndex/Record/scheduled``): tested again only when the device could
/// have reached their boundary.
///
/// A fence's condition can only change when the device (its position, and the radius of its
/// accuracy disc when any fence uses the accuracy feed) has moved at least as far as the fence's
/// clearance at its last test (``FenceDecision``). So each fence is tested once, then again only
/// when the device's odometer (metres moved, plus metres of accuracy change) has advanced by that
/// clearance: a calendar of odometer buckets hands back the fences that are due. Fences come under
/// watch when the query box reaches a grid cell they are registered in, and leave it when a test
/// finds them outside and out of that box's cells. Per fix the cost is the fences that come due
/// (those whose boundary is near) and the fences of newly reached cells, not every fence of the
/// cell.
///
/// A visit hidden between two fixes is no exception: every point of the segment between them is
/// within the odometer's advance of where the fence was last tested, so a fence that is not due
/// cannot have been reached between the fixes either.
///
/// Exact by construction: a fence is tested with ``FenceDecision`` (and GEOS where the boundary is
/// within a nanometre), and a clearance is used only less a micrometre, far above the rounding of
/// the distances (about 1e-11 m in a frame tens of kilometres wide; more is kept where coordinates
/// are larger), with the odometer kept in whole micrometres rounded up, so that no rounding can
/// make a fence skip a test it needed. A step the calendar cannot measure (not a number, a jump
/// beyond a lap) tests every watched fence afresh.
extension GeotriggerEngine {
    struct Calendar {
        /// What the tests read, as plain pointers into the index (which the engine's fences keep
        /// alive) or into memory of the calendar's own (freed by ``deallocate()``).
        let records: UnsafePointer<FenceIndex.Record>
        let runBoxes: UnsafePointer<Double>
        let runBoxStart: UnsafePointer<Int32>
        let rings: UnsafePointer<(vertexStart: Int, ringStart: Int, ringCount: Int)>
        let polygonXs: UnsafePointer<Double>
        let polygonYs: UnsafePointer<Double>
        let polygonRingEnds: UnsafePointer<Int>
        let usesAccuracyFeed: Bool
        let magnitude: Double
        /// By slot: whether the fence is watched and inside, and its place in the calendar.
        let watches: UnsafeMutablePointer<Watch>
        /// The first fence of each bucket's list (-1 for none). Bucket `b` holds the fences due in
        /// odometer micrometres `b << bucketShift ..< (b + 1) << bucketShift`, at `b & bucketMask`
        /// (a fence due more than a lap ahead waits its lap there).
        let heads: UnsafeMutablePointer<Int32>
        var odometer: UInt64 = 0
        /// The last bucket read: read again at the next fix, since fences due within it may have
        /// been put back in it.
        var bucket: UInt64 = 0
        /// The cells the query covered at the last fix (first and last column, first and last
        /// row; ``noCells`` for none).
        var range = Calendar.noCells
        /// Scheduled fences the device is inside.
        var insideCount = 0
        /// Every watched fence, while the calendar is emptied (storage kept).
        var watched: [Int32] = []

        struct Watch {
            /// For a watched fence: the odometer reading (micrometres) at which it is due.
            var due: UInt64 = 0
            /// The next fence in the same bucket (-1 ends the list).
            var next: Int32 = -1
            var watched = false
            var inside = false
            /// For a polygon: the run of edges that held the nearest edge at the last test (see
            /// ``Spatial/PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)``).
            var run: UInt16 = 0
        }

        static let bucketShift: UInt64 = 20
        static let bucketCount = 4096
        static let bucketMask = UInt64(bucketCount - 1)
        /// Metres kept in hand on every clearance: far above the rounding of the distances, far
        /// below any fence.
        static let clearanceSlack = 1e-6
        /// The largest clearance kept (a fence farther than this is tested again after this many
        /// metres): keeps odometer arithmetic far from overflow.
        static let clearanceLimit = 1e9
        /// A step longer than this (metres), or not a number, tests every watched fence afresh.
        static let stepLimit = 1e9
        /// An odometer past this reading (micrometres) starts again from zero, every watched fence
        /// tested afresh. A fix adds less than a lap of the calendar (2^32 µm; a longer step tests
        /// afresh anyway), so this takes billions of fixes; it keeps the sums far from overflowing.
        static let odometerLimit: UInt64 = 1 << 62
        /// A range no fence's cells meet.
        static let noCells = SIMD4<Int>(.max, .min, .max, .min)

        init(index: FenceIndex) {
            records = UnsafePointer(index.records)
            runBoxes = index.runBoxes
            runBoxStart = FenceIndex.ownedCopy(index.runBoxStart)
            let ringCopy = UnsafeMutablePointer<(vertexStart: Int, ringStart: Int, ringCount: Int)>.allocate(capacity: max(1, index.count))
            ringCopy.initialize(from: index.polygonRings, count: index.polygonRings.count)
            rings = UnsafePointer(ringCopy)
            polygonXs = index.polygonXs
            polygonYs = index.polygonYs
            polygonRingEnds = index.polygonRingEnds
            usesAccuracyFeed = index.usesAccuracyFeed
            magnitude = index.magnitude
            watches = .allocate(capacity: max(1, index.count))
            watches.initialize(repeating: Watch(), count: max(1, index.count))
            heads = .allocate(capacity: Calendar.bucketCount)
            heads.initialize(repeating: -1, count: Calendar.bucketCount)
        }

        func deallocate() {
            runBoxStart.deallocate()
            rings.deallocate()
            watches.deallocate()
            heads.deallocate()
        }

        /// Empties the calendar into ``watched`` (every watched fence, once).
        mutating func drain() {
            for b in 0..<Calendar.bucketCount {
                var slot = heads[b]
                heads[b] = -1
                while slot >= 0 {
                    watched.append(slot)
                    slot = watches[Int(slot)].next
                }
            }
        }

        /// Forgets every fence's state, as a fresh engine.
        mutating func restart() {
            drain()
            for slot in watched { watches[Int(slot)] = Watch() }
            watched.removeAll(keepingCapacity: true)
            insideCount = 0
            odometer = 0
            bucket = 0
            range = Calendar.noCells
        }
    }

    /// A fix as the scheduled tests read it (small: it is passed to every test; the whole
    /// sample is read through ``GeotriggerEngine/current`` when a fence flips).
    struct Probe {
        let x: Double
        let y: Double
        let accuracy: Double
        let isFirst: Bool
        /// Metres kept in hand on every clearance (``Calendar/clearanceSlack``, more in frames
        /// whose coordinates are large, where distances round more coarsely).
        let slack: Double
        /// The error bound of ``Spatial/PlanarPolygon/roughLocate(_:xs:ys:start:ringEnds:runBoxes:hint:)`` here.
        let roughError: Double
    }

    /// The scheduled fences at `sample`, whose query reaches the cells `found`: the fences due,
    /// then those of the cells the query has just reached; adds their inside pairs.
    func schedule(_ sample: Sample, range found: (c0: Int, c1: Int, r0: Int, r1: Int)?, isFirst: Bool) {
        let px = sample.position.x
        let py = sample.position.y
        var full = true
        if let previous {
            let dx = px - previous.position.x
            let dy = py - previous.position.y
            var step = (dx * dx + dy * dy).squareRoot()
            if calendar.usesAccuracyFeed { step += abs(sample.accuracy - previous.accuracy) }
            if step <= Calendar.stepLimit, calendar.odometer < Calendar.odometerLimit {
                // Rounded up, and a micrometre more for the rounding of `step` itself.
                let moved = UInt64((step * 1e6).rounded(.up)) + 1
                let reached = (calendar.odometer + moved) >> Calendar.bucketShift
                if reached - calendar.bucket < UInt64(Calendar.bucketCount) {
                    calendar.odometer += moved
                    full = false
                }
            }
        }
        var newRange = Calendar.noCells
        if let c = found, c.c0 <= c.c1, c.r0 <= c.r1 { newRange = SIMD4(c.c0, c.c1, c.r0, c.r1) }
        let magnitude = max(calendar.magnitude, abs(px), abs(py))
        let probe = Probe(
            x: px, y: py, accuracy: sample.accuracy, isFirst: isFirst, slack: Calendar.clearanceSlack + 1e-13 * magnitude,
            roughError: PlanarPolygon.roughDistanceError(magnitude: magnitude))
        let before = calendar.range
        calendar.range = newRange
        if full {
            // The first fix, or a step the calendar cannot measure: every watched fence afresh,
            // on an odometer started again (each test sets its fence's due reading anew).
            calendar.drain()
            calendar.odometer = 0
            calendar.bucket = 0
            for k in calendar.watched.indices { test(Int(calendar.watched[k]), probe) }
            calendar.watched.removeAll(keepingCapacity: true)
            for slot in cellTable.largeScheduled where !calendar.watches[Int(slot)].watched { test(Int(slot), probe) }
            discover(probe, besides: Calendar.noCells)
        } else {
            // The buckets due, the current one first: a test puts its fence back no earlier than
            // the current bucket, whose list was taken out first and is read again at the next
            // fix, so no fence is tested twice.
            let now = calendar.odometer >> Calendar.bucketShift
            var b = now
            while true {
                let place = Int(b & Calendar.bucketMask)
                var slot = calendar.heads[place]
                calendar.heads[place] = -1
                while slot >= 0 {
                    let following = calendar.watches[Int(slot)].next
                    if following >= 0 {
                        // The next fence's record and watch are fetched while this one is
                        // tested: a bucket's fences lie anywhere in the tables.
                        Prefetch.read(at: calendar.records + Int(following))
                        Prefetch.read(at: UnsafePointer(calendar.watches + Int(following)))
                        Prefetch.read(at: calendar.rings + Int(following))
                        Prefetch.read(at: calendar.runBoxStart + Int(following))
                    }
                    if calendar.watches[Int(slot)].due >> Calendar.bucketShift > now {
                        // Due in a later lap of the calendar.
                        calendar.watches[Int(slot)].next = calendar.heads[place]
                        calendar.heads[place] = slot
                    } else {
                        test(Int(slot), probe)
                    }
                    slot = following
                }
                if b == calendar.bucket { break }
                b -= 1
            }
            calendar.bucket = now
            if newRange != before { discover(probe, besides: before) }
        }
        statistics.insidePairs += calendar.insideCount
    }

    /// Tests every scheduled fence not watched yet of the cells in range that are not in `before`
    /// (``Calendar/noCells`` for all of them). Every fence of a cell in range stays watched (a
    /// fence leaves the watch only when none of its cells is in range), so only the cells the
    /// range has just reached can hold fences to find.
    func discover(_ probe: Probe, besides before: SIMD4<Int>) {
        let range = calendar.range
        guard range != Calendar.noCells else { return }
        let starts = cellTable.scheduledStarts
        let slots = cellTable.scheduledSlots
        let columns = cellTable.columns
        for row in range[2]...range[3] {
            let rowBefore = row >= before[2] && row <= before[3]
            for column in range[0]...range[1] {
                if rowBefore, column >= before[0], column <= before[1] { continue }
                let cell = row * columns + column
                let last = Int(starts[cell + 1])
                for k in Int(starts[cell])..<last {
                    let slot = Int(slots[k])
                    if k + 1 < last {
                        Prefetch.read(at: calendar.records + Int(slots[k + 1]))
                        Prefetch.read(at: UnsafePointer(calendar.watches + Int(slots[k + 1])))
                    }
                    if !calendar.watches[slot].watched { test(slot, probe) }
                }
            }
        }
    }

    /// Tests the scheduled fence in `slot`: its state, an enter or exit (or a visit hidden since
    /// the previous fix), then either its next test in the calendar or the end of its watch.
    @inline(__always)
    func test(_ slot: Int, _ probe: Probe) {
        let record = calendar.records[slot]
        let inside = calendar.watches[slot].inside
        var reachable = true
        if !record.large {
            let c = record.cells
            let range = calendar.range
            reachable = Int(c[1]) >= range[0] && Int(c[0]) <= range[1] && Int(c[3]) >= range[2] && Int(c[2]) <= range[3]
            // Out of the query's cells and outside: no query would look at it (and its condition
            // cannot hold there); it leaves the watch.
            if !reachable, !inside {
                calendar.watches[slot] = Calendar.Watch()
                return
            }
        }
        let a = record.accuracyFeed ? probe.accuracy : 0
        var run = calendar.watches[slot].run
        let decision: FenceDecision
        // The signed distance the decision used, and how far it may be from the exact one.
        var measured = (distance: Double.nan, error: Double.infinity)
        switch record.kind {
        case .circle, .beacon:
            let dx = probe.x - record.x
            let dy = probe.y - record.y
            let centre = (dx * dx + dy * dy).squareRoot()
            decision = .disc(record.relationship, distance: centre, enterRadius: record.r, stayRadius: record.rx, accuracy: a)
            // `signedDistance`'s arithmetic: the record holds the fence's centre and radius.
            measured = (centre - record.r, 0)
        case .area:
            let px = probe.x
            let py = probe.y
            let ex = max(record.x - px, px - record.r, 0)
            let ey = max(record.y - py, py - record.rx, 0)
            if let beyond = FenceDecision.beyondEnvelope(dx: ex, dy: ey, accuracy: a) {
                decision = beyond
                measured = (.nan, .infinity)
            } else {
                let p = XY(px, py)
                var isInside = false
                var d = 0.0
                // How far `d` may be from the exact distance.
                var error = 0.0
                var settled = false
                let ring = calendar.rings[slot]
                if ring.ringCount > 0 {
                    let ends = UnsafeBufferPointer(start: calendar.polygonRingEnds + ring.ringStart, count: ring.ringCount)
                    let boxStart = Int(calendar.runBoxStart[slot])
                    if boxStart >= 0 {
                        // One pass: the parity and a distance within `error` of GEOS's. It settles
                        // the conditions unless the boundary, or the edge of the disc, is within
                        // that error.
                        let found = PlanarPolygon.roughLocate(
                            p, xs: calendar.polygonXs, ys: calendar.polygonYs, start: ring.vertexStart, ringEnds: ends,
                            runBoxes: calendar.runBoxes + 4 * boxStart, hint: Int(run))
                        (isInside, d) = (found.inside, found.distance)
                        run = UInt16(truncatingIfNeeded: found.nearestRun)
                        error = probe.roughError
                        settled = d > error && (a == 0 || abs(d - a) > error)
                    }
                    if !settled,
                        let exact = PlanarPolygon.locate(
                            p, xs: calendar.polygonXs, ys: calendar.polygonYs, start: ring.vertexStart, ringEnds: ends)
                    {
                        (isInside, d, error, settled) = (exact.inside, exact.boundaryDistance, 0, true)
                    }
                }
                if !settled {
                    // Within a nanometre of the boundary, or a polygon left to GEOS.
                    (isInside, d) = fences.area(Int(slotFence[slot]))?.locateWithGEOS(p) ?? (false, .infinity)
                    // A polygon with rings is tested again at the next fix.
                    error = ring.ringCount > 0 ? .infinity : 0
                }
                decision = .area(record.relationship, inside: isInside, boundaryDistance: d, accuracy: a, error: error)
                measured = (isInside ? -d : d, error)
            }
        case .line, .empty:
            // Never scheduled.
            return
        }
        var nowInside = inside
        let j = Int(slotFence[slot])
        if decision.holds(inside: inside) != inside {
            // Scheduled fences flip at once (no debounce): the enter or exit, as every fence's.
            var state = FenceState(inside: inside)
            // The event's distance from this test when it settles the millimetre the log shows.
            measuredFence = j
            measuredMillimetres = GeotriggerEvent.millimetres(measured.distance, within: measured.error)
            transition(j, current!.pointee, &state, desired: !inside, isFirst: probe.isFirst)
            measuredFence = -1
            nowInside = state.inside
            calendar.insideCount += nowInside ? 1 : -1
        } else if !inside, output == .events, profiles[j].hiddenVisits, let previous {
            // The sample is copied out only for a fence that looks for hidden visits: the copy
            // was most tests' only one.
            let sample = current!.pointee
            if sample.continues(previous, maxGap: profiles[j].maxGap) {
                hiddenVisits(j, previous, sample, fences.settings[j])
            }
        }
        if !nowInside, !reachable {
            calendar.watches[slot] = Calendar.Watch()
            return
        }
        // The condition that would change the state next, less the slack for rounding.
        let clearance = min(decision.clearance(inside: nowInside) - probe.slack, Calendar.clearanceLimit)
        let when = calendar.odometer + (clearance > 0 ? UInt64(clearance * 1e6) : 0)
        let b = Int((when >> Calendar.bucketShift) & Calendar.bucketMask)
        calendar.watches[slot] = Calendar.Watch(due: when, next: calendar.heads[b], watched: true, inside: nowInside, run: run)
        calendar.heads[b] = Int32(slot)
    }
}
