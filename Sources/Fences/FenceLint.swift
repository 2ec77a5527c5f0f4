import Spatial
import Support

/// Checks fence sizing without a trace (SPEC §6.4) and returns located findings; it reads no
/// file and prints nothing.
///
/// What is checked, on each fence as the engine evaluates it (its buffer applied), in a metric
/// frame:
/// - `invalid-geometry` (error; a warning when the runs repair it with make-valid): the geometry
///   GEOS finds invalid. The fence set must have been read with
///   ``FenceReadOptions/makeValid`` so that such fences reach the lint as repair warnings
///   instead of stopping the read.
/// - `buffered-away` (error): a negative buffer leaves nothing; the fence can never be entered.
/// - `narrow` (error): the minimum width is less than the largest `speed × interval` of the
///   motions, so the fence can lie wholly between two fixes (ArcGIS evaluates geotriggers per
///   delivered location; its guidance: "at 30 m/s and 1 s updates a 10 m fence can fall in the
///   gap"). Width is GEOS's minimum width (of the convex hull) for areas, or the narrowest wall
///   where two parts of the boundary face each other across the inside nearer than that (a ring
///   around a hole, the arm of a U; ``Spatial/NarrowestWall``, located in the message), plus
///   twice a positive buffer; `2 × radius` for circles; `2 × buffer` for buffered lines (corridors). Plain lines
///   are crossed by segment, and beacons are radio ranges, so neither can fall in a gap.
/// - `tiny-circle`, `tiny-polygon` (warnings): below the Bluedot minimum sizes of a zone's
///   geofeatures, a circle radius of 5 m and a polygon area of 70 m² (Bluedot documentation,
///   "Add a new zone"; see research/geofence-systems.md §2).
/// - `zone-overlap` (warning): two fences that name the same `zone` property share area. One
///   check-in per zone means the second fence entered does nothing while the first holds the
///   check-in, and check-out follows whichever fence is left first. Fences without a `zone`
///   property are independent geotriggers (and Places POIs may overlap on purpose), so they are
///   not paired. Lines and beacons are not paired.
///
/// Findings are sorted by ``LintFinding/precedes(_:_:)``.
public enum FenceLint {
    /// What to check against.
    public struct Options: Sendable {
        /// The motions whose gaps fences must be wider than; none skips the `narrow` check.
        public var motions: [LintMotion]
        /// The buffer of fences without a `buffer` property (a scenario's `geotrigger.buffer`).
        public var bufferMeters: Double
        /// The buffer of every fence, in fence order, replacing ``bufferMeters`` and the fences'
        /// own `buffer` properties (a scenario's resolved settings); `nil` to use those.
        public var fenceBuffers: [Double]?
        /// The metric frame; `nil` chooses one around the fences (SPEC §1.4).
        public var frame: FrameDefinition?
        /// Circles with a smaller radius are `tiny-circle` (Bluedot: 5 m).
        public var minimumCircleRadiusMeters: Double
        /// Polygons with a smaller area are `tiny-polygon` (Bluedot: 70 m²).
        public var minimumPolygonAreaSquareMeters: Double
        /// Whether the runs repair invalid geometry (`--make-valid`): `invalid-geometry` is then
        /// a warning.
        public var invalidGeometryIsRepaired: Bool

        public init(
            motions: [LintMotion] = [], bufferMeters: Double = 0, fenceBuffers: [Double]? = nil, frame: FrameDefinition? = nil,
            minimumCircleRadiusMeters: Double = 5, minimumPolygonAreaSquareMeters: Double = 70,
            invalidGeometryIsRepaired: Bool = false
        ) {
            self.motions = motions
            self.bufferMeters = bufferMeters
            self.fenceBuffers = fenceBuffers
            self.frame = frame
            self.minimumCircleRadiusMeters = minimumCircleRadiusMeters
            self.minimumPolygonAreaSquareMeters = minimumPolygonAreaSquareMeters
            self.invalidGeometryIsRepaired = invalidGeometryIsRepaired
        }
    }

