import Dispatch
import Files
import Foundation
import Spatial
import Support

/// Reads GeoJSON fence files (SPEC §1.2) with every problem located at its line and column.
///
/// A FeatureCollection (or a single Feature) of Polygon / MultiPolygon (area fences), Point with
/// `radius` (circles), Point with `beacon: true` and `range` (beacons), and LineString (line
/// fences). `properties.id` is required, a string, and unique. A `crs` member naming anything but
/// WGS84 is refused unless ``FenceReadOptions/reproject`` is set, so that projected coordinates
/// are never read as degrees. Invalid geometry is refused with GEOS's reason unless
/// ``FenceReadOptions/makeValid`` is set.
///
/// Reading goes on past the first bad feature so that one error lists every problem: the thrown
/// error is located at the first, with the rest in `related`.
public enum FenceReader {
    /// The most problems listed in one error.
    public static let maximumReportedProblems = 50

    /// Reads the fences of the file at `path`.
    ///
    /// - Throws: ``FencesimError`` `.missingInput` when the file cannot be opened, `.badData`
    ///   (located) for anything wrong in it.
    public static func read(path: String, options: FenceReadOptions = FenceReadOptions()) throws(FencesimError) -> FenceSet {
        let bytes = try FileIO.readAll(path)
        return try parse(SourceText(file: path, bytes: bytes), options: options)
    }

    /// Reads fences from GeoJSON held in memory.
    public static func parse(_ source: SourceText, options: FenceReadOptions = FenceReadOptions()) throws(FencesimError) -> FenceSet {
        try parse(source, options: options, workers: nil)
    }

    /// Reads fences from GeoJSON held in memory with `workers` threads for the feature array
    /// (`nil`: as many as pay off; 1: streamed on the calling thread, the reference that the
    /// parallel read is tested against).
    static func parse(_ source: SourceText, options: FenceReadOptions, workers: Int?) throws(FencesimError) -> FenceSet {
        var nonWhitespace = false
        for b in source.bytes where !(b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09) {
            nonWhitespace = true
            break
        }
        guard nonWhitespace else {
            throw FencesimError(
                .badData, "empty file: expected a GeoJSON FeatureCollection", at: SourceLocation(file: source.file, line: 1, column: 1))
        }
        let context: GEOSContext
        do {
            context = try GEOSContext()
        } catch {
            throw FencesimError(.internalError, error.description, cause: error)
        }
        // One streaming pass converts each feature as it is read. A `crs` member normally comes
        // before the features; when it comes after them and names another CRS, a second pass
        // reads the features again knowing it.
        var lateCRS: JSONNode?
        while true {
            var reader = Reader(source: source, options: options, context: context)
            if let lateCRS {
                reader.reprojectedFrom = try reader.readCRS(lateCRS)
                reader.crsHandled = true
            }
            let document = try RawDocument.scan(
                source,
                onCRS: { crs in
                    guard !crs.isNull else { return nil }
                    do throws(FencesimError) {
                        reader.reprojectedFrom = try reader.readCRS(crs)
                        reader.crsHandled = true
                        return nil
                    } catch {
                        return JSONCursor.Failure(message: error.message, offset: crs.offset)
                    }
                }, onFeature: { feature in reader.accept(feature) },
                onFeatureArray: { cursor, ranges throws(JSONCursor.Failure) in
                    // The reader takes the outcomes in file order while later blocks are converted;
                    // if the array is to be read in order after all, it starts again from here.
                    let before = reader
                    reader.fences.reserveCapacity(reader.fences.count + ranges.count)
                    reader.firstOffsetOfID.reserveCapacity(reader.firstOffsetOfID.count + ranges.count)
                    let converted = try convertInParallel(
                        cursor, ranges, options: options, reprojectedFrom: reader.reprojectedFrom,
                        locator: reader.locator, workers: workers
                    ) { outcomes, notices in
                        // Each outcome's fence is moved into the reader, not copied.
                        for k in outcomes.indices { reader.accept(&outcomes[k]) }
                        reader.otherNotices += notices
                    }
                    if !converted { reader = before }
                    return converted
                })
            if lateCRS == nil, document.crsAfterFeatures, let crs = document.crs, !crs.isNull, !reader.namesWGS84(crs) {
                lateCRS = crs
                continue
            }
            return try reader.finish(document)
        }
    }
}

extension FenceReader {
    /// Feature arrays at least this long are converted on several threads (unless a test asks
    /// for a number of workers).
    static let parallelThreshold = 4_096

