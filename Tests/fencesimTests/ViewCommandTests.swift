import Foundation
import Testing

/// Issue 23: `fencesim view` writes a self-contained replay page, the same bytes each time.
@Suite struct ViewCommandTests {
    @Test func sameInputsSameBytesAndNothingLoaded() throws {
        let dir = try CLI.temporaryDirectory()
        let a = dir.appendingPathComponent("a.html"), b = dir.appendingPathComponent("b.html")
        for out in [a, b] {
            let r = try CLI.run(["view", "scenarios/demo-degraded.yaml", "--html", out.path])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let page = try Data(contentsOf: a)
        #expect(page == (try Data(contentsOf: b)))
        let text = String(decoding: page, as: UTF8.self)
        #expect(text.contains("<input type=\"range\" id=\"slider\""))
        #expect(text.contains("<script type=\"application/json\" id=\"replay-data\">"))
        #expect(text.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-"))
        #expect(!text.contains("img-src") && !text.contains("http://") && !text.contains("https://"))
        // The degraded scenario shows the true position too, and the event list has the log's
        // notifications.
        #expect(text.contains("id=\"device-truth\""))
        #expect(text.contains("data-type=\"enter\""))
    }

    @Test func basemapAllowsItsHostOnly() throws {
        let dir = try CLI.temporaryDirectory()
        let out = dir.appendingPathComponent("v.html")
        let r = try CLI.run([
            "view", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--html", out.path,
            "--basemap", "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("; img-src https://tile.openstreetmap.org\">"))
        #expect(text.contains("loads map tiles from https://tile.openstreetmap.org"))
        #expect(text.contains("© OpenStreetMap contributors · Basemap tiles from https://tile.openstreetmap.org"))
        #expect(!text.contains("id=\"device-truth\""))
    }

    @Test(arguments: [
        (["view", "traces/demo-drive.gpx", "--html", "/dev/null"], "--fences is required"),
        (["view", "scenarios/demo.yaml", "--html", "/dev/null", "--trace", "2"], "--trace 2: there are 1 traces"),
        (
            ["view", "scenarios/demo.yaml", "--html", "/dev/null", "--basemap", "tiles/{z}/{x}/{y}.png"],
            "--basemap needs an http(s) URL template"
        ),
        (
            ["report", "scenarios/demo.yaml", "--html", "/dev/null", "--basemap", "https://t.example/{z}/{y}.png"],
            "--basemap needs an http(s) URL template"
        ),
        (
            ["view", "scenarios/demo.yaml", "--html", "/dev/null", "--buffer", "10"],
            "geotrigger options apply to traces given on the command line"
        ),
        (["view", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--html", "/dev/null", "--feed", "disc"], "--feed"),
    ])
    func usageErrors(arguments: [String], message: String) throws {
        let r = try CLI.run(arguments)
        #expect(r.status == 64, "\(r.status) \(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// The geotrigger options of `report` shape the replay a view shows, for traces given on the
    /// command line (issue 23 left them out): with a 100 m buffer and enter notifications only,
    /// the demo drive's page lists six enters and no exit, where the defaults give exits too.
    @Test func geotriggerOptionsShapeTheReplay() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.html").path
        let shaped = dir.appendingPathComponent("shaped.html").path
        let base = ["view", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--html"]
        #expect(try CLI.run(base + [plain]).status == 0)
        let r = try CLI.run(base + [shaped, "--buffer", "100", "--notify", "enter"])
        #expect(r.status == 0, "\(r.stderr)")
        func count(_ type: String, _ path: String) throws -> Int {
            try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "data-type=\"\(type)\"").count - 1
        }
        #expect(try count("exit", plain) > 0)
        #expect(try count("exit", shaped) == 0)
        let enters = try count("enter", shaped)
        #expect(enters == 6, "\(enters) enters")
    }
}
