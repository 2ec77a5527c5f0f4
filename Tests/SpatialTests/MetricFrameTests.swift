import Spatial
import Support
import Testing

/// The benchmark's projection (bench/README.md, semantics §2).
let benchProjection = "+proj=tmerc +lat_0=37.75 +lon_0=-122.20 +k=1 +x_0=0 +y_0=0 +ellps=WGS84"

@Suite("Metric frames")
struct MetricFrameTests {
    /// A grid of `n` × `n` positions over `box` (x = longitude, y = latitude).
    static func grid(_ box: BoundingBox, _ n: Int) -> [XY] {
        var points: [XY] = []
        for i in 0..<n {
            for j in 0..<n {
                points.append(
                    XY(
                        longitude: box.minX + box.width * Double(i) / Double(n - 1),
                        latitude: box.minY + box.height * Double(j) / Double(n - 1)))
            }
        }
        return points
    }

    static let benchBox = BoundingBox(minX: -122.5, minY: 37.5, maxX: -121.9, maxY: 38.0)

    enum Frame: CustomTestStringConvertible, Sendable {
        case automatic, bench, utm33
        var testDescription: String {
            switch self {
            case .automatic: "automatic frame"
            case .bench: "bench tmerc string"
            case .utm33: "EPSG:32633"
            }
        }
        var box: BoundingBox {
            switch self {
            case .automatic, .bench: MetricFrameTests.benchBox
            case .utm33: BoundingBox(minX: 9, minY: 0, maxX: 21, maxY: 80)
            }
        }
        func definition() throws -> FrameDefinition {
            switch self {
            case .automatic: try MetricFrame.automaticDefinition(covering: box).definition
            case .bench: .projString(benchProjection)
            case .utm33: FrameDefinition(parsing: "EPSG:32633")
            }
        }
    }

    @Test("Forward then inverse returns the position to 1e-9 degrees over a grid", arguments: [Frame.automatic, .bench, .utm33])
    func roundTrip(frame: Frame) throws {
        let metric = try MetricFrame(try frame.definition())
        let points = Self.grid(frame.box, 41)
        var worst = 0.0
        for p in points {
            let xy = metric.forward(p)
            #expect(xy.x.isFinite && xy.y.isFinite)
            let back = metric.inverse(xy)
            worst = max(worst, abs(back.x - p.x), abs(back.y - p.y))
        }
        #expect(worst <= 1e-9, "worst round-trip error \(worst)°")
        // The batched calls give the same numbers as the single ones.
        var batch = points
        try metric.forward(&batch)
        #expect(batch == points.map(metric.forward))
        try metric.inverse(&batch)
        #expect(batch == points.map { metric.inverse(metric.forward($0)) })
    }

    @Test("A CRS needing a datum shift: batched and single transformations agree")
    func datumShiftBatch() throws {
        // British National Grid (OSGB36): PROJ picks among several WGS84 → OSGB36 operations.
        let metric = try MetricFrame(.crs("EPSG:27700"))
        let points = Self.grid(BoundingBox(minX: -5, minY: 50.5, maxX: 1, maxY: 55), 9)
        var batch = points
        try metric.forward(&batch)
        #expect(batch == points.map(metric.forward))
        // London is about 530 km east and 180 km north of the grid's false origin.
        let london = metric.forward(XY(longitude: -0.1276, latitude: 51.5072))
        #expect(abs(london.x - 530_000) < 3_000 && abs(london.y - 180_000) < 3_000, "\(london)")
    }

    @Test(
        "The bench projection matches an independent Krüger-series computation to 1e-6 m",
        arguments: [
            // (longitude, latitude, x, y). Obtained by running, once, with the repository's checker:
            //   cd /work/shared/bench && python3 -c "import bruteforce_check as b; \
            //     tm = b.TMerc(b.LAT0, b.LON0, b.K0); print(tm.forward(lon, lat))"
            // (TMerc: Karney 2011's 6th-order Krüger series, pure Python, no PROJ.)
            (-122.2, 37.75, 0.0, 0.0),
            (-122.4194155, 37.7749295, -19330.565801762525, 2789.6477798898704),
            (-121.9, 37.55, 26509.966202842017, -22155.6747954241),
            (-122.48, 37.98, -24599.790673548523, 25565.592702864204),
            (-122.0123456, 37.5012345, 16593.158239012264, -27593.792468950152),
        ])
    func benchProjectionAgrees(longitude: Double, latitude: Double, x: Double, y: Double) throws {
        let metric = try MetricFrame(.projString(benchProjection))
        let xy = metric.forward(XY(longitude: longitude, latitude: latitude))
        #expect(abs(xy.x - x) <= 1e-6, "x \(xy.x) vs \(x)")
        #expect(abs(xy.y - y) <= 1e-6, "y \(xy.y) vs \(y)")
    }