    /// Overlaps smaller than this are taken for shared edges and rounding, not overlaps.
    public static let minimumOverlapSquareMeters = 0.01

    /// Lints `fences`.
    ///
    /// - Parameters:
    ///   - fences: the fence set, read with make-valid so that invalid geometry shows as repair
    ///     warnings (``FenceReadOptions/makeValid``).
    ///   - options: motions, buffers, frame and limits.
    /// - Returns: the findings, sorted.
    /// - Throws: ``Support/FencesimError`` `.badData` when no metric frame fits the fences or a
    ///   fence cannot be projected into it (located at the fence); `.internalError` when GEOS
    ///   fails.
    /// - Complexity: O(n log n + k) GEOS operations for n fences and k pairs of fences of one
    ///   zone whose extents meet.
    public static func lint(_ fences: FenceSet, options: Options = Options()) throws(FencesimError) -> [LintFinding] {
        if let buffers = options.fenceBuffers, buffers.count != fences.fences.count {
            throw FencesimError(.internalError, "lint got \(buffers.count) buffers for \(fences.fences.count) fences")
        }
        var findings = invalidGeometry(fences, repaired: options.invalidGeometryIsRepaired)
        guard let box = fences.boundingBox else { return findings.sorted(by: LintFinding.precedes) }
        let definition: FrameDefinition
        if let given = options.frame {
            definition = given
        } else {
            do {
                definition = try MetricFrame.automaticDefinition(covering: box).definition
            } catch {
                throw FencesimError(.badData, "no automatic metric frame fits the fences: \(error)", at: SourceLocation(file: fences.file))
            }
        }
        let frame: MetricFrame
        let context: GEOSContext
        do {
            frame = try MetricFrame(definition)
            context = try GEOSContext()
        } catch {
            throw FencesimError(
                .badData, "cannot build the metric frame \"\(definition)\": \(error.message)", at: SourceLocation(file: fences.file),
                cause: error)
        }
        var measured: [Measured] = []
        measured.reserveCapacity(fences.fences.count)
        for (k, fence) in fences.fences.enumerated() {
            let buffer = options.fenceBuffers?[k] ?? fence.bufferMeters ?? options.bufferMeters
            let m: Measured
            do {
                m = try Measured(fence, buffer: buffer, frame: frame, context: context, wallsBelow: options.motions.map(\.gapMeters).max())
            } catch {
                throw FencesimError(
                    .badData, "fence \"\(fence.id)\" cannot be measured in the metric frame \(definition): \(error.message)",
                    at: fence.location, cause: error)
            }
            findings += sizing(m, options: options)
            measured.append(m)
        }
        do {
            findings += try overlaps(measured)
        } catch {
            throw FencesimError(.internalError, "GEOS failed while looking for overlapping fences: \(error.message)", cause: error)
        }
        return findings.sorted(by: LintFinding.precedes)
    }

    /// A WGS84 position as `longitude, latitude` with seven decimals (about a centimetre).
    static func coordinate(_ p: XY) -> String {
        func seven(_ v: Double) -> String {
            let scaled = (v * 1e7).rounded()
            let sign = scaled < 0 ? "-" : ""
            let whole = Int64(abs(scaled))
            let fraction = String(whole % 10_000_000)
            return "\(sign)\(whole / 10_000_000).\(String(repeating: "0", count: 7 - fraction.count))\(fraction)"
        }
        return "\(seven(p.x)), \(seven(p.y))"
    }

    /// Whether `width` falls short of `gap` at the millimetre, the precision of every measurement
    /// fencesim writes (so that a fence exactly as wide as the gap, up to projection rounding,
    /// passes: a fix then lands on its boundary, which `intersects` counts as inside).
    public static func isNarrower(_ width: Double, than gap: Double) -> Bool {
        (width * 1000).rounded() < (gap * 1000).rounded()
    }