    /// Reads and converts the elements of a `features` array on several threads, in contiguous
    /// blocks of elements, each with its own cursor, GEOS context and PROJ transform. Blocks are
    /// taken as threads come free, and there are many per worker (``blocksPerWorker``), so that
    /// the thread still converting the last one holds the others up briefly: on the large bench
    /// fences, one block per worker left one core idle for about 0.07 s at the end.
    ///
    /// `take` is handed each block's outcomes and GEOS notices in file order, as soon as the
    /// blocks before it are taken, while later blocks are still converted (see
    /// ``Support/OrderedBlocks/stream(count:parts:_:consume:)``): the ``Reader`` checks id
    /// uniqueness and collects problems there exactly as when streaming. The first JSON failure
    /// in file order is thrown, as the streaming read would. `false` means "read the array in
    /// order instead", and the caller must forget what `take` was given: too few elements or
    /// processors, or an element that did not end where the structural scan said, which only
    /// malformed JSON can cause and the streaming read then reports.
    static func convertInParallel(
        _ cursor: JSONCursor, _ ranges: [Range<Int>], options: FenceReadOptions, reprojectedFrom: String?,
        locator: SourceText.Locator, workers requested: Int? = nil,
        take: (inout [FeatureOutcome], [String]) -> Void
    ) throws(JSONCursor.Failure) -> Bool {
        let workers: Int
        if let requested {
            workers = min(requested, ranges.count)
        } else {
            guard ranges.count >= parallelThreshold else { return false }
            workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, ranges.count / (parallelThreshold / 2))
        }
        guard workers > 1 else { return false }
        /// Why a block stopped: a JSON failure (thrown to the caller) or a reason to read the
        /// array in order instead.
        enum Stop: Error {
            case failure(JSONCursor.Failure)
            case gaveUp
        }
        /// The cursor holds a pointer into bytes that outlive the workers and are only read.
        struct Shared: @unchecked Sendable {
            let cursor: JSONCursor
        }
        let shared = Shared(cursor: cursor)
        let depth = cursor.nestingDepth
        // Blocks of at least `minimumBlock` features, so that a block's own setup (a GEOS
        // context, a PROJ transform when reprojecting) stays a small part of it.
        let parts = max(workers, min(workers * blocksPerWorker, ranges.count / minimumBlock))
        do throws(Stop) {
            try OrderedBlocks.stream(
                count: ranges.count, parts: parts,
                { (_, block) throws(Stop) in
                    guard let context = try? GEOSContext() else { throw .gaveUp }
                    var transform: CRSTransform?
                    if let reprojectedFrom {
                        guard let t = try? CRSTransform(from: reprojectedFrom) else { throw .gaveUp }
                        transform = t
                    }
                    var converter = FeatureConverter(options: options, context: context, transform: transform, locator: locator)
                    var outcomes: [FeatureOutcome] = []
                    outcomes.reserveCapacity(block.count)
                    for k in block {
                        var c = shared.cursor.cursor(at: ranges[k].lowerBound, depth: depth)
                        var feature = RawFeature(index: k, offset: c.position)
                        do throws(JSONCursor.Failure) {
                            try RawDocument.readFeature(&c, into: &feature)
                        } catch {
                            throw .failure(error)
                        }
                        guard c.position == ranges[k].upperBound else { throw .gaveUp }
                        outcomes.append(converter.convert(feature))
                    }
                    return ConvertedBlock(outcomes: outcomes, notices: context.takeNotices())
                },
                consume: { (_: Int, converted: consuming ConvertedBlock) in
                    // Moved, so that taking the fences out of the outcomes copies nothing.
                    var block = consume converted
                    take(&block.outcomes, block.notices)
                })
        } catch {
            // The first block in order that stopped decides, as a single pass would.
            switch error {
            case .failure(let failure): throw failure
            case .gaveUp: return false
            }
        }
        return true
    }

    /// One block's converted features and the GEOS notices met converting them.
    struct ConvertedBlock {
        var outcomes: [FeatureOutcome]
        let notices: [String]
    }

    /// Blocks per worker thread when converting features (see ``convertInParallel``).
    static let blocksPerWorker = 16
    /// The fewest features in a block, unless there are fewer blocks than workers.
    static let minimumBlock = 1_024
}

/// The state of one read: collected problems, ids seen, and the GEOS context for validity checks.
struct Reader {
    let source: SourceText
    let options: FenceReadOptions
    let context: GEOSContext
    var errors: [Diagnostic] = []
    var errorCount = 0
    var warnings: [Diagnostic] = []
    var firstOffsetOfID: [String: Int] = [:]
    let locator: SourceText.Locator
    /// Converts this reader's features (the ones not converted on other threads).
    var converter: FeatureConverter
    /// GEOS notices from converters on other threads, in file order.
    var otherNotices: [String] = []

    init(source: SourceText, options: FenceReadOptions, context: GEOSContext) {
        self.source = source
        self.options = options
        self.context = context
        locator = source.locator()
        converter = FeatureConverter(options: options, context: context, transform: nil, locator: locator)
    }

    /// The transform from the file's CRS to WGS84 when reprojecting.
    var transform: CRSTransform? {
        get { converter.transform }
        set { converter.transform = newValue }
    }

    func at(_ offset: Int) -> SourceLocation { locator.location(ofOffset: offset) }