    @Test(
        "The automatic frame keeps the scale error within 1e-4 over data spanning 600 km north–south",
        arguments: [
            // 600 km north–south (5.4° of latitude) around San Francisco, 1° east–west.
            BoundingBox(minX: -122.7, minY: 35.0, maxX: -121.7, maxY: 40.4),
            // Crossing the equator, 2° east–west (222 km): near the east–west limit.
            BoundingBox(minX: 30.0, minY: -2.7, maxX: 32.0, maxY: 2.7),
            // High latitude, 600 km north–south and 5° (about 244 km at 64° N) east–west.
            BoundingBox(minX: 14.0, minY: 64.0, maxX: 19.0, maxY: 69.4),
            // A small box.
            benchBox,
        ])
    func automaticScale(box: BoundingBox) throws {
        let (definition, scaleError) = try MetricFrame.automaticDefinition(covering: box)
        #expect(scaleError <= MetricFrame.maximumAutomaticScaleError)
        let metric = try MetricFrame(definition)
        var worst = 0.0
        for p in Self.grid(box, 61) {
            let k = try #require(metric.scaleFactor(at: p))
            worst = max(worst, abs(k - 1))
        }
        #expect(worst <= 1e-4, "worst scale error \(worst) over the grid for \(definition)")
        // The grid agrees with the error the chooser reported.
        #expect(abs(worst - scaleError) < 1e-6)
    }

