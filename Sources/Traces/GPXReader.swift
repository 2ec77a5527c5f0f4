import Foundation
import Support

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads GPX 1.0 and 1.1 with a streaming (SAX) XML parser: no document tree is built.
///
/// Points are track points (`trk/trkseg/trkpt`, each `trkseg` a segment) and route points
/// (`rte/rtept`, each route a segment), in document order; waypoints (`wpt`) are points only
/// when the file has neither (Xcode location-simulation files), and are then delivered in order
/// at the end of the document. Read per point: `time`, `ele`, `speed`, `course`, `hdop`, `sat`,
/// and inside `extensions` at any depth, whatever the namespace prefix (or none): `speed` and
/// `course` (Garmin `gpxtpx:TrackPointExtension`, plain and Apple Health extensions) and Apple
/// Health's `hAcc` (reported horizontal accuracy). A direct `speed`/`course` child wins over an
/// extension's. Empty elements count as absent. Encodings and byte-order marks are the XML
/// parser's (UTF-8, UTF-16).
enum GPXReader {
    static func read(
        path: String, bytes: [UInt8], options: TraceReadOptions, onFix: (Fix) throws(FencesimError) -> Void
    ) throws(FencesimError) -> TraceStatistics {
        // Before libxml2 sees them: bytes that are not UTF-8 in a document that declares no other
        // encoding reach FoundationXML as element names it force-unwraps (issue 8).
        try checkEncoding(bytes, path: path)
        // An instruction without data reaches FoundationXML as a null pointer it reads (issue 8).
        try checkProcessingInstructions(bytes, path: path)
        let handler = GPXHandler(file: path, options: options)
        let outcome: Result<Void, FencesimError> = withoutActuallyEscaping(onFix) { deliver in
            handler.deliver = deliver
            defer { handler.deliver = nil }
            let parser = XMLParser(data: Data(bytes))
            parser.shouldProcessNamespaces = true
            parser.shouldResolveExternalEntities = false
            parser.delegate = handler
            _ = parser.parse()
            if let failure = handler.failure { return .failure(failure) }
            if let error = parser.parserError as NSError?, handler.failure == nil, !GPXHandler.isNamespaceError(error.code) {
                return .failure(handler.xmlError(error, parser: parser))
            }
            return handler.finishDocument()
        }
        switch outcome {
        case .success:
            // A document with no point is no trace, as a CSV header with no rows is not (issue 21).
            guard !handler.sink.holdsNoRecords else {
                throw handler.sink.fatal(
                    FencesimError(
                        .badData, "no fixes: the GPX has no track, route or waypoint points, so there is no trace in it",
                        at: SourceLocation(file: path, line: 1, column: 1)))
            }
            return try handler.sink.finish()
        case .failure(let error):
            throw handler.sink.fatal(error)
        }
    }
}

/// The XML parser's delegate: tracks where it is in the GPX structure and builds points.
///
/// A class because `XMLParserDelegate` requires an `NSObject`; it lives for one read.
final class GPXHandler: NSObject, XMLParserDelegate {
    /// A point's raw text as the document holds it, validated when the point ends.
    struct RawPoint {
        var line: Int
        var column: Int
        var segment: Int
        var latitude: String?
        var longitude: String?
        var values: [Value: (text: String, line: Int, column: Int)] = [:]
    }

    enum Value: Hashable {
        case time, elevation, speed, course, hdop, satellites, extensionSpeed, extensionCourse, horizontalAccuracy
    }

    let file: String
    var sink: FixSink
    var deliver: ((Fix) throws(FencesimError) -> Void)?
    var failure: FencesimError?

    private var depth = 0
    private var rootSeen = false
    private var point: RawPoint?
    private var pointDepth = 0
    private var pointIsWaypoint = false
    private var extensionsDepth = 0
    private var capturing: Value?
    private var captureDepth = 0
    private var captureLine = 0
    private var captureColumn = 0
    private var text = ""
    private var segment = -1
    private var trackNeedsSegment = false
    private var trackOrRoutePoints = 0
    private var waypoints: [RawPoint] = []

    init(file: String, options: TraceReadOptions) {
        self.file = file
        sink = FixSink(file: file, options: options, format: .gpx, dialect: "GPX")
    }

