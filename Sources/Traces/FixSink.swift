import Foundation
import Spatial
import Support

/// The validation every reader shares: coordinate and time checks, the accuracy policy, the
/// strict/lenient decision, implausible-jump warnings and the statistics (SPEC §1.1).
///
/// Readers build ``FixCandidate``s, report the problems only they can see (unparsable text),
/// and submit each point; the sink returns the ``Fix`` to deliver, or `nil` when the point is
/// dropped (lenient) or refused (strict, where nothing more is delivered after the first problem
/// but reading goes on to collect every problem for one error).
struct FixSink {
    let file: String
    let lenient: Bool
    let uere: Double
    let defaultAccuracy: Double
    let maximumSpeed: Double

    var statistics: TraceStatistics

    /// Strict-mode problems: the first and up to ``relatedLimit`` more.
    private var problems: [Diagnostic] = []
    private var problemCount = 0
    static let relatedLimit = 50

    private var pointsRead = 0
    private var pointsWithTime = 0
    private var accepted = 0
    private var acceptedWithoutTime = 0
    private var reportedCount = 0
    private var hdopCount = 0
    private var defaultCount = 0
    private var timeBacksteps = 0
    private var duplicateTimes = 0

    /// Reported and implied speeds of consecutive timed fixes, in 0.25 m/s bins up to 200 m/s
    /// (allocated at the first fix reporting a speed); see ``TraceStatistics/medianReportedSpeed``.
    private var reportedSpeeds: [Int32] = []
    private var impliedSpeeds: [Int32] = []
    private var speedPairs = 0
    static let speedBins = 800
    static let speedBinWidth = 0.25

    private var lastRawTime: Timestamp?
    private var lastTime: Timestamp?
    private var lastTimedLatitude = 0.0
    private var lastTimedLongitude = 0.0
    private var lastTimedLine = 0
    private var firstAcceptedTime: Timestamp?
    private var minPointTime: Timestamp?
    private var maxPointTime: Timestamp?
    private var box = TraceStatistics.BoundingBox(west: .infinity, south: .infinity, east: -.infinity, north: -.infinity)
    private var pointsBox = TraceStatistics.BoundingBox(west: .infinity, south: .infinity, east: -.infinity, north: -.infinity)

    init(file: String, options: TraceReadOptions, format: TraceFormat, dialect: String) {
        self.file = file
        lenient = options.lenient
        uere = options.uere
        defaultAccuracy = options.defaultAccuracy
        maximumSpeed = options.maximumSpeed
        statistics = TraceStatistics(format: format, dialect: dialect)
    }

    func location(line: Int?, column: Int?) -> SourceLocation {
        SourceLocation(file: file, line: line, column: line == nil ? nil : column)
    }

    // MARK: Reporting

    /// A problem that makes a point unusable: strict → error; lenient → warning. The point is
    /// marked so that ``submit(_:)`` drops it (its first problem's kind is what is counted).
    mutating func reject(_ candidate: inout FixCandidate, kind: String, _ message: @autoclosure () -> String, column: Int?) {
        if candidate.rejection == nil { candidate.rejection = kind }
        report(kind: kind, message(), line: candidate.line, column: column)
    }

    /// A problem with a record that is not a point (a bad NMEA sentence): strict → error;
    /// lenient → warning; the record is skipped and counted under `kind`.
    mutating func rejectRecord(kind: String, _ message: @autoclosure () -> String, line: Int, column: Int?) {
        skip(kind)
        report(kind: kind, message(), line: line, column: column, consequence: "record skipped")
    }

    /// An unreadable optional value (speed, altitude, ...): strict → error; lenient → warning,
    /// and the value is ignored while the fix is kept.
    mutating func rejectValue(kind: String, _ message: @autoclosure () -> String, line: Int, column: Int?) {
        report(kind: kind, message(), line: line, column: column, consequence: "value ignored")
    }

    private mutating func report(
        kind: String, _ message: @autoclosure () -> String, line: Int, column: Int?, consequence: String = "fix dropped"
    ) {
        if lenient {
            warn(kind: kind, message() + "; " + consequence, line: line, column: column)
            return
        }
        problemCount += 1
        if problems.count <= Self.relatedLimit {
            problems.append(Diagnostic(.error, message(), at: location(line: line, column: column), kind: kind))
        }
    }