    @Test(
        "The automatic frame refuses 600 km east–west and names --crs",
        arguments: [
            BoundingBox(minX: 10.0, minY: 45.0, maxX: 17.6, maxY: 46.0),  // 600 km at 45° N
            BoundingBox(minX: -3.0, minY: -1.0, maxX: 2.4, maxY: 1.0),  // 600 km at the equator
        ])
    func automaticRefusal(box: BoundingBox) throws {
        let error = #expect(throws: MetricFrame.AutomaticFrameRefusal.self) {
            try MetricFrame.automaticDefinition(covering: box)
        }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.contains("--crs"), "\(text)")
        #expect((error?.scaleError ?? 0) > 1e-4)
        #expect(abs((error?.eastWestKilometers ?? 0) - 600) < 15, "\(text)")
    }

    @Test("The automatic frame refuses coordinates that are not longitude/latitude")
    func automaticOutOfRange() {
        #expect(throws: SpatialError.self) {
            try MetricFrame.automaticDefinition(covering: BoundingBox(minX: 500_000, minY: 4_000_000, maxX: 501_000, maxY: 4_001_000))
        }
        #expect(throws: SpatialError.self) {
            try MetricFrame.automaticDefinition(covering: BoundingBox(minX: .nan, minY: 0, maxX: 1, maxY: 1))
        }
    }

    @Test("The scale factor of UTM is 0.9996 on its central meridian")
    func utmScale() throws {
        let metric = try MetricFrame(.crs("EPSG:32633"))
        let k = try #require(metric.scaleFactor(at: XY(longitude: 15, latitude: 45)))
        #expect(abs(k - 0.9996) < 1e-9)
        let bench = try MetricFrame(.projString(benchProjection))
        #expect(abs(try #require(bench.scaleFactor(at: XY(longitude: -122.2, latitude: 37.75))) - 1) < 1e-9)
    }

    struct BadDefinition: CustomTestStringConvertible, Sendable {
        let text: String
        let mentions: [String]
        var testDescription: String { text.isEmpty ? "(empty)" : text }
    }

    @Test(
        "Unusable definitions throw a clear SpatialError",
        arguments: [
            BadDefinition(text: "+proj=foo", mentions: ["+proj=foo", "Unknown projection"]),
            BadDefinition(text: "+proj=tmerc +ellps=nonsense", mentions: ["nonsense"]),
            BadDefinition(text: "EPSG:999999", mentions: ["EPSG:999999", "not found"]),
            BadDefinition(text: "NOT_A_CRS", mentions: ["NOT_A_CRS"]),
            BadDefinition(text: "", mentions: ["PROJ"]),
            BadDefinition(text: "EPSG:4326", mentions: ["not a projected", "geographic"]),
            BadDefinition(text: "4326", mentions: ["EPSG:4326", "geographic"]),
            BadDefinition(text: "EPSG:4978", mentions: ["geocentric"]),
            BadDefinition(text: "+proj=longlat +datum=WGS84", mentions: ["not a map projection", "geographic"]),
            BadDefinition(text: "+proj=cart +ellps=WGS84", mentions: ["not a map projection"]),
            BadDefinition(text: "EPSG:2227", mentions: ["US survey foot", "metres"]),
            BadDefinition(text: "+proj=tmerc +lat_0=37 +lon_0=-122 +units=us-ft", mentions: ["US survey foot", "metres"]),
            BadDefinition(
                text: "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=tmerc", mentions: ["not a map projection"]),
        ])
    func badDefinitions(bad: BadDefinition) throws {
        let error = #expect(throws: SpatialError.self) { try MetricFrame(FrameDefinition(parsing: bad.text)) }
        for word in bad.mentions {
            #expect(error?.description.contains(word) == true, "\(String(describing: error)) should mention \(word)")
        }
    }

    @Test(
        "Other projected CRSs in metres are accepted, far from (0°, 0°) too",
        arguments: ["EPSG:32660", "EPSG:3857", "EPSG:3031", "+proj=utm +zone=33 +datum=WGS84 +type=crs"])
    func acceptedDefinitions(text: String) throws {
        let metric = try MetricFrame(FrameDefinition(parsing: text))
        #expect(metric.definition == FrameDefinition(parsing: text))
    }

    @Test("Parsing --crs values")
    func parsing() {
        #expect(FrameDefinition(parsing: " +proj=tmerc +k=1 ") == .projString("+proj=tmerc +k=1"))
        #expect(FrameDefinition(parsing: "32633") == .crs("EPSG:32633"))
        #expect(FrameDefinition(parsing: "epsg:3857") == .crs("epsg:3857"))
        let built = FrameDefinition.transverseMercator(latitudeOfOrigin: 37.75, centralMeridian: -122.2)
        #expect(built == .projString("+proj=tmerc +lat_0=37.75 +lon_0=-122.2 +k=1.0 +x_0=0 +y_0=0 +ellps=WGS84"))
    }

    @Test("Projecting a point PROJ cannot handle gives non-finite values singly and an error in a batch")
    func unprojectable() throws {
        let metric = try MetricFrame(.projString(benchProjection))
        // A latitude beyond the pole.
        let far = XY(longitude: -122.2, latitude: 95)
        let single = metric.forward(far)
        #expect(!single.x.isFinite || !single.y.isFinite)
        var batch = [XY(longitude: -122.2, latitude: 37.75), far]
        let error = #expect(throws: SpatialError.self) { try metric.forward(&batch) }
        #expect(error?.function == "proj_trans_generic")
    }
}