    private func stop(_ parser: XMLParser, _ error: FencesimError) {
        if failure == nil { failure = error }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        depth += 1
        // With an undeclared prefix the name arrives qualified; match on the local part.
        let elementName = elementName.split(separator: ":").last.map(String.init) ?? elementName
        if depth == 1 {
            rootSeen = true
            guard elementName == "gpx" else {
                stop(
                    parser,
                    FencesimError(
                        .badData, "the XML root element is <\(qName ?? elementName)>, not <gpx>: this is not a GPX file",
                        at: SourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber)))
                return
            }
            let version = attributeDict["version"]
            sink.statistics.dialect = version.map { "GPX \($0)" } ?? "GPX"
            return
        }
        if let current = point {
            if elementName == "extensions", extensionsDepth == 0 {
                extensionsDepth = depth
                return
            }
            let value: Value?
            if extensionsDepth > 0 {
                switch elementName.lowercased() {
                case "speed": value = .extensionSpeed
                case "course": value = .extensionCourse
                case "hacc": value = .horizontalAccuracy
                default: value = nil
                }
            } else if depth == pointDepth + 1 {
                switch elementName {
                case "time": value = .time
                case "ele": value = .elevation
                case "speed": value = .speed
                case "course": value = .course
                case "hdop": value = .hdop
                case "sat": value = .satellites
                default: value = nil
                }
            } else {
                value = nil
            }
            if let value, capturing == nil, current.values[value] == nil {
                capturing = value
                captureDepth = depth
                captureLine = parser.lineNumber
                captureColumn = parser.columnNumber
                text = ""
            }
            return
        }
        switch elementName {
        case "trk":
            sink.statistics.tracks += 1
            trackNeedsSegment = true
        case "trkseg":
            sink.statistics.segments += 1
            segment += 1
            trackNeedsSegment = false
        case "rte":
            sink.statistics.routes += 1
            segment += 1
        case "trkpt", "rtept", "wpt":
            if elementName == "trkpt", trackNeedsSegment {
                // A track point outside any trkseg: the track is its own segment.
                segment += 1
                trackNeedsSegment = false
            }
            pointIsWaypoint = elementName == "wpt"
            if pointIsWaypoint { sink.statistics.waypoints += 1 } else { trackOrRoutePoints += 1 }
            point = RawPoint(
                line: parser.lineNumber, column: parser.columnNumber, segment: pointIsWaypoint ? 0 : max(segment, 0),
                latitude: attributeDict["lat"], longitude: attributeDict["lon"])
            pointDepth = depth
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing != nil { text += string }
    }

    func parser(_ parser: XMLParser, foundCDATA block: Data) {
        if capturing != nil { text += String(decoding: block, as: UTF8.self) }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        defer { depth -= 1 }
        guard point != nil else { return }
        if let value = capturing, depth == captureDepth {
            point?.values[value] = (text, captureLine, captureColumn)
            capturing = nil
            text = ""
        }
        if depth == extensionsDepth { extensionsDepth = 0 }
        if depth == pointDepth, let finished = point {
            point = nil
            if pointIsWaypoint {
                waypoints.append(finished)
            } else {
                submit(finished, parser: parser)
            }
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let error = parseError as NSError
        // An undeclared prefix (`gpxtpx:speed` without its xmlns) is a namespace error, not a
        // well-formedness one: the parser goes on, and so do we.
        if Self.isNamespaceError(error.code) { return }
        if failure == nil { failure = xmlError(error, parser: parser) }
    }

    /// libxml2's namespace errors (XML_NS_ERR_*, 200–299).
    static func isNamespaceError(_ code: Int) -> Bool { (200..<300).contains(code) }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: Error) {}

    /// Checks the document's end: a root was seen; waypoints are delivered when they are points.
    func finishDocument() -> Result<Void, FencesimError> {
        guard rootSeen else {
            return .failure(
                FencesimError(
                    .badData, "no XML element in the file: this is not a GPX file", at: SourceLocation(file: file, line: 1, column: 1)))
        }
        if trackOrRoutePoints == 0 {
            for waypoint in waypoints {
                submit(waypoint, parser: nil)
                if let failure { return .failure(failure) }
            }
        }
        return .success(())
    }