    /// A warning in either mode (counted exactly; stored up to the limit). Messages are built
    /// only when stored: a file with many bad fixes stays fast.
    mutating func warn(kind: String, _ message: @autoclosure () -> String, line: Int?, column: Int?) {
        statistics.warningCounts[kind, default: 0] += 1
        if statistics.warnings.count < TraceStatistics.storedWarningLimit {
            statistics.warnings.append(Diagnostic(.warning, message(), at: location(line: line, column: column), kind: kind))
        }
    }

    /// The plausible altitudes, in metres: from below the deepest ocean trench to the edge of
    /// space. NaN, infinities and anything outside are refused like an unreadable value.
    static let altitudeRange = -12_000.0...100_000.0

    /// `meters` when it is a plausible altitude; otherwise the problem is reported (strict →
    /// error; lenient → warning, the value ignored) and `nil` is returned.
    @inline(__always)
    mutating func checkedAltitude(_ meters: Double?, line: Int, column: Int?) -> Double? {
        guard let meters else { return nil }
        if Self.altitudeRange.contains(meters) { return meters }
        let range = "[\(Self.format(Self.altitudeRange.lowerBound, 0)), \(Self.format(Self.altitudeRange.upperBound, 0))] m"
        rejectValue(
            kind: "bad-value", meters.isNaN ? "altitude is NaN, not a number" : "altitude \(meters) m is out of range \(range)",
            line: line, column: column)
        return nil
    }

    /// Counts a source record that is not a point.
    mutating func skip(_ kind: String) {
        statistics.skipped[kind, default: 0] += 1
    }

    /// Whether the file held no point and no other record (a header alone): there is no trace
    /// in it, as in an empty file.
    var holdsNoRecords: Bool { pointsRead == 0 && statistics.skipped.isEmpty && problemCount == 0 }

    /// Whether strict mode has already refused something (nothing more will be delivered).
    var hasProblems: Bool { problemCount > 0 }

    // MARK: Validation

    /// Validates one point; returns the fix to deliver, or `nil` when it is dropped or refused.
    @inline(__always)
    mutating func submit(_ c: inout FixCandidate) -> Fix? {
        accept(&c) ? c.fix : nil
    }

    /// Validates one point and completes `c.fix` (accuracy and its source); returns whether
    /// `c.fix` is to be delivered (`false` when the point is dropped, or refused in strict mode).
    @inline(__always)
    mutating func accept(_ c: inout FixCandidate) -> Bool {
        pointsRead += 1
        if !c.coordinatesReported {
            checkCoordinates(&c)
        }
        if c.latitude >= -90, c.latitude <= 90, c.longitude >= -180, c.longitude <= 180 {
            pointsBox.include(latitude: c.latitude, longitude: c.longitude)
        }
        if let time = c.time {
            pointsWithTime += 1
            if let previous = lastRawTime {
                if time < previous { timeBacksteps += 1 } else if time == previous { duplicateTimes += 1 }
            }
            lastRawTime = time
            if let earliest = minPointTime, earliest <= time {} else { minPointTime = time }
            if let latest = maxPointTime, latest >= time {} else { maxPointTime = time }
            if c.rejection == nil, let last = lastTime, time <= last {
                let previousLine = lastTimedLine
                if time < last {
                    reject(
                        &c, kind: "time-backwards",
                        "time \(Self.text(time)) is earlier than \(Self.text(last)) of the previous fix (line \(previousLine))",
                        column: c.timeColumn ?? c.column)
                } else {
                    reject(
                        &c, kind: "duplicate-time",
                        "time \(Self.text(time)) is the same as that of the previous fix (line \(previousLine))",
                        column: c.timeColumn ?? c.column)
                }
            }
        }
        if let kind = c.rejection {
            statistics.dropped[kind, default: 0] += 1
            return false
        }

        let (accuracy, source) = accuracy(reported: c.reportedAccuracy, hdop: c.hdop, line: c.line, column: c.accuracyColumn ?? c.column)
        switch source {
        case .reported: reportedCount += 1
        case .hdop: hdopCount += 1
        case .default: defaultCount += 1
        }
        if let time = c.time {
            if let last = lastTime {
                checkJump(latitude: c.latitude, longitude: c.longitude, line: c.line, column: c.column, time: time, since: last)
                if let speed = c.fix.speedMetersPerSecond {
                    sampleSpeed(speed, latitude: c.latitude, longitude: c.longitude, time: time, since: last)
                }
            } else {
                firstAcceptedTime = time
            }
            lastTime = time
            lastTimedLatitude = c.latitude
            lastTimedLongitude = c.longitude
            lastTimedLine = c.line
        } else {
            acceptedWithoutTime += 1
        }
        accepted += 1
        box.include(latitude: c.latitude, longitude: c.longitude)
        c.fix.accuracyMeters = accuracy
        c.fix.accuracySource = source
        return problemCount == 0
    }

