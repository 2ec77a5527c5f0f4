import Fences
import Files
import Foundation
import Geotriggers
import Spatial
import Support
import Testing
import Traces

@testable import Accuracy
@testable import EventPipeline
@testable import Reports
@testable import Scenarios

/// The accuracy report (SPEC §6.3): the recall-by-speed plot on a synthetic drive, agreement of
/// the three renderings, and the HTML page in a real browser.
@Suite struct ReportTests {
    static let t0 = Timestamp(seconds: 1_767_225_600)

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Ten circle fences of radius 6 m (12 m across) every 200 m along a straight road east, and
    /// two drives along it with a fix every second: one at 5 m/s (a fix every 5 m: every fence is
    /// seen) and one at 30 m/s (a fix every 30 m: most fences fall between two fixes).
    static func drives(in folder: URL? = nil) throws -> (fences: FenceSet, traces: [TraceInput], frame: FrameDefinition) {
        let dir = try folder ?? temporaryDirectory()
        let start = XY(longitude: 8.5, latitude: 47.39)
        let geodesic = Geodesic.wgs84
        var fences: [Fence] = []
        var features: [String] = []
        for k in 0..<10 {
            let p = geodesic.direct(
                latitude: start.latitude, longitude: start.longitude, azimuth: 90, distanceMeters: 100 + Double(k) * 200 + Double(k) * 3.7)
            fences.append(
                Fence(
                    index: k, id: "f\(k)", kind: .circle(radiusMeters: 6), shape: .point(XY(longitude: p.longitude, latitude: p.latitude)),
                    zone: "row", location: SourceLocation(file: "row.geojson", line: k + 1)))
            features.append(
                "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\",\"radius\":6,\"zone\":\"row\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.longitude),\(p.latitude)]}}"
            )
        }
        let end = geodesic.direct(latitude: start.latitude, longitude: start.longitude, azimuth: 90, distanceMeters: 2200)
        let route = [start, XY(longitude: end.longitude, latitude: end.latitude)]
        var traces: [TraceInput] = []
        for speed in [5.0, 30.0] {
            let fixes = RouteSynthesizer(speed: speed, interval: 1, start: t0).fixes(along: route)
            let url = dir.appendingPathComponent("drive-\(Int(speed)).csv")
            try TraceWriter.render(fixes, format: .csv).write(to: url, atomically: true, encoding: .utf8)
            traces.append(TraceInput(path: url.path, label: "drive-\(Int(speed))"))
        }
        let fenceURL = dir.appendingPathComponent("row.geojson")
        try ("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}").write(
            to: fenceURL, atomically: true, encoding: .utf8)
        let set = FenceSet(file: fenceURL.path, fences: fences)
        return (set, traces, .transverseMercator(latitudeOfOrigin: 47.39, centralMeridian: 8.51))
    }