    mutating func report(_ message: String, _ offset: Int) {
        errorCount += 1
        if errors.count < FenceReader.maximumReportedProblems {
            errors.append(Diagnostic(.error, message, at: at(offset)))
        }
    }

    mutating func warning(_ message: String, _ offset: Int, kind: String) {
        warnings.append(Diagnostic(.warning, message, at: at(offset), kind: kind))
    }

    /// The fences converted so far, in file order.
    var fences: [Fence] = []
    var reprojectedFrom: String?
    /// A crs problem met while streaming (reported by `finish`).
    var crsHandled = false

    /// Converts one streamed feature; problems are collected.
    mutating func accept(_ feature: RawFeature) {
        var outcome = converter.convert(feature)
        accept(&outcome)
    }

    /// Takes a converted feature, in file order: its problems are collected, its id checked for
    /// uniqueness against every feature before it, and its fence kept.
    mutating func accept(_ outcome: inout FeatureOutcome) {
        let before = outcome.identified?.notesBefore ?? outcome.notes.count
        for note in outcome.notes[..<before] { take(note) }
        guard let (id, idOffset, _) = outcome.identified else { return }
        // One lookup: the id's entry, made with this offset when the id is new (offsets are
        // never negative).
        let first = Reader.firstOffset(&firstOffsetOfID[id, default: -1], else: idOffset)
        if first >= 0 {
            report("duplicate fence id \"\(id)\" (first used at \(at(first)))", idOffset)
            return
        }
        for note in outcome.notes[before...] { take(note) }
        if let fence = outcome.fence.take() { fences.append(fence) }
    }

    /// The offset an id's entry holds, or -1 after storing `offset` there when it held none.
    @inline(__always)
    static func firstOffset(_ entry: inout Int, else offset: Int) -> Int {
        if entry >= 0 { return entry }
        entry = offset
        return -1
    }

    private mutating func take(_ note: FeatureOutcome.Note) {
        switch note {
        case .error(let message, let offset): report(message, offset)
        case .warning(let message, let offset, let kind): warning(message, offset, kind: kind)
        }
    }

    /// Whether a crs member names WGS84 (or cannot be read, which `readCRS` reports).
    func namesWGS84(_ crs: JSONNode) -> Bool {
        guard let name = crs.member("properties")?.member("name")?.string else { return true }
        return CRSTransform.isWGS84(name)
    }

    /// Checks the document as a whole once its features are converted, and returns the fences or
    /// throws every problem found.
    mutating func finish(_ document: RawDocument) throws(FencesimError) -> FenceSet {
        if let type = document.notObjectType {
            throw FencesimError(.badData, "expected a GeoJSON FeatureCollection object, found \(type)", at: at(0))
        }
        guard let typeNode = document.type, let type = typeNode.string else {
            throw FencesimError(
                .badData, "the GeoJSON object has no \"type\" string (expected \"FeatureCollection\")", at: at(document.offset))
        }
        switch type {
        case "FeatureCollection":
            if document.featureCount == nil {
                if let node = document.featuresNotArray {
                    throw FencesimError(.badData, "\"features\" must be an array, found \(node.value.typeDescription)", at: at(node.offset))
                }
                throw FencesimError(.badData, "FeatureCollection has no \"features\" array", at: at(document.offset))
            }
        case "Feature":
            fences = []
            errors = []
            errorCount = 0
            firstOffsetOfID = [:]
            if !crsHandled, let crs = document.crs, !crs.isNull {
                reprojectedFrom = try readCRS(crs)
                crsHandled = true
            }
            accept(document.rootFeature)
        default:
            throw FencesimError(
                .badData,
                "expected a FeatureCollection or a Feature, found \"\(type)\" (a bare geometry has no id: wrap it in a Feature with properties.id)",
                at: at(typeNode.offset))
        }
        if !crsHandled, let crs = document.crs, !crs.isNull {
            // A WGS84 crs after the features (a non-WGS84 one causes a second pass).
            reprojectedFrom = try readCRS(crs)
        }
        if let first = errors.first {
            var related = Array(errors.dropFirst())
            if errorCount > errors.count {
                related.append(Diagnostic(.note, "and \(errorCount - errors.count) more problems", at: SourceLocation(file: source.file)))
            }
            throw FencesimError(.badData, first.message, at: first.location, related: related)
        }
        let notices = otherNotices + context.takeNotices()
        for n in notices.prefix(20) {
            warnings.append(Diagnostic(.warning, "GEOS: \(n)", at: SourceLocation(file: source.file), kind: "geos-notice"))
        }
        return FenceSet(file: source.file, fences: fences, warnings: warnings, reprojectedFrom: reprojectedFrom)
    }

