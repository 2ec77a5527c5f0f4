import Foundation
import Testing

/// A CSV holding several devices is one trace per device (`FILE#ID`), replayed, scored and
/// reported on its own, whether its rows are grouped by device or interleaved.
@Suite struct MultiDeviceCommandTests {
    /// Device a drives east through a 50 m circle at (8.0010, 47.0); device b stays far away.
    /// Their rows alternate, so read as one trace the times would repeat and go backwards.
    static func write(in folder: URL) throws -> (trace: String, fences: String) {
        var rows = ["device,lat,lon,time"]
        for k in 0..<30 {
            let t = String(format: "2026-01-01T00:%02d:%02dZ", k / 60, k % 60)
            rows.append("a,47.0,\(8.0 + Double(k) * 0.0001),\(t)")
            rows.append("b,48.0,\(9.0 + Double(k) * 0.0001),\(t)")
        }
        let trace = folder.appendingPathComponent("fleet.csv")
        try (rows.joined(separator: "\n") + "\n").write(to: trace, atomically: true, encoding: .utf8)
        let fences = folder.appendingPathComponent("fences.geojson")
        try """
        {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"stop","radius":50},"geometry":{"type":"Point","coordinates":[8.0015,47.0]}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        return (trace.path, fences.path)
    }

    @Test func eachDeviceIsATraceOfItsOwn() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (trace, fences) = try Self.write(in: folder)
        let result = try CLI.run(["replay", trace, "--fences", fences, "--format", "csv"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").dropFirst()
        #expect(lines.contains { $0.contains("\(trace)#a") && $0.contains("enter") }, "\(result.stdout)")
        #expect(lines.contains { $0.contains("\(trace)#a") && $0.contains("exit") }, "\(result.stdout)")
        #expect(!lines.contains { $0.contains("#b") && ($0.contains(",enter,") || $0.contains(",exit,")) }, "\(result.stdout)")
    }

    @Test func aReportScoresEachDevice() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (trace, fences) = try Self.write(in: folder)
        let json = folder.appendingPathComponent("r.json").path
        let result = try CLI.run(["report", trace, "--fences", fences, "--json", json, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: json, encoding: .utf8)
        #expect(text.contains("\"\(trace)#a\""), "\(text.prefix(400))")
        #expect(text.contains("\"\(trace)#b\""))
    }

    @Test func inspectDescribesEachDevice() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (trace, _) = try Self.write(in: folder)
        let result = try CLI.run(["inspect", trace])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\(trace)#a: trace (CSV ',')"), "\(result.stdout)")
        #expect(result.stdout.contains("\(trace)#b: trace (CSV ',')"), "\(result.stdout)")
        #expect(result.stdout.contains("one of 2 traces by column 'device'"), "\(result.stdout)")
        #expect(result.stdout.contains("points: 30 (30 with time)"), "\(result.stdout)")
    }

    @Test func theColumnCanBeNamed() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (trace, fences) = try Self.write(in: folder)
        let renamed = folder.appendingPathComponent("renamed.csv").path
        let text = try String(contentsOfFile: trace, encoding: .utf8).replacingOccurrences(of: "device,", with: "car,")
        try text.write(toFile: renamed, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["replay", renamed, "--fences", fences, "--summary"])
        #expect(refused.status == 65, "\(refused.stderr)")
        let named = try CLI.run(["replay", renamed, "--fences", fences, "--summary", "--columns", "trace=car"])
        #expect(named.status == 0, "\(named.stderr)")
        #expect(named.stdout.contains("enter=1 exit=1"), "\(named.stdout)")
    }

    @Test(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (movingpandas demodata_geolife.csv); skipped when absent"))
    func movingpandasGeoLifeReplaysWithoutLenient() throws {
        guard let data = CLI.sharedData else { return }
        let path = data.appendingPathComponent("movingpandas/tutorials/data/demodata_geolife.csv").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("skipped: \(path) is absent")
            return
        }
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("r.json").path
        let result = try CLI.run(["report", path, "--fences", "traces/demo-fences.geojson", "--json", json, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let text = (try? String(contentsOfFile: json, encoding: .utf8)) ?? ""
        for id in 1...5 {
            #expect(text.contains("\"\(path)#\(id)\""), "trace #\(id)")
        }
        let inspect = try CLI.run(["replay", path, "--fences", "traces/demo-fences.geojson", "--parse-only"])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(inspect.stdout.contains("fixes=5908"), "\(inspect.stdout)")
    }
}

extension MultiDeviceCommandTests {
    @Test(.enabled(if: CLI.sharedData != nil, "needs ../shared/data (scikit-mobility geolife_sample.txt.gz); skipped when absent"))
    func aGzipWithAUidColumnSplits() throws {
        guard let data = CLI.sharedData else { return }
        let path = data.appendingPathComponent("scikit-mobility/examples/geolife_sample.txt.gz").path
        guard FileManager.default.fileExists(atPath: path) else {
            Issue.record("skipped: \(path) is absent")
            return
        }
        let result = try CLI.run(["inspect", "--json", path])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(result.stdout.prefix(300))")
        #expect(lines.first?.contains("\"trace\":\"\(path)#001\"") == true, "\(result.stdout.prefix(300))")
        #expect(lines.last?.contains("\"trace\":\"\(path)#005\"") == true)
        #expect(lines.first?.contains("\"points\":108607") == true)
    }
}

/// `replay` takes folders, quoted globs and manifests, as `report` does.
@Suite struct ReplayInputsTests {
    @Test(arguments: [["traces"], ["traces/demo-drive.*"]])
    func foldersAndGlobs(_ inputs: [String]) throws {
        let result = try CLI.run(["replay"] + inputs + ["--fences", "traces/demo-fences.geojson", "--summary"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("mode=point"), "\(result.stdout)")
    }

    @Test func manifest() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("drives.list")
        try "# one drive\n\(CLI.packageRoot.path)/traces/demo-drive.gpx\n".write(to: list, atomically: true, encoding: .utf8)
        let viaList = try CLI.run(["replay", list.path, "--fences", "traces/demo-fences.geojson", "--summary"])
        let direct = try CLI.run(["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--summary"])
        #expect(viaList.status == 0, "\(viaList.stderr)")
        #expect(viaList.stdout == direct.stdout)
    }

    @Test func aGlobMatchingNothingIsMissing() throws {
        let result = try CLI.run(["replay", "traces/nothing-*.gpx", "--fences", "traces/demo-fences.geojson", "--summary"])
        #expect(result.status == 66, "\(result.stderr)")
    }
}