    /// A number of metres, seconds or m/s for messages: millimetre precision, no trailing zeros.
    static func text(_ value: Double) -> String {
        JSONWriter.number((value * 1000).rounded() / 1000)
    }

    /// A number of square metres for messages, to the tenth.
    static func areaText(_ value: Double) -> String {
        JSONWriter.number((value * 10).rounded() / 10)
    }

    /// `invalid-geometry` findings from the reader's make-valid warnings, each at the fence whose
    /// feature holds the warning's location.
    static func invalidGeometry(_ fences: FenceSet, repaired: Bool) -> [LintFinding] {
        var out: [LintFinding] = []
        for warning in fences.warnings where warning.kind == "make-valid" {
            guard let location = warning.location, let fence = owner(of: location, in: fences.fences) else { continue }
            var reason = warning.message
            let prefix = "fence \"\(fence.id)\": "
            if reason.hasPrefix(prefix) { reason.removeFirst(prefix.count) }
            if let range = reason.range(of: "invalid geometry repaired by make-valid: ") { reason = String(reason[range.upperBound...]) }
            let consequence =
                repaired
                ? "the runs repair it with make-valid, which may change its shape"
                : "fencesim refuses it (--make-valid repairs it)"
            out.append(
                LintFinding(
                    severity: repaired ? .warning : .error, rule: .invalidGeometry, fenceID: fence.id,
                    message: "fence \"\(fence.id)\" has invalid geometry (\(reason)): \(consequence)", location: fence.location))
        }
        return out
    }

    /// The fence whose feature starts last at or before `location` (features are in file order).
    static func owner(of location: SourceLocation, in fences: [Fence]) -> Fence? {
        let target = (location.line ?? 0, location.column ?? 0)
        var best: Fence?
        for fence in fences where fence.location.file == location.file {
            let start = (fence.location.line ?? 0, fence.location.column ?? 0)
            if start <= target { best = fence } else { break }
        }
        return best
    }

    /// `buffered-away`, `narrow`, `tiny-circle` and `tiny-polygon` findings of one fence.
    static func sizing(_ m: Measured, options: Options) -> [LintFinding] {
        let fence = m.fence
        let id = fence.id
        var out: [LintFinding] = []
        let bufferNote = m.buffer != 0 ? " with its buffer of \(text(m.buffer)) m" : ""
        if m.isEmpty {
            out.append(
                LintFinding(
                    severity: .error, rule: .bufferedAway, fenceID: id, value: m.buffer,
                    message: "fence \"\(id)\": a buffer of \(text(m.buffer)) m leaves nothing of it; it can never be entered",
                    location: fence.location))
            return out
        }
        if let width = m.width, let motion = options.motions.max(by: { $0.gapMeters < $1.gapMeters }),
            isNarrower(width, than: motion.gapMeters)
        {
            let gap = motion.gapMeters
            let what: String
            switch fence.kind {
            case .circle: what = "circle fence \"\(id)\" is \(text(width)) m across (twice its radius\(bufferNote))"
            case .line: what = "line fence \"\(id)\" is a corridor \(text(width)) m wide (twice its buffer)"
            default:
                if m.narrowIsWall, let at = m.narrowAt {
                    what =
                        "fence \"\(id)\" is \(text(width)) m wide at its narrowest, a wall between two parts of its boundary (a hole or an inward bend) at \(coordinate(at))\(bufferNote)"
                } else {
                    let place = m.narrowAt.map { " across its outline at \(coordinate($0))" } ?? ""
                    what = "fence \"\(id)\" is \(text(width)) m wide at its narrowest (GEOS minimum width\(place)\(bufferNote))"
                }
            }
            // The buffer (replacing the current one) that makes the fence as wide as the gap, to
            // the millimetre, as the comparison is.
            var needed = ((m.buffer + (gap - width) / 2) * 1000).rounded() / 1000
            while isNarrower(width + 2 * (needed - m.buffer), than: gap) { needed += 0.001 }
            let interval = motion.speedMetersPerSecond > 0 ? width / motion.speedMetersPerSecond : 0
            let from = motion.source.isEmpty ? "" : " (\(motion.source))"
            out.append(
                LintFinding(
                    severity: .error, rule: .narrow, fenceID: id, value: width, limit: gap, source: motion.source,
                    message:
                        "\(what), less than the \(text(gap)) m a device moves between fixes at \(text(motion.speedMetersPerSecond)) m/s every \(text(motion.intervalSeconds)) s\(from): it can lie wholly between two fixes and be missed; a buffer of \(text(needed)) m, or fixes every \(text(interval)) s, closes the gap",
                    location: fence.location))
        }
        switch fence.kind {
        case .circle:
            if let r = m.radius, r < options.minimumCircleRadiusMeters {
                out.append(
                    LintFinding(
                        severity: .warning, rule: .tinyCircle, fenceID: id, value: r, limit: options.minimumCircleRadiusMeters,
                        message:
                            "circle fence \"\(id)\" has a radius of \(text(r)) m\(bufferNote), below the \(text(options.minimumCircleRadiusMeters)) m minimum of Bluedot zone circles",
                        location: fence.location))
            }
        case .area:
            if let a = m.area, a < options.minimumPolygonAreaSquareMeters {
                out.append(
                    LintFinding(
                        severity: .warning, rule: .tinyPolygon, fenceID: id, value: a, limit: options.minimumPolygonAreaSquareMeters,
                        message:
                            "fence \"\(id)\" covers \(areaText(a)) m²\(bufferNote), below the \(text(options.minimumPolygonAreaSquareMeters)) m² minimum of Bluedot zone polygons",
                        location: fence.location))
            }
        case .line, .beacon:
            break
        }
        return out
    }