@Suite("Geodesics")
struct GeodesicTests {
    /// Cases 1–3 of the `testcases` table in GeographicLib's geodtest.c (C. Karney, MIT
    /// licence; the same file is PROJ's test/unit/geodtest.cpp): lat1, lon1, azi1, lat2, lon2,
    /// azi2, s12 (metres). That suite checks s12 to 1e-8 m and the azimuths to 1e-13°.
    static let karneyCases: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (35.60777, -139.44815, 111.098748429560326, -11.17491, -69.95921, 129.289270889708762, 8935244.5604818305),
        (55.52454, 106.05087, 22.020059880982801, 77.03196, 197.18234, 109.112041110671519, 4105086.1713924406),
        (-21.97856, 142.59065, -32.44456876433189, 41.84138, 98.56635, -41.84359951440466, 8394328.894657671),
    ]

    @Test("Inverse matches GeographicLib's published test cases", arguments: karneyCases)
    func inverse(c: (Double, Double, Double, Double, Double, Double, Double)) {
        let r = Geodesic.wgs84.inverse(latitude1: c.0, longitude1: c.1, latitude2: c.3, longitude2: c.4)
        #expect(abs(r.distanceMeters - c.6) < 1e-6)
        #expect(abs(r.initialAzimuth - c.2) < 1e-11)
        #expect(abs(r.finalAzimuth - c.5) < 1e-11)
    }

    @Test("Wellington to Salamanca is 19959679.267 m (GeographicLib documentation example)")
    func wellingtonSalamanca() {
        // The documentation of every GeographicLib port prints "The distance is 19959679.267 m."
        // for Inverse(-41.32, 174.81, 40.96, -5.50); pygeodesy's tests give more digits:
        // 19959679.267353821546 m.
        let s = Geodesic.wgs84.distance(latitude1: -41.32, longitude1: 174.81, latitude2: 40.96, longitude2: -5.50)
        #expect(abs(s - 19959679.267353821546) < 1e-3)
    }

    /// `distance` asks PROJ for the distance alone: the same bits as the inverse's distance, for
    /// fixes a second apart and for points across the globe (antipodes and poles included).
    @Test func distanceIsTheInversesDistanceBitForBit() {
        var random = SplitMix64(seed: 2611)
        var pairs: [(Double, Double, Double, Double)] = [
            (0, 0, 0, 180), (90, 0, -90, 0), (0, 0, 0.5, 179.7), (37.75, -122.2, 37.75, -122.2),
        ]
        for _ in 0..<20_000 {
            let lat = (random.nextUnitDouble() - 0.5) * 180
            let lon = (random.nextUnitDouble() - 0.5) * 360
            if random.next() % 2 == 0 {
                // A fix a second or so later, a few metres to tens of metres away.
                pairs.append((lat, lon, lat + (random.nextUnitDouble() - 0.5) * 5e-4, lon + (random.nextUnitDouble() - 0.5) * 5e-4))
            } else {
                pairs.append((lat, lon, (random.nextUnitDouble() - 0.5) * 180, (random.nextUnitDouble() - 0.5) * 360))
            }
        }
        for (lat1, lon1, lat2, lon2) in pairs {
            let alone = Geodesic.wgs84.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let inverse = Geodesic.wgs84.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            #expect(alone.bitPattern == inverse.distanceMeters.bitPattern, "\(lat1) \(lon1) → \(lat2) \(lon2)")
            if alone.bitPattern != inverse.distanceMeters.bitPattern { return }
        }
    }

    @Test("Direct: 20000 km south-west of Perth (GeographicLib documentation example)")
    func perth() {
        // Direct(-32.06, 115.74, 225, 20000e3) prints "The position is (32.11195529, -63.95925278)."
        let r = Geodesic.wgs84.direct(latitude: -32.06, longitude: 115.74, azimuth: 225, distanceMeters: 20_000e3)
        #expect(abs(r.latitude - 32.11195529) < 5e-9)
        #expect(abs(r.longitude - -63.95925278) < 5e-9)
    }

    @Test("Direct then inverse returns the distance", arguments: [1.0, 250.0, 12_345.678, 1_000_000.0])
    func directInverse(distance: Double) {
        let end = Geodesic.wgs84.direct(latitude: 37.75, longitude: -122.2, azimuth: 33, distanceMeters: distance)
        let r = Geodesic.wgs84.inverse(latitude1: 37.75, longitude1: -122.2, latitude2: end.latitude, longitude2: end.longitude)
        #expect(abs(r.distanceMeters - distance) < 1e-8)
        // The end point is rounded to a double (about 1 nm), which limits the azimuth at 1 m.
        #expect(abs(r.initialAzimuth - 33) < 1e-7)
    }
}

/// The scale error of a chosen frame over data, by the automatic frame's measure (issue 21).
@Suite struct FrameScaleErrorTests {
    static let zurich = BoundingBox(minX: 8.4, minY: 47.3, maxX: 8.6, maxY: 47.45)

    @Test func mercatorIsFarFromTrueScaleInZurich() throws {
        let (error, failedAt) = try MetricFrame(FrameDefinition(parsing: "+proj=merc")).scaleError(over: Self.zurich)
        #expect(failedAt == nil)
        // Mercator's scale is sec(latitude) on the sphere (1.479 at 47.45°), a little less on the
        // ellipsoid: √(1 − e² sin² φ) / cos φ.
        #expect(abs((error ?? 0) - 0.4761) < 0.001, "\(String(describing: error))")
    }

    @Test func theAutomaticFrameIsWithinItsBound() throws {
        let (definition, bound) = try MetricFrame.automaticDefinition(covering: Self.zurich)
        let (error, _) = try MetricFrame(definition).scaleError(over: Self.zurich)
        #expect((error ?? 1) <= MetricFrame.maximumAutomaticScaleError)
        #expect(abs((error ?? 1) - bound) < 1e-6)
    }
}