    static func report(
        degradation: Degradation? = nil, in folder: URL? = nil, keepsEvents: Bool = true,
        drawnEventsKept: Int? = nil
    ) throws -> AccuracyReport {
        let (fences, traces, frame) = try drives(in: folder)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        let evaluator = Evaluator(
            Evaluator.Configuration(
                replay: Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: 2), degradation: degradation,
                drawnEventsKept: drawnEventsKept ?? (keepsEvents ? .max : 0)))
        let evaluations = try evaluator.run(traces)
        #expect(evaluations.allSatisfy { $0.outcome.events.isEmpty == (drawnEventsKept == 0 || !keepsEvents) })
        return AccuracyReport(
            evaluations: evaluations, fences: fences, title: "row of narrow fences", generator: "fencesim test",
            truth: "clean trace", degradation: degradation)
    }

    @Test func recallBySpeedShowsTheMissesInTheirBand() throws {
        let report = try Self.report()
        let bands = Dictionary(uniqueKeysWithValues: report.summary.bySpeedBand.map { ($0.key, $0.metrics) })
        // 5 m/s rounds to the 5-15 band; 30 m/s to 30+.
        let walking = try #require(bands["5-15"])
        let fast = try #require(bands["30+"])
        #expect(walking.truthVisits == 10 && walking.detected == 10 && walking.missed == 0)
        #expect(fast.truthVisits == 10)
        #expect(fast.missed > 0 && fast.missed < 10)
        #expect(fast.missedInGap == fast.missed)  // each miss was reported as a passthrough
        #expect(bands["15-30"]?.truthVisits == 0 && bands["0-5"]?.truthVisits == 0)
        // The plot: one bar per band with the recall and the misses, the misses in 30+ only.
        let svg = SpeedRecallFigure.svg(report)
        #expect(svg.contains("data-band=\"30+\" data-recall=\"\(ReportNumber.ratio(fast.recall))\" data-missed=\"\(fast.missed)\""))
        #expect(svg.contains("data-band=\"5-15\" data-recall=\"1.000\" data-missed=\"0\""))
        #expect(!svg.contains("data-band=\"15-30\""))
    }

    @Test func theThreeRenderingsAgree() throws {
        let folder = try Self.temporaryDirectory()
        let report = try Self.report(degradation: Degradation(noise: 0.5, exitLoss: 0.3, seed: 3), in: folder)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ReportJSON.render(report).utf8)) as? [String: Any])
        let overall = try #require(json["overall"] as? [String: Any])
        let o = report.summary.overall
        #expect(overall["truthVisits"] as? Int == o.truthVisits)
        #expect((overall["recall"] as? NSNumber)?.doubleValue == ReportNumber.rounded(o.recall ?? -1, 3))
        let enter = try #require(overall["enterLatency"] as? [String: Any])
        #expect(ReportNumber.seconds((enter["p90"] as? NSNumber)?.doubleValue) == ReportNumber.seconds(o.enterLatency?.p90))
        // The table and the HTML print the same cells for every group.
        let table = ReportTable.render(report)
        let html = ReportHTML.render(report)
        for group in report.summary.byFence + report.summary.bySpeedBand + [AccuracySummary.Group(key: "all", metrics: o)] {
            let cells = ReportTable.row(group.key, group.metrics)
            let line = table.split(separator: "\n").first { $0.split(separator: " ").first.map(String.init) == group.key }
            #expect(line.map { $0.split(separator: " ").map(String.init) } == cells.map { $0 })
            for cell in cells.dropFirst() where cell != "-" {
                #expect(html.contains("<td data-v=\"\(cell)\">\(cell)</td>"))
            }
        }
        #expect((json["visits"] as? [Any])?.count == report.visits.count)
        #expect((json["byFence"] as? [[String: Any]])?.map { $0["key"] as? String ?? "" } == report.summary.byFence.map(\.key))
        // Deterministic: the same inputs give the same bytes.
        let again = try Self.report(degradation: Degradation(noise: 0.5, exitLoss: 0.3, seed: 3), in: folder)
        #expect(ReportJSON.render(again) == ReportJSON.render(report))
        #expect(ReportHTML.render(again) == html && ReportTable.render(again) == table)
    }

    /// The JSON written in pieces (the visits straight to bytes) is, byte for byte, the whole
    /// report as one value (``ReportJSONOracle``) pretty-printed at once, and reaches the sink a bounded
    /// piece at a time.
    @Test func streamedJSONEqualsTheWholeValue() throws {
        let report = try Self.report(degradation: Degradation(noise: 0.5, exitLoss: 0.3, seed: 3))
        // Visits with every optional member present and absent.
        #expect(report.visits.contains { $0.match == nil } && report.visits.contains { $0.match != nil })
        #expect(report.visits.contains { $0.missReason != nil } && report.visits.contains { $0.dwellError != nil })
        var whole = ByteBuffer()
        ReportJSON.write(ReportJSONOracle.value(report), indent: 0, to: &whole)
        whole.append(UInt8(ascii: "\n"))
        #expect(ReportJSON.bytes(report) == whole.bytes)

        /// Records the size of each write.
        final class Pieces: ByteSink {
            var sizes: [Int] = []
            var bytes: [UInt8] = []
            func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
                sizes.append(bytes.count)
                self.bytes.append(contentsOf: bytes)
            }
        }
        // Enough visits to need several pieces: the report's visits many times over.
        var long = report
        long.visits = Array(repeating: report.visits, count: 4000).flatMap { $0 }
        let pieces = Pieces()
        try ReportJSON.write(long, to: pieces)
        #expect(pieces.sizes.count > 3, "\(pieces.sizes)")
        #expect(pieces.sizes.allSatisfy { $0 < (1 << 20) + 4096 }, "\(pieces.sizes.max() ?? 0)")
        var longWhole = ByteBuffer()
        ReportJSON.write(ReportJSONOracle.value(long), indent: 0, to: &longWhole)
        longWhole.append(UInt8(ascii: "\n"))
        #expect(pieces.bytes == longWhole.bytes)
    }

    /// Scoring reads what it needs of each event as the replay releases it: a report that does
    /// not keep the log (no map to draw) has the same numbers, visits and JSON bytes.
    @Test func scoringDoesNotNeedTheLog() throws {
        let folder = try Self.temporaryDirectory()
        let degradation = Degradation(noise: 0.5, dropout: 0.1, exitLoss: 0.3, entryLoss: 0.2, seed: 5)
        let kept = try Self.report(degradation: degradation, in: folder, keepsEvents: true)
        let read = try Self.report(degradation: degradation, in: folder, keepsEvents: false)
        // Every kind of event scoring reads is there: passthroughs, lost entries and exits.
        let scores = kept.traces.compactMap(\.score)
        #expect(scores.map(\.passthroughs).reduce(0, +) > 0)
        #expect(scores.map(\.lostEnters).reduce(0, +) > 0 && scores.map(\.lostExits).reduce(0, +) > 0)
        #expect(ReportJSON.bytes(read) == ReportJSON.bytes(kept))
        // A map keeps a trace's events until it has as many to draw as it draws: the markers
        // of what is kept are those of the whole log, whatever the limit.
        let (fences, traces, frame) = try Self.drives(in: folder)
        let settings = try SettingsResolver.resolve(fences, global: GeotriggerOverrides())
        func evaluations(_ kept: Int) throws -> [TraceEvaluation] {
            try Evaluator(
                Evaluator.Configuration(
                    replay: Replayer.Configuration(fences: fences, frame: frame, settings: settings, workers: 2),
                    degradation: degradation, drawnEventsKept: kept)
            ).run(traces)
        }
        let whole = try evaluations(.max)
        #expect(whole.contains { $0.outcome.events.filter(\.isDrawn).count > 10 }, "the limits below should cut a log")
        for limit in [1, 3, 10] {
            let few = try evaluations(limit)
            for (a, b) in zip(whole, few) {
                #expect(b.outcome.events.count <= a.outcome.events.count)
                #expect(b.outcome.events.filter(\.isDrawn).count == min(limit, a.outcome.events.filter(\.isDrawn).count))
                #expect(
                    AccuracyReport.markers(events: b.outcome.events, score: b.score, limit: limit)
                        == AccuracyReport.markers(events: a.outcome.events, score: a.score, limit: limit))
            }
        }
    }

    /// A failing sink (a full disk) ends the JSON with its error.
    @Test func aFailingSinkStopsTheJSON() throws {
        let report = try Self.report()
        final class Full: ByteSink {
            func write(_ bytes: UnsafeRawBufferPointer) throws(FencesimError) {
                throw FencesimError(.io, "cannot write out.json: No space left on device", at: SourceLocation(file: "out.json"))
            }
        }
        #expect(throws: FencesimError.self) { try ReportJSON.write(report, to: Full()) }
    }

    /// Chromium from Debian (`make setup-browser`), when installed.
    static let chromium: String? = {
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let path = "\(dir)/\(name)"
                if FileManager.default.isExecutableFile(atPath: path) { return path }
            }
        }
        return nil
    }()

    static func runChromium(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(chromium))
        process.arguments = arguments
        // Files, not pipes: verbose logging fills a pipe long before the DOM arrives.
        let dir = try temporaryDirectory()
        let outURL = dir.appendingPathComponent("stdout")
        let errURL = dir.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (
            process.terminationStatus, try String(contentsOf: outURL, encoding: .utf8),
            String(decoding: try Data(contentsOf: errURL), as: UTF8.self)
        )
    }

    @Test(
        .enabled(
            if: ReportTests.chromium != nil,
            "chromium is not on PATH: run `make setup-browser` (Debian's chromium) to load the HTML report in a real browser"),
        .timeLimit(.minutes(3)))
    func htmlReportInARealBrowser() throws {
        let report = try Self.report(degradation: Degradation(resampleSeconds: 2, noise: 0.3, exitLoss: 0.2, seed: 8))
        let html = ReportHTML.render(report)
        // Self-contained: a CSP forbidding every request, and no element naming a URL.
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"))
        for attribute in ["src=", "href=", "url("] { #expect(!html.contains(attribute), "found \(attribute)") }
        #expect(!html.contains("http://") && !html.contains("https://"))
        let dir = try Self.temporaryDirectory()
        let page = dir.appendingPathComponent("report.html")
        try html.write(to: page, atomically: true, encoding: .utf8)
        let profile = dir.appendingPathComponent("profile").path
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=\(profile)", "--enable-logging=stderr", "--v=1",
            "--virtual-time-budget=3000",
        ]
        let dom = try Self.runChromium(common + ["--dump-dom", page.absoluteString])
        #expect(dom.status == 0, "\(dom.stderr.suffix(2000))")
        // The script ran (it marks the page ready) and every figure and table is in the DOM.
        #expect(dom.stdout.contains("data-ready=\"1\""))
        for id in [
            "id=\"map\"", "id=\"recall-by-speed\"", "id=\"latency-histogram\"", "class=\"figure timeline-svg\"", "id=\"table-fence\"",
            "id=\"table-speed\"", "id=\"table-trace\"", "id=\"table-visits\"", "class=\"legend\"", "class=\"scalebar\"",
        ] {
            #expect(dom.stdout.contains(id), "missing \(id)")
        }
        // No request left the page and nothing was logged as an error by the page: Chromium
        // logs console messages and CSP refusals ("Refused to ...") on standard error.
        let log = dom.stderr
        for line in log.split(separator: "\n") {
            #expect(!line.contains("Refused to"), "\(line)")
            #expect(!(line.contains(":CONSOLE") && !line.contains("\"data-ready\"")), "\(line)")
            // Chromium's own sign-in fetcher (google_apis/) fails to resolve names offline; that is
            // the browser, not the page.
            #expect(!line.contains("net::ERR_") || line.contains("google_apis/"), "\(line)")
            if line.contains("report.html") == false, let r = line.range(of: "http://") ?? line.range(of: "https://") {
                // Chromium's own start-up chatter names no page request; a request from the page would.
                #expect(!line[r.lowerBound...].hasPrefix("http://127.0.0.1"), "\(line)")
            }
        }
        let png = dir.appendingPathComponent("report.png")
        let shot = try Self.runChromium(
            common + ["--hide-scrollbars", "--window-size=1100,2600", "--screenshot=\(png.path)", page.absoluteString])
        #expect(shot.status == 0)
        let size = (try? FileManager.default.attributesOfItem(atPath: png.path)[.size] as? Int) ?? 0
        #expect(size > 20_000, "screenshot of \(size) bytes")
        let keep = ProcessInfo.processInfo.environment["FENCESIM_REPORT_SCREENSHOT"]
        if let keep { try? FileManager.default.copyItem(atPath: png.path, toPath: keep) }
    }
}
