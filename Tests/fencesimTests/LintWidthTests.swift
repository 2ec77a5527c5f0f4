import Foundation
import Testing

/// `lint` measures a fence as it is crossed (issue 22): a ring around a hole and the arm of a U
/// are as narrow as their walls, said with where the wall is, and the buffer lint names closes
/// the gap for a replay crossing the wall.
@Suite struct LintWidthTests {
    /// Metres east and north of 8.5° E, 47.39° N as longitude and latitude.
    static func lonLat(_ x: Double, _ y: Double) -> String {
        let lon = 8.5 + x / (111_320 * cos(47.39 * Double.pi / 180))
        let lat = 47.39 + y / 111_132
        return "[\(lon),\(lat)]"
    }

    static func ring(_ points: [(Double, Double)]) -> String {
        "[" + (points + [points[0]]).map { lonLat($0.0, $0.1) }.joined(separator: ",") + "]"
    }

    /// A 400 m square with a 390 m hole (a 5 m wall), a U with 10 m arms, and a plain 400 m
    /// square, side by side.
    static let fences = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"ring"},"geometry":{"type":"Polygon","coordinates":[\(ring([(0, 0), (400, 0), (400, 400), (0, 400)])),\(ring([(5, 5), (5, 395), (395, 395), (395, 5)]))]}},
        {"type":"Feature","properties":{"id":"u"},"geometry":{"type":"Polygon","coordinates":[\(ring([(1000, 0), (1100, 0), (1100, 200), (1090, 200), (1090, 10), (1010, 10), (1010, 200), (1000, 200)]))]}},
        {"type":"Feature","properties":{"id":"square"},"geometry":{"type":"Polygon","coordinates":[\(ring([(2000, 0), (2400, 0), (2400, 400), (2000, 400)]))]}}
        ]}
        """

    @Test func holesAndInwardBendsCount() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.fences.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "f.geojson", "--speed", "20", "--interval", "1"], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(r.stdout)")
        // The ring's wall is 5 m, at its middle on the west side (x = 2.5 m).
        #expect(lines.first?.contains("fence \"ring\" is 5.00") == true, "\(r.stdout)")
        #expect(lines.first?.contains("a wall between two parts of its boundary") == true)
        // Where: a point in the middle of one of its four 5 m walls.
        let first = lines.first ?? ""
        let at = try #require(first.range(of: "inward bend) at ").map { first[$0.upperBound...].split(separator: ",").prefix(2) })
        let lon = try #require(Double(at.first?.trimmingCharacters(in: .whitespaces) ?? ""))
        let lat = try #require(Double(at.last?.trimmingCharacters(in: .whitespaces) ?? ""))
        let x = (lon - 8.5) * 111_320 * cos(47.39 * Double.pi / 180)
        let y = (lat - 47.39) * 111_132
        #expect(abs(min(x, y, 400 - x, 400 - y) - 2.5) < 0.05, "\(first)")
        #expect(lines.last?.contains("fence \"u\" is 10.00") == true, "\(r.stdout)")
        #expect(!r.stdout.contains("\"square\""))
    }

    /// The buffer lint names for the ring closes the gap: crossing its west wall east at 20 m/s
    /// with a fix every second, from every phase, a replay with that buffer enters it every
    /// time; without it some crossings fall wholly between two fixes.
    @Test func theBufferLintNamesClosesTheGap() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.fences.write(to: dir.appendingPathComponent("f.geojson"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "f.geojson", "--speed", "20", "--interval", "1"], in: dir)
        let line = try #require(r.stdout.split(separator: "\n").first.map(String.init))
        let buffer = try #require(line.range(of: "a buffer of ").map { String(line[$0.upperBound...].prefix { $0 != " " }) })
        // Five crossings, each in a trace of its own, starting 0, 4, 8, 12 and 16 m further west.
        var traces: [String] = []
        for (k, phase) in [0.0, 4, 8, 12, 16].enumerated() {
            var csv = "time,lat,lon\n"
            for s in 0..<8 {
                let x = -60 - phase + 20 * Double(s)
                let lon = 8.5 + x / (111_320 * cos(47.39 * Double.pi / 180))
                let lat = 47.39 + 200 / 111_132
                csv += "2026-01-01T00:00:0\(s)Z,\(lat),\(lon)\n"
            }
            try csv.write(to: dir.appendingPathComponent("t\(k).csv"), atomically: true, encoding: .utf8)
            traces.append("t\(k).csv")
        }
        func enters(_ extra: [String]) throws -> Int {
            let out = try CLI.run(
                ["replay"] + traces + ["--fences", "f.geojson", "--feed", "point", "--gap-policy", "ignore", "--format", "csv"] + extra,
                in: dir)
            #expect(out.status == 0, "\(out.stderr)")
            return out.stdout.split(separator: "\n").filter { $0.contains(",enter,") && $0.contains(",ring,") }.count
        }
        #expect(try enters([]) < 5)
        #expect(try enters(["--buffer", buffer]) == 5, "buffer \(buffer)")
    }

    /// A 200 m ring around the Shenzhen taxi fixes of transbigdata (outer radius 300 m, hole
    /// 100 m, as 64-gons): 200 m wide, where the hull says 600 m.
    @Test(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (transbigdata); skipped when absent"))
    func theTaxiDonutIsAsWideAsItsRing() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = try String(
            contentsOf: try #require(CLI.sharedData).appendingPathComponent("transbigdata/src/transbigdata/tests/data/traj2.csv"),
            encoding: .utf8)
        // The mean of the fixes' longitudes and latitudes (the columns named lon and lat).
        let rows = csv.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        let header = try #require(rows.first)
        let lonColumn = try #require(header.firstIndex { $0.lowercased().hasPrefix("lon") || $0.lowercased() == "lng" })
        let latColumn = try #require(header.firstIndex { $0.lowercased().hasPrefix("lat") })
        let fixes = rows.dropFirst().compactMap { r -> (Double, Double)? in
            guard r.count > max(lonColumn, latColumn), let lon = Double(r[lonColumn]), let lat = Double(r[latColumn]) else { return nil }
            return (lon, lat)
        }
        #expect(!fixes.isEmpty)
        let lon0 = fixes.map(\.0).reduce(0, +) / Double(fixes.count)
        let lat0 = fixes.map(\.1).reduce(0, +) / Double(fixes.count)
        func circle(_ r: Double, clockwise: Bool) -> String {
            let points = (0...64).map { k -> String in
                let a = 2 * Double.pi * Double(clockwise ? 64 - k : k) / 64
                return "[\(lon0 + r * cos(a) / (111_320 * cos(lat0 * Double.pi / 180))),\(lat0 + r * sin(a) / 110_574)]"
            }
            return "[" + points.joined(separator: ",") + "]"
        }
        let donut = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"donut"},"geometry":{"type":"Polygon","coordinates":[\(circle(300, clockwise: false)),\(circle(100, clockwise: true))]}}]}
            """
        try donut.write(to: dir.appendingPathComponent("donut.geojson"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", "donut.geojson", "--speed", "30", "--interval", "10"], in: dir)
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("fence \"donut\" is 199.") || r.stdout.contains("fence \"donut\" is 200."), "\(r.stdout)")
        #expect(r.stdout.contains("a wall between two parts of its boundary"))
    }
}