    @inline(__always)
    private mutating func checkCoordinates(_ c: inout FixCandidate) {
        let latitude = c.latitude
        let longitude = c.longitude
        if !(latitude >= -90 && latitude <= 90) {
            reject(&c, kind: "invalid-coordinate", Self.rangeMessage("latitude", latitude, 90), column: c.latitudeColumn ?? c.column)
        }
        if !(longitude >= -180 && longitude <= 180) {
            reject(&c, kind: "invalid-coordinate", Self.rangeMessage("longitude", longitude, 180), column: c.longitudeColumn ?? c.column)
        }
    }

    private static func rangeMessage(_ name: String, _ value: Double, _ limit: Int) -> String {
        if value.isNaN { return "\(name) is NaN, not a number" }
        return "\(name) \(value) is out of range [-\(limit), \(limit)]"
    }

    // Scalars, not the candidate, are passed: copying the large candidate per fix is measurable.
    @inline(__always)
    private mutating func accuracy(reported: Double?, hdop: Double?, line: Int, column: Int?) -> (Double, AccuracySource) {
        if let reported {
            if reported > 0, reported.isFinite { return (reported, .reported) }
            let fallback = fallbackAccuracy(hdop: hdop, line: line, column: column)
            warn(
                kind: "accuracy-not-positive",
                "reported accuracy \(reported) m is not positive; using \(fallback.1 == .hdop ? "hdop × UERE" : "the default") (\(fallback.0) m)",
                line: line, column: column)
            return fallback
        }
        return fallbackAccuracy(hdop: hdop, line: line, column: column)
    }

    @inline(__always)
    private mutating func fallbackAccuracy(hdop: Double?, line: Int, column: Int?) -> (Double, AccuracySource) {
        if let hdop {
            if hdop > 0, hdop.isFinite { return (hdop * uere, .hdop) }
            let fallback = defaultAccuracy
            warn(
                kind: "hdop-not-positive", "hdop \(hdop) is not positive; using the default accuracy (\(fallback) m)",
                line: line, column: column)
        }
        return (defaultAccuracy, .default)
    }

    @inline(__always)
    private mutating func checkJump(latitude: Double, longitude: Double, line: Int, column: Int?, time: Timestamp, since last: Timestamp) {
        let dt = time.seconds(since: last)
        var dLon = abs(longitude - lastTimedLongitude)
        if dLon > 180 { dLon = 360 - dLon }
        // Any path is at least as long as the geodesic: along the meridian (at most 111,694 m per
        // degree, at the poles), then along the parallel (at most 111,320 m per degree, at the
        // equator). Only when that bound exceeds the limit is the exact geodesic worth computing.
        let bound = abs(latitude - lastTimedLatitude) * 111_700 + dLon * 111_320
        guard bound > maximumSpeed * dt else { return }
        let distance = Geodesic.wgs84.distance(
            latitude1: lastTimedLatitude, longitude1: lastTimedLongitude, latitude2: latitude, longitude2: longitude)
        let speed = distance / dt
        guard speed > maximumSpeed else { return }
        let previousLine = lastTimedLine
        let limit = maximumSpeed
        warn(
            kind: "implausible-jump",
            "implausible jump: \(Self.format(distance, 1)) m in \(Self.format(dt, 3)) s since line \(previousLine) implies \(Self.format(speed, 1)) m/s (\(Self.format(speed * 3.6, 0)) km/h), above the maximum \(Self.format(limit, 1)) m/s",
            line: line, column: column)
    }

    /// Adds a reported speed and the speed implied since the last timed fix to the histograms:
    /// every pair of the first 10,000, then one in 16, so that a long trace costs little.
    @inline(__always)
    private mutating func sampleSpeed(_ reported: Double, latitude: Double, longitude: Double, time: Timestamp, since last: Timestamp) {
        guard reported.isFinite, reported >= 0, speedPairs < 10_000 || pointsRead & 15 == 0 else { return }
        let dt = time.seconds(since: last)
        guard dt > 0, dt <= 600 else { return }
        if reportedSpeeds.isEmpty {
            reportedSpeeds = Array(repeating: 0, count: Self.speedBins)
            impliedSpeeds = Array(repeating: 0, count: Self.speedBins)
        }
        // Equirectangular: within ten minutes' travel, far closer than the 3.6 it tells apart.
        var dLon = abs(longitude - lastTimedLongitude)
        if dLon > 180 { dLon = 360 - dLon }
        let metersPerDegree = 111_195.0
        let x = dLon * metersPerDegree * cos(latitude * .pi / 180)
        let y = (latitude - lastTimedLatitude) * metersPerDegree
        let implied = (x * x + y * y).squareRoot() / dt
        reportedSpeeds[Self.speedBin(reported)] += 1
        impliedSpeeds[Self.speedBin(implied)] += 1
        speedPairs += 1
    }