    /// `zone-overlap` findings: pairs of fences naming the same zone that share area (and may
    /// exist at the same time), each reported at the later fence of the pair in file order.
    static func overlaps(_ measured: [Measured]) throws(SpatialError) -> [LintFinding] {
        var byZone: [String: [Int]] = [:]
        for (k, m) in measured.enumerated() where m.pairable {
            guard let zone = m.fence.zone else { continue }
            byZone[zone, default: []].append(k)
        }
        var out: [LintFinding] = []
        for zone in byZone.keys.sorted() {
            guard let members = byZone[zone], members.count > 1 else { continue }
            // Sweep along x: only fences whose extents meet are compared.
            let order = members.sorted { a, b in
                let ea = measured[a].envelope?.minX ?? 0
                let eb = measured[b].envelope?.minX ?? 0
                return ea != eb ? ea < eb : a < b
            }
            for (p, a) in order.enumerated() {
                guard let ea = measured[a].envelope else { continue }
                for b in order[(p + 1)...] {
                    guard let eb = measured[b].envelope else { continue }
                    if eb.minX > ea.maxX { break }
                    // Versions of a fence (a fence-changes file) that never exist at once cannot overlap.
                    guard FenceValidity.mayCoexist(measured[a].fence.validity, measured[b].fence.validity) else { continue }
                    guard ea.intersects(eb), let amount = try measured[a].overlap(with: measured[b]) else { continue }
                    let (first, second) = a < b ? (measured[a].fence, measured[b].fence) : (measured[b].fence, measured[a].fence)
                    out.append(
                        LintFinding(
                            severity: .warning, rule: .zoneOverlap, fenceID: second.id, otherFenceID: first.id, zone: zone,
                            value: amount.value,
                            message:
                                "fence \"\(second.id)\" overlaps fence \"\(first.id)\" (\(first.location)) \(amount.text) in zone \"\(zone)\": while one of them holds the zone's check-in, entering the other does nothing, and check-out follows whichever is left first",
                            location: second.location))
                }
            }
        }
        return out
    }
}
