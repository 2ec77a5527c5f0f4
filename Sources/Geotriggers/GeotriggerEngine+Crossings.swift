import Spatial
import Support

extension GeotriggerEngine {
    /// Reports visits that lie wholly between two consecutive fixes of a segment (the ArcGIS
    /// "fence falls in the gap" case; Tile38's `cross` detect), assuming straight, uniform motion
    /// between the fixes.
    ///
    /// With the accuracy feed the disc radius is taken as the smaller of the two fixes'
    /// accuracies for `intersects` and the larger for `contains`, so that a hidden visit is only
    /// claimed when both accuracies would agree.
    func hiddenVisits(_ j: Int, _ from: Sample, _ to: Sample, _ settings: GeotriggerSettings) {
        let p = from.position
        let q = to.position
        guard p != q else { return }
        let containing = settings.relationship != .intersects
        let a: Double
        switch settings.feed {
        case .point: a = 0
        case .accuracy: a = containing ? max(from.accuracy, to.accuracy) : min(from.accuracy, to.accuracy)
        }
        var fractions: [Double] = []
        switch fences.shapes[j] {
        case .circle(let c, let r):
            fractions = circleCrossings(p, q, c, containing ? r - a : r + a)
        case .beacon(let c, let enter, _):
            fractions = circleCrossings(p, q, c, containing ? enter - a : enter + a)
        case .area:
            guard let area = fences.area(j), let boundaryFractions = areaCrossings(j, area, p, q, a, containing) else { return }
            fractions = boundaryFractions
        case .line, .empty:
            return
        }
        guard !fractions.isEmpty else { return }
        var visits: [(Double, Double)] = []
        var k = 0
        // A circle's crossings bound its chord: the segment is inside between them (or touches
        // it at one), with no midpoint to test, which could round the wrong way when the two
        // fractions nearly meet.
        if case .area = fences.shapes[j] {
        } else {
            visits.append((fractions[0], fractions[fractions.count - 1]))
            k = fractions.count
        }
        // An area's visits: runs between crossings whose midpoint satisfies the enter condition,
        // and isolated touching points.
        while k < fractions.count {
            var end = fractions[k]
            var m = k
            while m + 1 < fractions.count {
                let mid = (fractions[m] + fractions[m + 1]) / 2
                let point = XY(p.x + (q.x - p.x) * mid, p.y + (q.y - p.y) * mid)
                // Between fixes: a noisy beacon's noise belongs to fixes, not to points between.
                guard conditions(j, point, a, settings.relationship, sampleIndex: nil).0 else { break }
                m += 1
                end = fractions[m]
            }
            visits.append((fractions[k], end))
            k = m + 1
        }
        let span = to.time.seconds(since: from.time)
        for (f0, f1) in visits {
            let enterTime = from.time.adding(seconds: span * f0)
            let exitTime = from.time.adding(seconds: span * f1)
            let at = XY(p.x + (q.x - p.x) * f0, p.y + (q.y - p.y) * f0)
            let lonLat = fences.frame.inverse(at)
            let reason =
                "fence lies between fix \(from.index) and fix \(to.index) (\(MessageTemplate.format(span)) s, \(MessageTemplate.format(p.distance(to: q))) m apart)"
            if settings.gapPolicy != .ignore, settings.level != .none {
                // The visit the event reports, as a stretch inside between the fixes.
                let out = fences.frame.inverse(XY(p.x + (q.x - p.x) * f1, p.y + (q.y - p.y) * f1))
                levelChanges.append(
                    LevelChange(
                        fence: j, time: enterTime, inside: true, fixIndex: to.index, interpolated: true,
                        longitude: lonLat.x, latitude: lonLat.y))
                levelChanges.append(
                    LevelChange(
                        fence: j, time: exitTime, inside: false, fixIndex: to.index, interpolated: true,
                        longitude: out.x, latitude: out.y))
            }
            switch settings.gapPolicy {
            case .ignore:
                return
            case .report:
                var event = makeEvent(.passthrough, j, to, time: enterTime, reason: reason)
                event.interpolated = true
                event.enterTime = enterTime
                event.exitTime = exitTime
                event.longitude = lonLat.x
                event.latitude = lonLat.y
                event.notified = settings.notify.includesEnter || settings.notify.includesExit
                if !event.notified { event.message = nil }
                scratch.append(event)
            case .interpolate:
                for (kind, time, fraction) in [(GeotriggerEvent.Kind.enter, enterTime, f0), (.exit, exitTime, f1)] {
                    var event = makeEvent(kind, j, to, time: time, reason: reason)
                    let point = XY(p.x + (q.x - p.x) * fraction, p.y + (q.y - p.y) * fraction)
                    let ll = fences.frame.inverse(point)
                    event.interpolated = true
                    event.longitude = ll.x
                    event.latitude = ll.y
                    event.distance = 0
                    scratch.append(event)
                }
            }
        }
    }