    /// Handles a `crs` member (GeoJSON 2008 §3): WGS84 names pass; others are reprojected when
    /// allowed, refused otherwise. Returns the source CRS when reprojecting.
    mutating func readCRS(_ crs: JSONNode) throws(FencesimError) -> String? {
        let name: String
        if let n = crs.member("properties")?.member("name")?.string {
            name = n
        } else if crs.member("type")?.string == "link" {
            throw FencesimError(
                .badData,
                "the \"crs\" member links to an external definition, which fencesim does not fetch; convert the file to WGS84 longitude/latitude (RFC 7946)",
                at: at(crs.offset))
        } else {
            throw FencesimError(.badData, "the \"crs\" member has no properties.name", at: at(crs.offset))
        }
        if CRSTransform.isWGS84(name) { return nil }
        guard options.reproject else {
            throw FencesimError(
                .badData,
                "the fences are in \(name) (\"crs\" member), not WGS84 longitude/latitude; pass --reproject to transform them with PROJ, or convert the file (RFC 7946 GeoJSON is WGS84)",
                at: at(crs.offset))
        }
        do {
            transform = try CRSTransform(from: name)
        } catch {
            throw FencesimError(.badData, "cannot reproject the fences: \(error.message)", at: at(crs.offset), cause: error)
        }
        warning("fences reprojected from \(name) to WGS84 with PROJ", crs.offset, kind: "reprojected")
        return name
    }
}

/// What converting one feature found: its problems in order, its id, and the fence.
///
/// The id's uniqueness is not decided here: it needs every feature before this one, so the
/// ``Reader`` checks it when it takes outcomes in file order (``Reader/accept(_:)-(inout FeatureOutcome)``).
struct FeatureOutcome: Sendable {
    enum Note: Sendable {
        case error(String, offset: Int)
        case warning(String, offset: Int, kind: String)
    }

    var notes: [Note] = []
    /// The feature's id and its offset, and how many notes came before the id was known (those
    /// are reported whether or not the id is a duplicate; the rest only when it is not).
    var identified: (id: String, offset: Int, notesBefore: Int)?
    var fence: Fence?
}

/// The properties every fence reads, found in one pass over the members instead of a search by
/// name for each (which, comparing strings, was about a twentieth of reading a large fence file).
/// Members with equal keys never reach it: the fence file's cursor refuses them.
struct KnownProperties {
    /// Where each key is among the members (-1: absent), so that nothing is copied or
    /// retained until a value is used.
    private var place:
        (
            id: Int32, name: Int32, zone: Int32, buffer: Int32, library: Int32,
            rank: Int32, weight: Int32, metadata: Int32, beacon: Int32, radius: Int32,
            validFrom: Int32, validUntil: Int32, schedule: Int32
        ) = (-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1)
    private let members: [JSONMember]

    init(_ members: [JSONMember]) {
        self.members = members
        for (k, member) in members.enumerated() {
            let key = member.key
            let at = Int32(truncatingIfNeeded: k)
            // The length first: one comparison of text at most, mostly.
            switch key.utf8.count {
            case 2:
                if key == "id" { place.id = at }
            case 4:
                if key == "name" { place.name = at } else if key == "zone" { place.zone = at } else if key == "rank" { place.rank = at }
            case 6:
                if key == "radius" {
                    place.radius = at
                } else if key == "buffer" {
                    place.buffer = at
                } else if key == "weight" {
                    place.weight = at
                } else if key == "beacon" {
                    place.beacon = at
                }
            case 7:
                if key == "library" { place.library = at }
            case 8:
                if key == "metadata" { place.metadata = at } else if key == "schedule" { place.schedule = at }
            case 9:
                if key == "validFrom" { place.validFrom = at }
            case 10:
                if key == "validUntil" { place.validUntil = at }
            default:
                break
            }
        }
    }

    private func node(_ k: Int32) -> JSONNode? { k < 0 ? nil : members[Int(k)].node }

    var id: JSONNode? { node(place.id) }
    var name: JSONNode? { node(place.name) }
    var zone: JSONNode? { node(place.zone) }
    var buffer: JSONNode? { node(place.buffer) }
    var library: JSONNode? { node(place.library) }
    var rank: JSONNode? { node(place.rank) }
    var weight: JSONNode? { node(place.weight) }
    var metadata: JSONNode? { node(place.metadata) }
    var beacon: JSONNode? { node(place.beacon) }
    var radius: JSONNode? { node(place.radius) }
    var validFrom: JSONNode? { node(place.validFrom) }
    var validUntil: JSONNode? { node(place.validUntil) }
    var schedule: JSONNode? { node(place.schedule) }
    /// Whether any property of ``FenceValidity`` is present.
    var hasValidity: Bool { place.validFrom >= 0 || place.validUntil >= 0 || place.schedule >= 0 }
}

/// Turns streamed features into fences: everything but the id uniqueness. Owns a GEOS context
/// (validity checks) and, when reprojecting, a PROJ transform, so it is not thread-safe: each
/// thread that converts features has its own.
struct FeatureConverter {
    let options: FenceReadOptions
    let context: GEOSContext
    var transform: CRSTransform?
    let locator: SourceText.Locator
    private var outcome = FeatureOutcome()
    /// The line of the last feature located (features come in file order).
    private var lineHint = 0