    private static func speedBin(_ speed: Double) -> Int {
        guard speed.isFinite, speed > 0 else { return 0 }
        return min(speedBins - 1, Int(speed / speedBinWidth))
    }

    /// The middle of the median bin.
    private static func median(_ histogram: [Int32], count: Int) -> Double {
        var seen = 0
        for (k, n) in histogram.enumerated() {
            seen += Int(n)
            if 2 * seen >= count { return (Double(k) + 0.5) * speedBinWidth }
        }
        return Double(speedBins) * speedBinWidth
    }

    /// Warns when the reported speeds look like km/h read as m/s.
    private mutating func checkSpeedUnit() {
        guard speedPairs >= 10 else { return }
        let reported = Self.median(reportedSpeeds, count: speedPairs)
        let implied = Self.median(impliedSpeeds, count: speedPairs)
        statistics.medianReportedSpeed = reported
        statistics.medianImpliedSpeed = implied
        guard statistics.speedsLookLikeKilometersPerHour else { return }
        let hint =
            statistics.format == .csv
            ? "give the unit with --columns speed=NAME:kmh" : "filters and messages using the speed read it that many times too high"
        warn(
            kind: "speed-unit",
            "reported speeds look like km/h read as m/s: their median is \(Self.format(reported, 1)) m/s where consecutive fixes imply \(Self.format(implied, 1)) m/s (\(Self.format(reported / implied, 1)) times less); \(hint)",
            line: nil, column: nil)
    }

    // MARK: Finishing

    /// The statistics, or the strict-mode error holding every problem found.
    mutating func finish() throws(FencesimError) -> TraceStatistics {
        if let error = strictError(extra: nil) { throw error }
        checkSpeedUnit()
        var s = statistics
        s.pointsRead = pointsRead
        s.pointsWithTime = pointsWithTime
        s.fixesAccepted = accepted
        s.fixesWithoutTime = acceptedWithoutTime
        s.timeBacksteps = timeBacksteps
        s.duplicateTimes = duplicateTimes
        if reportedCount > 0 { s.accuracySources[.reported] = reportedCount }
        if hdopCount > 0 { s.accuracySources[.hdop] = hdopCount }
        if defaultCount > 0 { s.accuracySources[.default] = defaultCount }
        if let first = firstAcceptedTime, let last = lastTime { s.timeSpan = first...last }
        if let first = minPointTime, let last = maxPointTime { s.pointsTimeSpan = first...last }
        if accepted > 0 { s.boundingBox = box }
        if pointsBox.west <= pointsBox.east { s.pointsBoundingBox = pointsBox }
        return s
    }

    /// A structural error (the file cannot be read on) with the problems collected so far.
    func fatal(_ error: FencesimError) -> FencesimError {
        var error = error
        if problemCount > 0 {
            error.related += problems
            if problemCount > problems.count {
                error.related.append(
                    Diagnostic(.note, "and \(problemCount - problems.count) more problems", at: SourceLocation(file: file)))
            }
        }
        return error
    }

    private func strictError(extra: Diagnostic?) -> FencesimError? {
        guard problemCount > 0, let first = problems.first else { return nil }
        var related = Array(problems.dropFirst())
        if problemCount > problems.count {
            related.append(Diagnostic(.note, "and \(problemCount - problems.count) more problems", at: SourceLocation(file: file)))
        }
        related.append(
            Diagnostic(
                .note,
                "\(problemCount) problem\(problemCount == 1 ? "" : "s") refused in strict mode; lenient reading (--lenient) turns each into a warning and drops what it concerns",
                at: SourceLocation(file: file)))
        return FencesimError(.badData, first.message, at: first.location, related: related)
    }

    // MARK: Formatting

    /// A time with as many fraction digits as it needs (none for whole seconds).
    static func text(_ time: Timestamp) -> String {
        var text = time.iso8601(fractionDigits: 9)
        guard text.contains(".") else { return text }
        text.removeLast()  // "Z"
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text + "Z"
    }

    static func format(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }
}
