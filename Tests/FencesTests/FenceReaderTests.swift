import Foundation
import Spatial
import Support
import Testing

@testable import Fences

private func read(_ text: String, _ options: FenceReadOptions = FenceReadOptions()) throws(FencesimError) -> FenceSet {
    try FenceReader.parse(SourceText(file: "fences.geojson", bytes: Array(text.utf8)), options: options)
}

private func feature(_ properties: String, _ geometry: String) -> String {
    "{\"type\": \"Feature\", \"properties\": {\(properties)}, \"geometry\": \(geometry)}"
}

private func collection(_ features: String...) -> String {
    "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
}

/// Expects `text` to be refused with a located error at `line` whose message contains `message`.
private func expectError(
    _ text: String, line: Int, _ message: String, options: FenceReadOptions = FenceReadOptions(),
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    do {
        let set = try read(text, options)
        Issue.record("expected an error containing \"\(message)\", read \(set.fences.count) fences", sourceLocation: sourceLocation)
    } catch {
        #expect(error.code.exitStatus == 65, sourceLocation: sourceLocation)
        #expect(error.location?.file == "fences.geojson", sourceLocation: sourceLocation)
        #expect(error.location?.line == line, "\(error)", sourceLocation: sourceLocation)
        #expect(error.location?.column != nil, sourceLocation: sourceLocation)
        #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        #expect(error.description.hasPrefix("fences.geojson:\(line):"), sourceLocation: sourceLocation)
    }
}

let square = #"{"type": "Polygon", "coordinates": [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]]]}"#

