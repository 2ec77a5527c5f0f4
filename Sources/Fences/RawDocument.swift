import Spatial
import Support

/// One feature of a GeoJSON file as streamed: its members parsed, its geometry read straight
/// into a ``Spatial/Shape`` without building a JSON tree of its coordinates.
struct RawFeature {
    var index: Int
    var offset: Int
    /// Set when the feature is not an object (its JSON type).
    var notObjectType: String?
    var type: JSONNode?
    var id: JSONNode?
    var properties: JSONNode?
    /// `nil` when the feature has no geometry or a null one.
    var geometry: Result<Shape, GeoJSONCoordinates.Problem>?
    var geometryOffset: Int

    init(index: Int, offset: Int) {
        self.index = index
        self.offset = offset
        geometryOffset = offset
    }
}

/// A GeoJSON fence file read in one pass with a streaming cursor: the top-level members and the
/// features. A 100,000-feature file never exists as a JSON tree, which keeps memory close to the
/// file's size and skips building and freeing millions of small nodes.
struct RawDocument {
    var offset = 0
    var notObjectType: String?
    var type: JSONNode?
    var crs: JSONNode?
    /// How many features the `features` array held (`nil` when there is none).
    var featureCount: Int?
    var featuresNotArray: JSONNode?
    /// Whether the `crs` member came after the features (so they were read before it was known).
    var crsAfterFeatures = false
    /// The document itself read as a Feature (when its type is "Feature").
    var rootFeature = RawFeature(index: 0, offset: 0)

    /// Reads the document, handing each feature of the `features` array to `onFeature` as soon as
    /// it is read; features are not kept.
    /// A `crs` member met before the features goes to `onCRS` at once (so the features can be
    /// reprojected as they stream); a failure it returns stops the read there.
    ///
    /// `onFeatureArray`, when given, is offered the byte ranges of the elements of `features`
    /// (see ``Support/JSONCursor/elementRanges()``) with a cursor standing in the array; when it
    /// returns `true` it has read every element itself (on several threads) and `onFeature` is not
    /// called for them. When it returns `false`, or the ranges cannot be found, the elements
    /// stream to `onFeature` in order.
    static func scan(
        _ source: SourceText, onCRS: (JSONNode) -> JSONCursor.Failure?, onFeature: (RawFeature) -> Void,
        onFeatureArray: ((JSONCursor, [Range<Int>]) throws(JSONCursor.Failure) -> Bool)? = nil
    ) throws(FencesimError) -> RawDocument {
        // A fence file must not hold two members of one name anywhere ("id":"a","id":"b").
        try JSONParser.withCursor(source, refusingDuplicateKeys: true) { (c: inout JSONCursor) throws(JSONCursor.Failure) -> RawDocument in
            c.words = RawDocument.words
            var document = RawDocument()
            document.offset = c.position
            guard c.peek() == UInt8(ascii: "{") else {
                let value = try c.parseValue()
                try c.expectEnd()
                document.notObjectType = value.value.typeDescription
                return document
            }
            document.rootFeature = RawFeature(index: 0, offset: c.position)
            try c.beginObject()
            var first = true
            var keys = JSONKeys()
            while let (key, keyOffset) = try c.nextMember(&first) {
                try keys.insert(key, at: keyOffset)
                switch key {
                case "type":
                    let node = try c.parseValue()
                    document.type = node
                    document.rootFeature.type = node
                case "crs":
                    let node = try c.parseValue()
                    document.crs = node
                    document.crsAfterFeatures = document.featureCount != nil
                    if !document.crsAfterFeatures, let failure = onCRS(node) { throw failure }
                case "features":
                    if c.peek() == UInt8(ascii: "[") {
                        try c.beginArray()
                        if let onFeatureArray, let (ranges, close) = c.elementRanges(parallelAbove: RawDocument.parallelScanBytes),
                            try onFeatureArray(c, ranges)
                        {
                            c.finishArray(closingAt: close)
                            document.featureCount = ranges.count
                            continue
                        }
                        var count = 0
                        var firstElement = true
                        while try c.nextElement(&firstElement) {
                            onFeature(try readFeature(&c, index: count))
                            count += 1
                        }
                        document.featureCount = count
                    } else {
                        document.featuresNotArray = try c.parseValue()
                    }
                default:
                    // A single Feature at the top level keeps its members too.
                    try readMember(key, &c, into: &document.rootFeature)
                }
            }
            try c.expectEnd()
            return document
        }
    }

    /// Feature arrays of at least this many bytes are scanned for their elements on two threads.
    static let parallelScanBytes = 1 << 20

    /// The member names and type names of GeoJSON and fence files, most of the strings a fence
    /// file holds: read as these literals (``Support/JSONWords``).
    static let words = JSONWords([
        "id", "crs", "name", "type", "zone", "rank", "Point", "range", "beacon", "buffer", "radius", "weight",
        "Feature", "library", "Polygon", "features", "geometry", "metadata", "proximity", "properties",
        "LineString", "MultiPoint", "geometries", "coordinates", "MultiPolygon", "MultiLineString",
    ])

    /// The feature at the cursor (its index in the array given).
    static func readFeature(_ c: inout JSONCursor, index: Int) throws(JSONCursor.Failure) -> RawFeature {
        var feature = RawFeature(index: index, offset: c.position)
        try readFeature(&c, into: &feature)
        return feature
    }

    /// Reads the feature at the cursor into `feature`, made for it (its index, and the cursor's
    /// offset) by the caller: built in place, where one returned from the function that read it
    /// was copied out and the original destroyed (a reference count up and down for each of
    /// its members: 31 M instructions for 100,000 features).
    static func readFeature(_ c: inout JSONCursor, into feature: inout RawFeature) throws(JSONCursor.Failure) {
        guard c.peek() == UInt8(ascii: "{") else {
            feature.notObjectType = try c.parseValue().value.typeDescription
            return
        }
        try c.beginObject()
        var first = true
        var keys = JSONKeys()
        while let (key, keyOffset) = try c.nextMember(&first) {
            try keys.insert(key, at: keyOffset)
            if key == "type" {
                feature.type = try c.parseValue()
            } else {
                try readMember(key, &c, into: &feature)
            }
        }
    }

    static func readMember(_ key: String, _ c: inout JSONCursor, into feature: inout RawFeature) throws(JSONCursor.Failure) {
        switch key {
        case "id":
            feature.id = try c.parseValue()
        case "properties":
            feature.properties = try c.parseValue()
        case "geometry":
            feature.geometryOffset = c.position
            if c.peek() == UInt8(ascii: "n") {
                _ = try c.parseValue()
                feature.geometry = nil
            } else {
                feature.geometry = try Shape.readGeoJSON(&c)
            }
        default:
            try c.skipValue()
        }
    }
}