    /// Fractions along `p`→`q` where the segment meets the disc of radius `r` around `c`: the
    /// ends of the stretch inside it, or the one point where it touches the boundary.
    func circleCrossings(_ p: XY, _ q: XY, _ c: XY, _ r: Double) -> [Double] {
        guard r > 0, let t = XY.lineCircleFractions(p, q, center: c, radius: r), t.far >= 0, t.near <= 1 else { return [] }
        let a = min(1, max(0, t.near))
        let b = min(1, max(0, t.far))
        return a == b ? [a] : [a, b]
    }

    /// Fractions along `p`→`q` where it meets the area's boundary (grown by `a`, or shrunk when
    /// `containing`), or `nil` when the segment does not come near it.
    func areaCrossings(_ j: Int, _ area: CompiledFences.AreaFence, _ p: XY, _ q: XY, _ a: Double, _ containing: Bool) -> [Double]? {
        do throws(SpatialError) {
            if segmentGeometry?.from != p || segmentGeometry?.to != q {
                segmentGeometry = (p, q, try Geometry(.lineString([p, q]), context: fences.context))
            }
            guard let segment = segmentGeometry?.geometry else { return nil }
            if a == 0 {
                let parts = try area.parts()
                guard try parts.prepared.intersects(segment) else { return nil }
                return try parts.geometry.crossings(from: p, to: q).map(\.fraction)
            }
            let parts = try area.parts()
            if !containing {
                guard try parts.geometry.distance(to: segment) <= a else { return nil }
            } else {
                guard try parts.prepared.intersects(segment) else { return nil }
            }
            let radius = containing ? -a : a
            let grown: Geometry
            if let cached = bufferedAreas[j], cached.radius == radius {
                grown = cached.geometry
            } else {
                grown = try parts.geometry.buffer(radius)
                bufferedAreas[j] = (radius, grown)
            }
            guard !grown.isEmpty else { return nil }
            return try grown.crossings(from: p, to: q).map(\.fraction)
        } catch {
            fences.failures.record(error, fence: fences.fenceSet.fences[j])
            return nil
        }
    }

    /// Emits a `cross` event for each time the movement from `from` to `to` crosses the line.
    ///
    /// A fix exactly on the line counts as being on its left, so a path through a point of the
    /// line is counted once. Each line segment owns its start vertex but not its end vertex (the
    /// last owns both), so a crossing at a vertex is counted once.
    func lineCrossings(_ j: Int, _ points: [XY], _ from: Sample, _ to: Sample, _ settings: GeotriggerSettings) {
        let p = from.position
        let q = to.position
        guard p != q else { return }
        let r = XY(q.x - p.x, q.y - p.y)
        let span = to.time.seconds(since: from.time)
        for k in 0..<(points.count - 1) {
            let a = points[k]
            let b = points[k + 1]
            let s = XY(b.x - a.x, b.y - a.y)
            let sideP = cross(s, XY(p.x - a.x, p.y - a.y)) >= 0
            let sideQ = cross(s, XY(q.x - a.x, q.y - a.y)) >= 0
            guard sideP != sideQ else { continue }
            let denominator = cross(r, s)
            guard denominator != 0 else { continue }
            let ap = XY(a.x - p.x, a.y - p.y)
            let t = min(1, max(0, cross(ap, s) / denominator))
            let u = cross(ap, r) / denominator
            let last = k == points.count - 2
            guard u >= 0, last ? u <= 1 : u < 1 else { continue }
            let time = from.time.adding(seconds: span * t)
            var event = makeEvent(
                .cross, j, to, time: time,
                reason: "line crossed between fix \(from.index) and fix \(to.index)")
            event.interpolated = true
            event.direction = sideP ? .leftToRight : .rightToLeft
            event.distance = 0
            let ll = fences.frame.inverse(XY(p.x + r.x * t, p.y + r.y * t))
            event.longitude = ll.x
            event.latitude = ll.y
            scratch.append(event)
        }
    }
}

@inline(__always)
func cross(_ u: XY, _ v: XY) -> Double { u.x * v.y - u.y * v.x }