@Suite struct FenceReaderTests {
    @Test(
        "a key given twice anywhere in a fence's objects is refused at the second (issue 21)",
        arguments: [
            (#""id": "a", "radius": 30, "id": "b""#, #"{"type": "Point", "coordinates": [0, 0]}"#, "\"id\""),
            (#""id": "a", "radius": 30, "metadata": {"k": 1, "k": 2}"#, #"{"type": "Point", "coordinates": [0, 0]}"#, "\"k\""),
            (#""id": "a", "radius": 30"#, #"{"type": "Point", "coordinates": [0, 0], "type": "Polygon"}"#, "\"type\""),
        ])
    func duplicateKeys(_ properties: String, _ geometry: String, _ key: String) {
        expectError(collection(feature(properties, geometry)), line: 2, "duplicate key \(key)")
    }

    @Test("a Feature's own members and the document's may not repeat either")
    func duplicateFeatureAndDocumentMembers() {
        let twice =
            #"{"type": "Feature", "properties": {"id": "a", "radius": 30}, "properties": {"id": "b", "radius": 30}, "geometry": {"type": "Point", "coordinates": [0, 0]}}"#
        expectError(collection(twice), line: 2, "duplicate key \"properties\"")
        expectError("{\"type\": \"FeatureCollection\", \"features\": [],\n \"features\": []}", line: 2, "duplicate key \"features\"")
    }

    @Test("properties of many keys are checked in linear time, and distinct keys pass")
    func manyKeys() throws {
        let keys = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let set = try read(collection(feature(#""id": "a", "radius": 30, "# + keys, #"{"type": "Point", "coordinates": [0, 0]}"#)))
        #expect(set.fences.count == 1)
        expectError(
            collection(feature(#""id": "a", "radius": 30, "# + keys + #", "k39": 0"#, #"{"type": "Point", "coordinates": [0, 0]}"#)),
            line: 2, "duplicate key \"k39\"")
    }

    @Test func readsEveryKindAndKeepsProperties() throws {
        let text = collection(
            feature(
                #""id": "a", "name": "Store", "zone": "z1", "buffer": -5, "library": "lib", "rank": 2, "metadata": {"k": 1}, "colour": "red""#,
                #"{"type": "Polygon", "coordinates": [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0.01], [0, 0]], [[0.002, 0.002], [0.002, 0.004], [0.004, 0.004], [0.004, 0.002], [0.002, 0.002]]]}"#
            ),
            feature(#""id": "b", "radius": 120.5, "weight": 3"#, #"{"type": "Point", "coordinates": [1, 2]}"#),
            feature(#""id": "c""#, #"{"type": "LineString", "coordinates": [[0, 0], [0.001, 0.001]]}"#),
            feature(#""id": "d", "beacon": true, "range": 30, "proximity": "near""#, #"{"type": "Point", "coordinates": [1, 2]}"#),
            feature(
                #""id": "e""#,
                #"{"type": "MultiPolygon", "coordinates": [[[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0]]], [[[1, 1], [1.01, 1], [1.01, 1.01], [1, 1]]]]}"#
            )
        )
        let set = try read(text)
        #expect(set.fences.map(\.id) == ["a", "b", "c", "d", "e"])
        #expect(set.fences.map(\.index) == [0, 1, 2, 3, 4])
        let a = set.fences[0]
        #expect(a.kind == .area)
        #expect(a.name == "Store")
        #expect(a.zone == "z1")
        #expect(a.bufferMeters == -5)
        #expect(a.library == "lib")
        #expect(a.rank == 2)
        #expect(a.property("colour")?.string == "red")
        #expect(a.properties.map(\.key) == ["id", "name", "zone", "buffer", "library", "rank", "metadata", "colour"])
        if case .polygon(let rings) = a.shape { #expect(rings.count == 2) } else { Issue.record("expected a polygon with a hole") }
        #expect(set.fences[1].kind == .circle(radiusMeters: 120.5))
        #expect(set.fences[1].rank == 3)
        #expect(set.fences[2].kind == .line)
        #expect(set.fences[3].kind == .beacon(rangeMeters: 30, proximity: .near))
        #expect(set.countsByKind.map(\.count) == [2, 1, 1, 1])
        #expect(set.warnings.isEmpty)
    }

    @Test func circleExtentIncludesRadius() throws {
        let set = try read(collection(feature(#""id": "c", "radius": 1000"#, #"{"type": "Point", "coordinates": [0, 0]}"#)))
        let box = try #require(set.boundingBox)
        // 1000 m is 0.00898 degrees of latitude at the equator.
        #expect(abs(box.north - 0.009043) < 1e-5)
        #expect(abs(box.east - 0.008983) < 1e-5)
    }

    @Test func unclosedRingIsLocated() {
        let text = collection(feature(#""id": "a""#, #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#))
        expectError(text, line: 2, "not closed")
    }

    @Test func selfIntersectingPolygonNamesFenceAndGEOSReason() {
        let bowtie = #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}"#
        expectError(
            collection(feature(#""id": "bow""#, bowtie)), line: 2, "fence \"bow\": invalid geometry: Self-intersection at (0.5, 0.5)")
    }

    @Test func makeValidRepairsWithAWarning() throws {
        let bowtie = #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}"#
        let set = try read(collection(feature(#""id": "bow""#, bowtie)), FenceReadOptions(makeValid: true))
        #expect(set.fences.count == 1)
        if case .multiPolygon(let parts) = set.fences[0].shape { #expect(parts.count == 2) } else { Issue.record("expected two triangles") }
        #expect(set.warnings.count == 1)
        #expect(set.warnings.first?.message.contains("make-valid") == true)
    }

    @Test func tooFewDistinctPointsIsInvalid() {
        let degenerate = #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [0, 0], [0, 0]]]}"#
        expectError(collection(feature(#""id": "d""#, degenerate)), line: 2, "invalid geometry")
    }

    /// A key given twice in one properties object is refused, for every property the reader
    /// interprets (they are found in one pass over the members); until issue 21 the last counted.
    @Test(arguments: ["id", "name", "zone", "buffer", "library", "rank", "weight", "metadata", "radius", "beacon"])
    func aRepeatedPropertyIsRefused(_ key: String) {
        let properties = #""id": "a", "radius": 5, "# + "\"\(key)\": 1, \"\(key)\": 2"
        let text = collection(feature(properties, #"{"type": "Point", "coordinates": [1, 2]}"#))
        expectError(text, line: 2, "duplicate key \"\(key)\"")
    }

    @Test func duplicateIDPointsAtBothPlaces() {
        let text = collection(
            feature(#""id": "same", "radius": 5"#, #"{"type": "Point", "coordinates": [0, 0]}"#),
            feature(#""id": "same", "radius": 5"#, #"{"type": "Point", "coordinates": [0, 0]}"#))
        expectError(text, line: 3, "duplicate fence id \"same\" (first used at fences.geojson:2:")
    }

    @Test func utmCRSIsRefusedWithTheOption() {
        let text = """
            {"type": "FeatureCollection",
             "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::32633"}},
             "features": [\(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [500000, 5000000]}"#))]}
            """
        expectError(text, line: 2, "pass --reproject")
    }

    @Test func utmCRSIsReprojectedWhenAsked() throws {
        let text = """
            {"type": "FeatureCollection",
             "crs": {"type": "name", "properties": {"name": "EPSG:32633"}},
             "features": [\(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [500000, 0]}"#))]}
            """
        let set = try read(text, FenceReadOptions(reproject: true))
        guard case .point(let p) = set.fences[0].shape else { Issue.record("expected a point"); return }
        // UTM zone 33's false easting lies on its central meridian, 15° E, at the equator.
        #expect(abs(p.longitude - 15) < 1e-9)
        #expect(abs(p.latitude) < 1e-9)
        #expect(set.reprojectedFrom == "EPSG:32633")
        #expect(set.warnings.map(\.kind) == ["reprojected"])
    }

    @Test func crsAfterTheFeaturesIsHonoured() throws {
        let text = """
            {"type": "FeatureCollection",
             "features": [\(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [500000, 0]}"#))],
             "crs": {"type": "name", "properties": {"name": "EPSG:32633"}}}
            """
        expectError(text, line: 3, "pass --reproject")
        let set = try read(text, FenceReadOptions(reproject: true))
        guard case .point(let p) = set.fences[0].shape else { Issue.record("expected a point"); return }
        #expect(abs(p.longitude - 15) < 1e-9)
        #expect(set.reprojectedFrom == "EPSG:32633")
        // A WGS84 crs after the features changes nothing.
        let wgs = """
            {"type": "FeatureCollection",
             "features": [\(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [8.5, 47.3]}"#))],
             "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}}}
            """
        #expect(try read(wgs).reprojectedFrom == nil)
    }

    @Test func projectedCoordinatesWithoutCRSAreRefusedWithAHint() {
        expectError(
            collection(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [500000, 4000000]}"#)),
            line: 2, "look projected")
    }

    @Test(arguments: [
        (#""radius": 5"#, "has no id"),
        (#""id": 7, "radius": 5"#, "must be a non-empty string"),
        (#""id": "", "radius": 5"#, "must be a non-empty string"),
        (#""id": "p""#, "needs a \"radius\""),
        (#""id": "p", "radius": -3"#, "positive number of metres"),
        (#""id": "p", "radius": "10""#, "positive number of metres"),
        (#""id": "p", "radius": 10, "buffer": -10"#, "leaves nothing"),
        (#""id": "p", "radius": 10, "rank": 1.5"#, "whole number"),
        (#""id": "p", "radius": 10, "rank": 1, "weight": 2"#, "disagree"),
        (#""id": "p", "beacon": true"#, "needs \"range\""),
        (#""id": "p", "beacon": true, "range": 10, "proximity": "close""#, "\"immediate\", \"near\", \"far\""),
        (#""id": "p", "radius": 10, "zone": 3"#, "zone id"),
        (#""id": "p", "beacon": true, "range": 10, "signalNoise": -1"#, "signalNoise"),
        (#""id": "p", "beacon": true, "range": 10, "signalSeed": 1.5"#, "signalSeed"),
    ])
    func badPointProperties(properties: String, message: String) {
        expectError(collection(feature(properties, #"{"type": "Point", "coordinates": [0, 0]}"#)), line: 2, message)
    }

    /// A list of positions is read straight into one array until something else turns up;
    /// then it is read again the general way, so the problem is found and located as before
    /// (the columns are those the general reading alone gave).
    @Test(
        arguments: [
            (#"[[0, 0], [0.01, 0.01, 2, 3, 4]]"#, 107, "a position has at most four numbers, found 5"),
            (#"[[0, 0], [[0.01, 0.01]]]"#, 98, "found deeper nesting"),
            (#"[[0, 0], [0.01]]"#, 107, "a position needs at least two numbers"),
            (#"[[0, 0], [0.01, "1"]]"#, 114, "a coordinate must be a number, found a string"),
            (#"[[0, 0], [0.01, NaN]]"#, 114, "NaN and Infinity are not JSON numbers"),
            (#"[[0, 0], [0.01 1]]"#, 113, "expected ',' or ']' in array, found '1'"),
        ] as [(String, Int, String)])
    func positionListsGoneWrongAreLocated(coordinates: String, column: Int, message: String) {
        let text = collection(feature(#""id": "a""#, #"{"type": "LineString", "coordinates": "# + coordinates + "}"))
        expectError(text, line: 2, message)
        let error = #expect(throws: FencesimError.self) { try read(text) }
        #expect(error?.location?.column == column, "\(String(describing: error))")
    }

    @Test func positionListsReadAsBefore() throws {
        let set = try read(
            collection(
                feature(#""id": "l""#, #"{"type": "LineString", "coordinates": [[0, 0], [0.01, 0.02, 5], [0.03, 0.04, 5, 6]]}"#),
                feature(
                    #""id": "p""#,
                    #"{"type": "Polygon", "coordinates": [[[0, 0], [0.01, 0], [0.01, 0.01], [0, 0]], [ [0.002,0.001] , [0.004,0.001],[0.004,0.002],[0.002,0.001] ]]}"#
                )))
        #expect(set.fences[0].shape == .lineString([XY(0, 0), XY(0.01, 0.02), XY(0.03, 0.04)]))
        #expect(
            set.fences[1].shape
                == .polygon([
                    [XY(0, 0), XY(0.01, 0), XY(0.01, 0.01), XY(0, 0)],
                    [XY(0.002, 0.001), XY(0.004, 0.001), XY(0.004, 0.002), XY(0.002, 0.001)],
                ]))
    }

    @Test func outOfRangeCoordinates() {
        expectError(
            collection(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [0, 91]}"#)), line: 2, "latitude in [-90, 90]"
        )
    }

    @Test func unsupportedGeometry() {
        expectError(
            collection(feature(#""id": "a""#, #"{"type": "MultiPoint", "coordinates": [[0, 0]]}"#)), line: 2, "not a fence geometry")
        expectError(collection(feature(#""id": "a""#, #"{"type": "Circle", "coordinates": [0, 0]}"#)), line: 2, "unknown geometry type")
    }

    @Test func nonNumericCoordinateIsLocatedAtTheValue() {
        let text =
            "{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"properties\": {\"id\": \"a\", \"radius\": 5},\n \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, \"x\"]}}]}"
        do {
            _ = try read(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.location == Support.SourceLocation(file: "fences.geojson", line: 3, column: 51))
        }
    }

    @Test func nanIsNotJSON() {
        expectError(collection(feature(#""id": "a", "radius": 5"#, #"{"type": "Point", "coordinates": [NaN, 0]}"#)), line: 2, "NaN")
    }

    @Test func truncatedFileAndEmptyFile() {
        expectError("{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\"", line: 2, "expected ',' or '}'")
        expectError("  \n", line: 1, "empty file")
        expectError("[1, 2]", line: 1, "expected a GeoJSON FeatureCollection")
        expectError(#"{"type": "Polygon", "coordinates": []}"#, line: 1, "a bare geometry has no id")
    }

    @Test func everyBadFeatureIsListed() {
        let text = collection(
            feature(#""id": "a""#, #"{"type": "Point", "coordinates": [0, 0]}"#),
            feature(#""id": "b", "radius": 3"#, #"{"type": "Point", "coordinates": [0, 0]}"#),
            feature(#""id": "c""#, #"{"type": "Point", "coordinates": [0, 0]}"#))
        do {
            _ = try read(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.location?.line == 2)
            #expect(error.related.count == 1)
            #expect(error.related.first?.location?.line == 4)
        }
    }

    @Test func idPropertyAndDefaultRadiusOptions() throws {
        let text = collection(
            feature(#""code": 17"#, #"{"type": "Point", "coordinates": [0, 0]}"#),
            feature(#""code": "x""#, #"{"type": "Point", "coordinates": [0, 0]}"#))
        let set = try read(text, FenceReadOptions(idProperty: "code", defaultRadiusMeters: 25))
        #expect(set.fences.map(\.id) == ["17", "x"])
        #expect(set.fences[0].kind == .circle(radiusMeters: 25))
        let indexed = try read(text, FenceReadOptions(idProperty: FenceReadOptions.indexIDs, defaultRadiusMeters: 25))
        #expect(indexed.fences.map(\.id) == ["0", "1"])
    }

    @Test func missingFileIsExit66() {
        do {
            _ = try FenceReader.read(path: "/nonexistent/fences.geojson")
            Issue.record("expected an error")
        } catch {
            #expect(error.code.exitStatus == 66)
        }
    }
}

@Suite(.enabled(if: SharedData.isAvailable, "needs ../shared/data (real polygons); skipped when absent"))
struct RealFenceFileTests {
    @Test func tsinghuaUTMReprojectsOntoItsWGS84Copy() throws {
        let utm = try FenceReader.read(
            path: SharedData.path("trackintel/tests/data/area/tsinghua.geojson"),
            options: FenceReadOptions(reproject: true, idProperty: FenceReadOptions.indexIDs))
        let wgs = try FenceReader.read(
            path: SharedData.path("_derived/trackintel_tsinghua_wgs84.geojson"),
            options: FenceReadOptions(idProperty: FenceReadOptions.indexIDs))
        let a = utm.fences[0].shape.positions
        let b = wgs.fences[0].shape.positions
        #expect(a.count == b.count)
        // The derived copy is rounded to 6-7 decimals and its ring rewound (RFC 7946 winding), so
        // every vertex is matched with the nearest vertex of the other file.
        for p in a {
            let nearest = b.map { max(abs($0.x - p.x), abs($0.y - p.y)) }.min() ?? .infinity
            #expect(nearest < 1e-6, "vertex \(p) has no counterpart in the WGS84 copy")
        }
    }

    @Test func tsinghuaUTMIsRefusedByDefault() {
        #expect(throws: FencesimError.self) {
            try FenceReader.read(path: SharedData.path("trackintel/tests/data/area/tsinghua.geojson"))
        }
    }

    @Test(arguments: [
        ("_derived/skmob_NY_counties_2011_wgs84.geojson", "tile_id", 62),
        ("_derived/geopandas_naturalearth_lowres.geojson", "name", 177),
        ("naturalearth/countries_110m.geojson", "@index", 177),
        ("transbigdata/docs/source/gallery/data/sz.json", "@index", 10),
    ])
    func realPolygonsRead(path: String, idProperty: String, count: Int) throws {
        let set = try FenceReader.read(path: SharedData.path(path), options: FenceReadOptions(idProperty: idProperty))
        #expect(set.fences.count == count)
        #expect(set.fences.allSatisfy { $0.kind == .area })
    }

    @Test func boroughsNeedMakeValidForAStrayLine() throws {
        let path = SharedData.path("_derived/geopandas_nybb_wgs84.geojson")
        #expect(throws: FencesimError.self) { try FenceReader.read(path: path, options: FenceReadOptions(idProperty: "BoroName")) }
        let set = try FenceReader.read(path: path, options: FenceReadOptions(makeValid: true, idProperty: "BoroName"))
        #expect(set.fences.map(\.id) == ["Staten Island", "Queens", "Brooklyn", "Manhattan", "Bronx"])
        #expect(set.warnings.count == 1)
    }

    @Test func stopsBecomeCircles() throws {
        let set = try FenceReader.read(
            path: SharedData.path("_derived/movingpandas_stops_304_to_ul.geojson"),
            options: FenceReadOptions(idProperty: "stop_id", defaultRadiusMeters: 30))
        #expect(set.fences.count == 36)
        #expect(set.fences.allSatisfy { $0.kind == .circle(radiusMeters: 30) })
    }
}