    /// A located error from the XML parser's error code.
    func xmlError(_ error: NSError, parser: XMLParser) -> FencesimError {
        // NSXMLParser error codes are libxml2's xmlParserErrors.
        let reason: String
        switch error.code {
        case 5: reason = "the XML ends before the document is complete (truncated file?)"
        case 4: reason = "the XML document is empty or does not start with an element"
        case 76: reason = "a closing tag does not match its opening tag"
        case 73, 74, 77: reason = "a tag is not closed"
        case 38, 39, 40, 41, 42: reason = "an attribute is malformed"
        case 9, 81: reason = "the text has a character that is not allowed in XML or in its encoding"
        case 31, 32: reason = "the XML declares an encoding that cannot be read"
        case 26, 27, 89: reason = "an entity reference is invalid"
        case 86: reason = "there is content after the end of the document"
        case 68: reason = "a tag has no name"
        default: reason = "the XML is malformed"
        }
        return FencesimError(
            .badData, "\(reason) (XML parser error \(error.code))",
            at: SourceLocation(file: file, line: max(parser.lineNumber, 1), column: max(parser.columnNumber, 1)))
    }

    /// Validates a point and delivers its fix.
    private func submit(_ raw: RawPoint, parser: XMLParser?) {
        var c = FixCandidate(line: raw.line, column: raw.column, segment: raw.segment)
        c.latitude = coordinate(raw.latitude, "lat", &c)
        c.longitude = coordinate(raw.longitude, "lon", &c)
        if let (textValue, line, column) = raw.values[.time] {
            let trimmed = textValue.trimmingSpaces()
            if !trimmed.isEmpty {
                switch Timestamp.parseISO8601(trimmed) {
                case .success(let time):
                    c.time = time
                    // Time-order messages name the point's line; a column on another line would mislead.
                    c.timeColumn = line == raw.line ? column : nil
                case .failure(let failure):
                    // Reported at the <time> element, but counted against the point.
                    c.line = line
                    sink.reject(
                        &c, kind: "bad-time", "time '\(trimmed.prefix(40))' is not an ISO-8601 date-time: \(failure.message)",
                        column: column)
                    c.line = raw.line
                }
            }
        }
        if let (_, line, column) = raw.values[.elevation] {
            c.altitude = sink.checkedAltitude(number(raw, .elevation, "ele"), line: line, column: column)
        }
        c.speed = number(raw, .speed, "speed") ?? number(raw, .extensionSpeed, "speed")
        c.course = number(raw, .course, "course") ?? number(raw, .extensionCourse, "course")
        c.hdop = number(raw, .hdop, "hdop")
        c.reportedAccuracy = number(raw, .horizontalAccuracy, "hAcc")
        if let sat = number(raw, .satellites, "sat"), let (_, line, column) = raw.values[.satellites] {
            if sat >= 0, sat < 1000, sat == sat.rounded() {
                c.satellites = Int(sat)
            } else {
                sink.rejectValue(kind: "bad-value", "sat \(sat) is not a satellite count", line: line, column: column)
            }
        }
        guard let fix = sink.submit(&c), let deliver else { return }
        do {
            try deliver(fix)
        } catch {
            failure = error
            parser?.abortParsing()
        }
    }

    private func coordinate(_ text: String?, _ name: String, _ c: inout FixCandidate) -> Double {
        let full = name == "lat" ? "latitude" : "longitude"
        guard let text else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "the point has no \(name) attribute", column: c.column)
            return .nan
        }
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(full) (\(name)) is empty", column: c.column)
            return .nan
        }
        guard let value = DecimalParser.parse(trimmed) else {
            c.coordinatesReported = true
            sink.reject(&c, kind: "invalid-coordinate", "\(full) (\(name)) '\(trimmed.prefix(40))' is not a number", column: c.column)
            return .nan
        }
        return value
    }

    private func number(_ raw: RawPoint, _ value: Value, _ name: String) -> Double? {
        guard let (textValue, line, column) = raw.values[value] else { return nil }
        let trimmed = textValue.trimmingSpaces()
        if trimmed.isEmpty { return nil }
        if let number = DecimalParser.parse(trimmed) { return number }
        sink.rejectValue(kind: "bad-value", "\(name) '\(trimmed.prefix(40))' is not a number", line: line, column: column)
        return nil
    }
}
