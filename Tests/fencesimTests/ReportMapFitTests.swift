import Foundation
import Testing

/// Issue 23: the report's map opens on the fences and visits, not on the whole track.
@Suite(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (trackintel GeoLife); skipped when absent"))
struct ReportMapFitTests {
    /// A GeoLife drive of some 700 km (Lanzhou westwards) with three fences where it starts
    /// (a "campus"): the map opens a few hundred metres wide on the fences, and "all" spans the
    /// drive.
    @Test func longDriveOpensOnTheCampus() throws {
        let data = try #require(CLI.sharedData)
        let trace = data.appendingPathComponent("trackintel/tests/data/geolife_modes/010/Trajectory/20080330004134.plt")
        let dir = try CLI.temporaryDirectory()
        let fences = dir.appendingPathComponent("campus.geojson")
        let centres = [(103.851273, 36.031563), (103.853238, 36.028623), (103.8545, 36.0300)]
        let features = centres.enumerated().map { k, c in
            "{\"type\":\"Feature\",\"properties\":{\"id\":\"hall-\(k)\",\"radius\":40},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(c.0),\(c.1)]}}"
        }
        try "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}".write(
            to: fences, atomically: true, encoding: .utf8)
        let html = dir.appendingPathComponent("r.html")
        let r = try CLI.run(["report", trace.path, "--fences", fences.path, "--html", html.path, "--quiet", "--workers", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOf: html, encoding: .utf8)
        func attribute(_ name: String) throws -> [Double] {
            let start = try #require(page.range(of: "\(name)=\""))
            let end = try #require(page.range(of: "\"", range: start.upperBound..<page.endIndex))
            return page[start.upperBound..<end.lowerBound].split(separator: " ").compactMap { Double($0) }
        }
        let projection = try attribute("data-proj")
        let scale = projection[4]  // pixels per metre
        let all = try attribute("data-all")
        #expect(try attribute("data-fit") == [0, 0, 960, 600])
        let openMeters = 960 / scale
        let allMeters = (all[2] - all[0]) / scale
        #expect(openMeters < 2000, "opens \(openMeters) m wide")
        #expect(allMeters > 300_000, "the drive spans \(allMeters) m")
        // Every fence is inside the view the page opens on.
        var boxes = 0
        var rest = page[...]
        while let b = rest.range(of: "data-box=\"") {
            let end = try #require(rest.range(of: "\"", range: b.upperBound..<rest.endIndex))
            let v = rest[b.upperBound..<end.lowerBound].split(separator: " ").compactMap { Double($0) }
            #expect(v[0] >= 0 && v[1] >= 0 && v[2] <= 960 && v[3] <= 600, "\(v)")
            boxes += 1
            rest = rest[end.upperBound...]
        }
        #expect(boxes == 3)
    }
}
