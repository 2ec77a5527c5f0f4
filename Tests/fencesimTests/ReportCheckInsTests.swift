import Foundation
import Testing

/// Issue 23: scenario reports show check-ins per zone against the truth stays, and the Places
/// state over time.
@Suite struct ReportCheckInsTests {
    static func report(_ scenario: String) throws -> String {
        let dir = try CLI.temporaryDirectory()
        let html = dir.appendingPathComponent("r.html").path
        let r = try CLI.run(["report", "scenarios/\(scenario).yaml", "--html", html, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        return try String(contentsOfFile: html, encoding: .utf8)
    }

    @Test func checkInsPerZoneAgainstTruthStays() throws {
        let page = try Self.report("demo-checkins")
        let start = try #require(page.range(of: "<table class=\"sortable\" id=\"table-checkins\">"))
        let table = page[start.lowerBound...].prefix { _ in true }
        // The fuel stop: one stay, one check-in and its check-out, matched; the check-in 0.8 s
        // after the true entry, and 1.7 s more checked in than the stay lasted.
        #expect(
            table.contains(
                "<tr><td>fuel</td><td data-v=\"1\">1</td><td data-v=\"1\">1</td><td data-v=\"1\">1</td><td data-v=\"1\">1</td><td data-v=\"0\">0</td><td data-v=\"0\">0</td><td data-v=\"0.8\">0.8</td><td data-v=\"0.8\">0.8</td><td data-v=\"1.7\">1.7</td>"
            ))
        // A bridge (a line fence) checks in with no stay to match.
        #expect(table.contains("<tr><td>bridges</td><td data-v=\"0\">0</td><td data-v=\"1\">1</td>"))
        #expect(!page.contains("id=\"places\""))
    }

    @Test func placesTimelineWhenTheScenarioHasPlaces() throws {
        let page = try Self.report("places-seed001")
        #expect(page.contains("<section id=\"places\"><h2>Places</h2>"))
        #expect(page.contains("class=\"figure timeline-svg places-svg\""))
        for lane in ["Current POI", "Last Entered", "Last Exited"] { #expect(page.contains(">\(lane)</text>")) }
        #expect(page.contains("<title>Current POI: A-apart</title>"))
        #expect(!(try Self.report("demo-degraded")).contains("id=\"places\""))
    }
}