    init(options: FenceReadOptions, context: GEOSContext, transform: CRSTransform?, locator: SourceText.Locator) {
        self.options = options
        self.context = context
        self.transform = transform
        self.locator = locator
    }

    func at(_ offset: Int) -> SourceLocation { locator.location(ofOffset: offset) }

    mutating func report(_ message: String, _ offset: Int) {
        outcome.notes.append(.error(message, offset: offset))
    }

    mutating func warning(_ message: String, _ offset: Int, kind: String) {
        outcome.notes.append(.warning(message, offset: offset, kind: kind))
    }

    /// Converts one feature.
    mutating func convert(_ feature: RawFeature) -> FeatureOutcome {
        outcome = FeatureOutcome()
        readFeature(feature)
        // Moved out, not copied: a copy retained every reference the fence holds, and the next
        // feature's reset released them (about 2 % of reading the large fences).
        var converted = FeatureOutcome()
        swap(&converted, &outcome)
        return converted
    }

    /// Reads one feature into ``outcome``: its notes, its id, and its fence (none when a note
    /// is an error). The fence goes into the outcome with no function's return between: one
    /// returned and then stored was copied once more and destroyed (a reference count up and
    /// down for each member; 11 M instructions for 100,000 fences).
    mutating func readFeature(_ feature: RawFeature) {
        let index = feature.index
        // Names for messages, made only when one is written.
        var featureName: String { "feature \(index)" }
        if let type = feature.notObjectType {
            report("\(featureName) must be an object, found \(type)", feature.offset)
            return
        }
        if let t = feature.type, t.string != "Feature" {
            report("\(featureName) has type \(t.string.map { "\"\($0)\"" } ?? t.value.typeDescription), expected \"Feature\"", t.offset)
            return
        }
        // Properties: an object or null.
        var properties: [JSONMember] = []
        if let p = feature.properties {
            if let members = p.members {
                properties = members
            } else if !p.isNull {
                report("\(featureName): \"properties\" must be an object, found \(p.value.typeDescription)", p.offset)
                return
            }
        }
        let props = JSONNode(.object(properties), offset: feature.properties?.offset ?? feature.offset)
        let known = KnownProperties(properties)

        // Id: properties.id, else the Feature's own id member; or what the options choose.
        let id: String
        var idOffset = feature.offset
        if options.idProperty == FenceReadOptions.indexIDs {
            id = String(index)
        } else if let key = options.idProperty {
            guard let node = props.member(key), !node.isNull else {
                report("\(featureName) has no property \"\(key)\" to use as its id (--id-property)", feature.offset)
                return
            }
            switch node.value {
            case .string(let text) where !text.isEmpty: id = text
            case .int, .double: id = JSONWriter.string(node.value)
            default:
                report(
                    "\(featureName): property \"\(key)\" must be a non-empty string or a number to serve as the id, found \(node.value.typeDescription)",
                    node.offset)
                return
            }
            idOffset = node.offset
        } else {
            guard let idNode = known.id ?? feature.id else {
                report(
                    "\(featureName) has no id: every fence needs a unique string properties.id (or choose one with --id-property NAME, or --id-property @index)",
                    feature.offset)
                return
            }
            guard let text = idNode.string, !text.isEmpty else {
                let hint = idNode.number != nil ? " (write it as a string, e.g. \"\(JSONWriter.string(idNode.value))\")" : ""
                report(
                    "\(featureName): the fence id must be a non-empty string, found \(idNode.value.typeDescription)\(hint)", idNode.offset)
                return
            }
            id = text
            idOffset = idNode.offset
        }
        var label: String { "fence \"\(id)\"" }
        outcome.identified = (id, idOffset, outcome.notes.count)

        guard let geometry = feature.geometry else {
            report("\(label) has no geometry", feature.offset)
            return
        }
        let geometryNode = JSONNode(.null, offset: feature.geometryOffset)
        var shape: Shape
        switch geometry {
        case .success(let s):
            shape = s
        case .failure(let problem):
            report("\(label): \(problem.message)", problem.offset)
            return
        }
        if let transform {
            shape = shape.mapPositions { transform.toWGS84($0) }
        }
        if let p = shape.firstPosition(where: {
            !($0.x.isFinite && $0.y.isFinite && (-180...180).contains($0.x) && (-90...90).contains($0.y))
        }) {
            let hint =
                transform == nil && (abs(p.x) > 360 || abs(p.y) > 360)
                ? "; the coordinates look projected: add a \"crs\" member naming their CRS and pass --reproject" : ""
            report(
                "\(label): position (\(p.x), \(p.y)) is not a WGS84 longitude/latitude (longitude in [-180, 180], latitude in [-90, 90])\(hint)",
                geometryNode.offset)
            return
        }

        var name: String?
        if let n = known.name {
            guard let s = n.string else {
                report("\(label): \"name\" must be a string, found \(n.value.typeDescription)", n.offset)
                return
            }
            name = s
        }
        var zone: String?
        if let z = known.zone, !z.isNull {
            guard let s = z.string, !s.isEmpty else {
                report("\(label): \"zone\" must be a zone id (a non-empty string), found \(z.value.typeDescription)", z.offset)
                return
            }
            zone = s
        }
        var buffer: Double?
        if let b = known.buffer, !b.isNull {
            guard let v = b.number, v.isFinite else {
                report("\(label): \"buffer\" must be a number of metres, found \(b.value.typeDescription)", b.offset)
                return
            }
            guard abs(v) <= Fence.bufferLimitMeters else {
                let limit = JSONWriter.number(Fence.bufferLimitMeters)
                report("\(label): \"buffer\" \(JSONWriter.number(v)) m is beyond the limit of -\(limit) to \(limit) m (1000 km)", b.offset)
                return
            }
            buffer = v
        }
        var library: String?
        if let l = known.library, !l.isNull {
            guard let s = l.string else {
                report("\(label): \"library\" must be a string, found \(l.value.typeDescription)", l.offset)
                return
            }
            library = s
        }
        var rank: Int?
        let rankNode = known.rank
        let weightNode = known.weight
        if let r = rankNode, let w = weightNode, JSONWriter.string(r.value) != JSONWriter.string(w.value) {
            report("\(label): \"rank\" and \"weight\" are the same setting (the SDK calls rank weight) and disagree", w.offset)
            return
        }
        if let r = rankNode ?? weightNode, !r.isNull {
            guard let v = r.number, v == v.rounded(), abs(v) < 1e9 else {
                report(
                    "\(label): \"\(rankNode != nil ? "rank" : "weight")\" must be a whole number, found \(JSONWriter.string(r.value))",
                    r.offset)
                return
            }
            rank = Int(v)
        }
        let metadata = known.metadata.map(\.value)

        let kind: Fence.Kind
        switch shape {
        case .point:
            if let beacon = known.beacon, beacon.bool == true {
                guard let rangeNode = props.member("range") else {
                    report("\(label): a beacon needs \"range\" (its full range in metres)", beacon.offset)
                    return
                }
                guard let range = rangeNode.number, range.isFinite, range > 0 else {
                    report(
                        "\(label): beacon \"range\" must be a positive number of metres, found \(JSONWriter.string(rangeNode.value))",
                        rangeNode.offset)
                    return
                }
                guard range <= Fence.radiusLimitMeters else {
                    report(
                        "\(label): beacon \"range\" \(JSONWriter.number(range)) m is more than the limit of \(JSONWriter.number(Fence.radiusLimitMeters)) m (1000 km)",
                        rangeNode.offset)
                    return
                }
                var proximity = BeaconProximity.far
                if let p = props.member("proximity") {
                    switch p.value {
                    case .string("immediate"): proximity = .immediate
                    case .string("near"): proximity = .near
                    case .string("far"): proximity = .far
                    case .int, .double:
                        guard let m = p.number, m > 0, m <= range else {
                            report("\(label): beacon \"proximity\" in metres must be positive and at most the range (\(range) m)", p.offset)
                            return
                        }
                        proximity = .meters(m)
                    default:
                        report(
                            "\(label): beacon \"proximity\" must be \"immediate\", \"near\", \"far\" or metres, found \(JSONWriter.string(p.value))",
                            p.offset)
                        return
                    }
                }
                for key in ["signalNoise", "signalSeed"] {
                    if let n = props.member(key), !n.isNull {
                        guard let v = n.number, v.isFinite, v >= 0, key == "signalNoise" || v == v.rounded() else {
                            report(
                                "\(label): beacon \"\(key)\" must be \(key == "signalNoise" ? "a number of metres, 0 or more" : "a whole number, 0 or more"), found \(JSONWriter.string(n.value))",
                                n.offset)
                            return
                        }
                    }
                }
                kind = .beacon(rangeMeters: range, proximity: proximity)
            } else {
                let radius: Double
                let radiusOffset: Int
                if let radiusNode = known.radius {
                    guard let r = radiusNode.number, r.isFinite, r > 0 else {
                        report(
                            "\(label): \"radius\" must be a positive number of metres, found \(JSONWriter.string(radiusNode.value))",
                            radiusNode.offset)
                        return
                    }
                    guard r <= Fence.radiusLimitMeters else {
                        report(
                            "\(label): \"radius\" \(JSONWriter.number(r)) m is more than the limit of \(JSONWriter.number(Fence.radiusLimitMeters)) m (1000 km)",
                            radiusNode.offset)
                        return
                    }
                    radius = r
                    radiusOffset = radiusNode.offset
                } else if let r = options.defaultRadiusMeters {
                    radius = r
                    radiusOffset = geometryNode.offset
                } else {
                    report(
                        "\(label): a Point fence needs a \"radius\" in metres (or \"beacon\": true with a \"range\"; --radius sets one for every point without)",
                        geometryNode.offset)
                    return
                }
                if let b = buffer, radius + b <= 0 {
                    report("\(label): buffer \(b) m leaves nothing of radius \(radius) m", known.buffer?.offset ?? radiusOffset)
                    return
                }
                kind = .circle(radiusMeters: radius)
            }
        case .lineString:
            if let b = buffer, b < 0 {
                report("\(label): a line fence cannot have a negative buffer", known.buffer?.offset ?? geometryNode.offset)
                return
            }
            kind = .line
            guard let checked = checkValidity(shape, label: label, node: geometryNode) else { return }
            shape = checked
        case .collection(let parts) where parts.contains(where: \.isPolygonal):
            // A GeometryCollection of polygons (as some GIS exports write multi-part areas) is
            // read as one MultiPolygon; stray lines or points in it are refused, or dropped with a
            // warning under --make-valid.
            let stray = parts.filter { !$0.isPolygonal }.map(\.typeName)
            if !stray.isEmpty {
                guard options.makeValid else {
                    report(
                        "\(label): the GeometryCollection mixes polygons with \(stray.joined(separator: ", ")); an area fence holds only polygons (--make-valid drops the other parts)",
                        geometryNode.offset)
                    return
                }
                warning(
                    "\(label): dropped \(stray.joined(separator: ", ")) from a GeometryCollection of polygons (--make-valid)",
                    geometryNode.offset, kind: "make-valid")
            }
            kind = .area
            let merged = Shape.multiPolygon(FeatureConverter.polygonalParts(shape))
            guard let checked = checkValidity(merged, label: label, node: geometryNode) else { return }
            shape = checked
        case .polygon, .multiPolygon:
            kind = .area
            guard let checked = checkValidity(shape, label: label, node: geometryNode) else { return }
            shape = checked
        default:
            report(
                "\(label): \(shape.typeName) is not a fence geometry (use Polygon, MultiPolygon, Point with radius, or LineString; a GeometryCollection may hold only polygons)",
                geometryNode.offset)
            return
        }

        var validity: FenceValidity?
        if known.hasValidity {
            switch FeatureConverter.validity(known) {
            case .success(let v): validity = v
            case .failure(let problem):
                report("\(label): \(problem.message)", problem.offset)
                return
            }
        }

        outcome.fence = Fence(
            index: index, id: id, name: name, kind: kind, shape: shape, zone: zone, bufferMeters: buffer,
            library: library, rank: rank, metadata: metadata, properties: properties,
            location: locator.location(ofOffset: feature.offset, hint: &lineHint), validity: validity)
    }

    /// What is wrong with a fence's validity, and where.
    struct ValidityProblem: Error {
        var message: String
        var offset: Int
    }

    /// A fence's `validFrom`, `validUntil` (ISO-8601 times; UTC when no offset is given) and
    /// `schedule` (a window or a list of windows `{days, from, to, timezone}`, as zone
    /// conditions' time windows), or the problem and where it is.
    static func validity(_ known: KnownProperties) -> Result<FenceValidity?, ValidityProblem> {
        func time(_ node: JSONNode?, _ key: String) -> Result<Timestamp?, ValidityProblem> {
            guard let node, !node.isNull else { return .success(nil) }
            guard let text = node.string else {
                return .failure(
                    .init(message: "\"\(key)\" must be an ISO-8601 time, found \(node.value.typeDescription)", offset: node.offset))
            }
            switch Timestamp.parseISO8601(text) {
            case .success(let t): return .success(t)
            case .failure(let f): return .failure(.init(message: "\"\(key)\" is not an ISO-8601 time: \(f.message)", offset: node.offset))
            }
        }
        var validity = FenceValidity()
        switch time(known.validFrom, "validFrom") {
        case .success(let t): validity.from = t
        case .failure(let f): return .failure(f)
        }
        switch time(known.validUntil, "validUntil") {
        case .success(let t): validity.until = t
        case .failure(let f): return .failure(f)
        }
        if let from = validity.from, let until = validity.until, until <= from {
            return .failure(.init(message: "\"validUntil\" must be later than \"validFrom\"", offset: known.validUntil?.offset ?? 0))
        }
        if let node = known.schedule, !node.isNull {
            let windows = node.elements ?? [node]
            for window in windows {
                switch scheduleWindow(window) {
                case .success(let w): validity.schedule.append(w)
                case .failure(let f): return .failure(f)
                }
            }
        }
        if validity.from == nil, validity.until == nil, validity.schedule.isEmpty { return .success(nil) }
        return .success(validity)
    }

    /// One window of a fence's `schedule`.
    static func scheduleWindow(_ node: JSONNode) -> Result<ZoneConditions.TimeWindow, ValidityProblem> {
        func fail(_ message: String, _ at: JSONNode) -> Result<ZoneConditions.TimeWindow, ValidityProblem> {
            .failure(.init(message: message, offset: at.offset))
        }
        guard let members = node.members else {
            return fail("a \"schedule\" window must be an object {days, from, to, timezone}, found \(node.value.typeDescription)", node)
        }
        for member in members where !["days", "from", "to", "timezone"].contains(member.key) {
            return fail("unknown key \"\(member.key)\" in a schedule window (use days, from, to, timezone)", member.node)
        }
        var days = Set<Int>()
        if let d = node.member("days"), !d.isNull {
            guard let list = d.elements else { return fail("\"days\" must be a list such as [\"mon\", \"tue\"]", d) }
            for day in list {
                guard let name = day.string, let n = ZoneConditions.TimeWindow.dayNumber(name) else {
                    return fail("unknown day (use mon, tue, wed, thu, fri, sat, sun)", day)
                }
                days.insert(n)
            }
        }
        var minutes: [Int] = []
        for key in ["from", "to"] {
            guard let n = node.member(key) else { return fail("a schedule window needs \"\(key)\" (HH:MM)", node) }
            guard let text = n.string, let minute = ZoneConditions.TimeWindow.minuteOfDay(text) else {
                return fail("\"\(key)\" must be a time of day HH:MM", n)
            }
            minutes.append(minute)
        }
        let zoneNode = node.member("timezone")
        let zone = zoneNode?.string ?? "UTC"
        guard ZoneConditions.TimeWindow.utcOffsetSeconds(zone, at: Timestamp(seconds: 0)) != nil else {
            return fail("unknown time zone \"\(zone)\" (use UTC, an offset such as +02:00, or an IANA name)", zoneNode ?? node)
        }
        return .success(ZoneConditions.TimeWindow(days: days, fromMinute: minutes[0], toMinute: minutes[1], timeZone: zone))
    }

    /// GEOS validity: invalid shapes are errors naming the fence and GEOS's reason, or repaired
    /// with a warning when make-valid is on.
    mutating func checkValidity(_ shape: Shape, label: @autoclosure () -> String, node: JSONNode) -> Shape? {
        // Most fences are single-ring polygons that a quick conservative check clears; GEOS
        // decides the rest and gives the reason.
        if case .polygon(let rings) = shape, rings.count == 1, RingCheck.isCertainlySimple(rings[0]) {
            return shape
        }
        do {
            let geometry = try Geometry(shape, context: context)
            let validity = try geometry.validity()
            if validity.isValid { return shape }
            let place = validity.location.map { " at (\($0.x), \($0.y))" } ?? ""
            let reason = "\(validity.reason ?? "invalid geometry")\(place)"
            guard options.makeValid, shape.isPolygonal else {
                let hint = options.makeValid ? "" : " (--make-valid repairs it)"
                report("\(label()): invalid geometry: \(reason)\(hint)", node.offset)
                return nil
            }
            // Make-valid's time grows faster than the number of crossings it nodes (a 200-vertex
            // star took 46 s): past the limit the repair is refused before it starts.
            switch RingCheck.crossings(
                of: FeatureConverter.polygonalParts(shape).flatMap { $0 }, limit: Fence.makeValidCrossingLimit,
                pairBudget: Fence.makeValidPairBudget)
            {
            case .exactly: break
            case .moreThan(let limit):
                report(
                    "\(label()): invalid geometry: \(reason); its edges cross more than \(limit) times, more than make-valid repairs (the limit keeps a repair within seconds)",
                    node.offset)
                return nil
            case .pairBudgetSpent(let pairs):
                report(
                    "\(label()): invalid geometry: \(reason); its crossings could not be counted within \(pairs) tests of overlapping edges, the most make-valid is allowed (the limit keeps a repair within seconds)",
                    node.offset)
                return nil
            }
            let repaired = try geometry.makeValid()
            let polygons = FeatureConverter.polygonalParts(try repaired.shape)
            guard !polygons.isEmpty else {
                report("\(label()): invalid geometry: \(reason); make-valid leaves no area", node.offset)
                return nil
            }
            warning("\(label()): invalid geometry repaired by make-valid: \(reason)", node.offset, kind: "make-valid")
            return polygons.count == 1 ? .polygon(polygons[0]) : .multiPolygon(polygons)
        } catch {
            report("\(label()): invalid geometry: \(error.message)", node.offset)
            return nil
        }
    }

    static func polygonalParts(_ shape: Shape) -> [[[XY]]] {
        switch shape {
        case .polygon(let rings): rings.isEmpty ? [] : [rings]
        case .multiPolygon(let polys): polys
        case .collection(let shapes): shapes.flatMap(polygonalParts)
        default: []
        }
    }
}

extension Shape {
    /// Polygons and multipolygons, the shapes make-valid can repair into areas.
    fileprivate var isPolygonal: Bool {
        switch self {
        case .polygon, .multiPolygon: true
        default: false
        }
    }
}
