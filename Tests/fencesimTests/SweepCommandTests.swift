import Foundation
import FoundationXML
import Testing

/// `fencesim sweep` through the built binary (SPEC §6.4).
@Suite struct SweepCommandTests {
    static let metresPerDegree = 6_378_137 * Double.pi / 180
    /// Offsets of the fences past the fix before them (see SimulationTests/SweepTests.swift).
    static let phases = [14.5, 0.5, 3.5, 6.5, 9.5, 12.5, 26.5, 28.5, 2.5, 11.5]

    /// A drive east along the equator at 30 m/s with a fix every second, ten 8 m wide rectangles
    /// across the road, and a scenario `row.yaml` replaying `traces` copies of the drive.
    static func folder(traces: Int = 1, extra: String = "") throws -> URL {
        let dir = try CLI.temporaryDirectory()
        var csv = "time,lat,lon,accuracy\n"
        for k in 0...111 {
            csv += String(format: "2026-01-01T00:%02d:%02d.000Z,0.0,%.10f,5\n", k / 60, k % 60, Double(30 * k) / metresPerDegree)
        }
        let half = 20 / 110_574.0
        let features = phases.enumerated().map { k, phase in
            let x = 300 * Double(k + 1) + phase
            let (w, e) = ((x - 4) / metresPerDegree, (x + 4) / metresPerDegree)
            let ring = [(w, -half), (e, -half), (e, half), (w, half), (w, -half)].map { String(format: "[%.10f,%.10f]", $0.0, $0.1) }
            return
                "{\"type\":\"Feature\",\"properties\":{\"id\":\"f\(k)\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[\(ring.joined(separator: ","))]]}}"
        }
        var names: [String] = []
        for t in 0..<traces {
            names.append("drive\(t).csv")
            try csv.write(to: dir.appendingPathComponent(names[t]), atomically: true, encoding: .utf8)
        }
        try ("{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n")
            .write(to: dir.appendingPathComponent("fences.geojson"), atomically: true, encoding: .utf8)
        try "name: narrow-row\ntraces: [\(names.joined(separator: ", "))]\nfences: fences.geojson\ntruth: trace\n\(extra)"
            .write(to: dir.appendingPathComponent("row.yaml"), atomically: true, encoding: .utf8)
        return dir
    }

    static let buffers = "buffer=" + (0...14).map(String.init).joined(separator: ",")

    /// Lint sizes the fences for the drive's own motion (30 m/s, 1 s): it accepts them from a
    /// buffer of 11 m, and the sweep finds recall reaching 1 at that buffer.
    @Test func sweepAndLintAgreeThroughTheCommandLine() throws {
        let dir = try Self.folder()
        let flagged = try CLI.run(["lint", "fences.geojson", "--traces", "drive0.csv", "--buffer", "10"], in: dir)
        #expect(flagged.status == 1 && flagged.stdout.components(separatedBy: "[narrow]").count - 1 == 10, "\(flagged.stdout)")
        let clean = try CLI.run(["lint", "fences.geojson", "--traces", "drive0.csv", "--buffer", "11"], in: dir)
        #expect(clean.status == 0 && !clean.stdout.contains("[narrow]"), "\(clean.stdout)")

        let r = try CLI.run(["sweep", "row.yaml", "--vary", Self.buffers, "--target", "recall==1", "--json", "grid.json"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("\nsmallest setting meeting the target recall==1: #12 buffer=11\n"), "\(r.stdout)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("grid.json"))) as? [String: Any])
        let rows = try #require(json["combinations"] as? [[String: Any]])
        let recall = rows.map { (($0["overall"] as? [String: Any])?["recall"] as? NSNumber)?.doubleValue ?? -1 }
        #expect(recall == [0.5, 0.5, 0.5, 0.6, 0.6, 0.6, 0.7, 0.7, 0.8, 0.9, 0.9, 1, 1, 1, 1])
    }

    /// The grid has one line per combination: the values, then recall, precision, F1, enter and
    /// exit latency p50, false exits per hour, truth visits and misses.
    /// `--plot` and `--json` are written both or neither (issue 21).
    @Test func bothFilesOrNeither() throws {
        let dir = try Self.folder()
        let plot = dir.appendingPathComponent("grid.svg")
        try "GOOD OLD PLOT".write(to: plot, atomically: true, encoding: .utf8)
        let r = try CLI.run(
            [
                "sweep", "row.yaml", "--vary", "buffer=0,5", "--plot", plot.path,
                "--json", dir.appendingPathComponent("missing/grid.json").path, "--quiet",
            ], in: dir)
        #expect(r.status == 74, "\(r.stderr)")
        #expect(try String(contentsOf: plot, encoding: .utf8) == "GOOD OLD PLOT")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func theGridAndItsColumns() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0,11", "--vary", "enterAfter=0,2fixes"], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(
            lines.contains([
                "#", "buffer", "enterAfter", "recall", "precision", "f1", "enter", "p50", "exit", "p50", "falseExits/h", "visits", "missed",
            ]))
        #expect(lines.contains { $0.prefix(3) == ["1", "0", "0"] && $0[3] == "0.500" && $0.suffix(2) == ["10", "5"] }, "\(r.stdout)")
        #expect(
            lines.contains {
                $0.prefix(3) == ["3", "11", "0"] && $0[3...5] == ["1.000", "1.000", "1.000"] && $0.suffix(2) == ["10", "0"]
            }, "\(r.stdout)")
        #expect(lines.contains { $0.prefix(4) == ["4", "11", "2", "fixes"] }, "\(r.stdout)")
        #expect(!r.stdout.contains("smallest setting"))
    }

    /// The sweep scores as `report` does: its one combination equal to the scenario as written
    /// has the report's overall numbers.
    @Test func aSweepRowEqualsTheReport() throws {
        let dir = try Self.folder(extra: "degrade: {noise: 1, dropout: 0.1, seed: 5}\n")
        #expect(try CLI.run(["report", "row.yaml", "--json", "report.json", "--quiet"], in: dir).status == 0)
        #expect(try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0", "--json", "sweep.json", "--quiet"], in: dir).status == 0)
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("report.json"))) as? [String: Any])
        let sweep = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("sweep.json"))) as? [String: Any])
        let row = try #require((sweep["combinations"] as? [[String: Any]])?.first)
        #expect(
            NSDictionary(dictionary: try #require(row["overall"] as? [String: Any]))
                == NSDictionary(dictionary: try #require(report["overall"] as? [String: Any])))
        #expect(
            NSDictionary(dictionary: try #require(sweep["degrade"] as? [String: Any]))
                == NSDictionary(dictionary: try #require(report["degrade"] as? [String: Any])))
    }

    @Test func noSettingMeetingTheTargetExits1AndStillWritesTheFiles() throws {
        let dir = try Self.folder()
        let r = try CLI.run(
            [
                "sweep", "row.yaml", "--vary", "buffer=0,5", "--target", "recall>=0.95,precision>=0.9", "--plot", "p.svg", "--json",
                "g.json",
            ], in: dir)
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("\nno setting meets the target recall>=0.95,precision>=0.9\n"), "\(r.stdout)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("p.svg").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("g.json").path))
        let quiet = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0,5", "--target", "recall>=0.95", "--quiet"], in: dir)
        #expect(quiet.status == 1 && quiet.stdout == "no setting meets the target recall>=0.95\n", "\(quiet.stdout)")
    }

    @Test func anUnknownParameterIsALocatedError65() throws {
        let dir = try Self.folder()
        let r = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0,10", "--vary", "bufferr=1,2"], in: dir)
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("--vary:2:1: error: unknown parameter \"bufferr\" (parameters: buffer, radiusScale,"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        let value = try CLI.run(["sweep", "row.yaml", "--vary", "relationship=intersects,inside"], in: dir)
        #expect(value.status == 65 && value.stderr.hasPrefix("--vary:1:25: error: relationship must be one of"), "\(value.stderr)")
        let metric = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0", "--target", "recall>=0.9,lag<=2"], in: dir)
        #expect(metric.status == 65 && metric.stderr.hasPrefix("--target:1:13: error: unknown metric \"lag\""), "\(metric.stderr)")
    }

    @Test func flagsNotShapedLikeTheSyntaxAreUsageErrors64() throws {
        let dir = try Self.folder()
        let noEquals = try CLI.run(["sweep", "row.yaml", "--vary", "buffer"], in: dir)
        #expect(noEquals.status == 64 && noEquals.stderr.hasPrefix("--vary:1:1: error: expected NAME=V1,V2,..."), "\(noEquals.stderr)")
        let twice = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0", "--vary", "buffer=1"], in: dir)
        #expect(twice.status == 64 && twice.stderr.hasPrefix("--vary:2:1: error: buffer is already varied"), "\(twice.stderr)")
        let comparison = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0", "--target", "recall=1"], in: dir)
        #expect(
            comparison.status == 64 && comparison.stderr.hasPrefix("--target:1:7: error: unknown comparison \"=\""), "\(comparison.stderr)")
        #expect(try CLI.run(["sweep", "row.yaml"], in: dir).status == 64)
        #expect(try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0", "--workers", "-1"], in: dir).status == 64)
        #expect(try CLI.run(["sweep", "nope.yaml", "--vary", "buffer=0"], in: dir).status == 66)
    }

    /// Several traces on one or two workers: the same bytes on standard output and in the files.
    @Test func theOutputDoesNotDependOnTheWorkers() throws {
        let dir = try Self.folder(traces: 3, extra: "degrade: {noise: 0.5, dropout: 0.05, exitLoss: 0.2, seed: 9}\n")
        var outputs: [[Data]] = []
        for workers in ["1", "2"] {
            let r = try CLI.run(
                [
                    "sweep", "row.yaml", "--vary", "buffer=0,6,11", "--vary", "noise=0,1", "--vary", "seed=1,2", "--target", "recall>=0.9",
                    "--workers", workers, "--plot", "p\(workers).svg", "--json", "g\(workers).json",
                ], in: dir)
            #expect(r.status == 0 || r.status == 1, "\(r.stderr)")
            outputs.append([
                Data(r.stdout.utf8), try Data(contentsOf: dir.appendingPathComponent("p\(workers).svg")),
                try Data(contentsOf: dir.appendingPathComponent("g\(workers).json")),
            ])
        }
        #expect(outputs[0] == outputs[1])
        #expect(String(decoding: outputs[0][0], as: UTF8.self).contains("traces 3 · combinations 12 (buffer 3 × noise 2 × seed 2)"))
        // The plot is well-formed XML in the SVG namespace with no external reference.
        let parser = XMLParser(data: outputs[0][1])
        let collector = XMLCollector()
        parser.delegate = collector
        #expect(parser.parse())
        #expect(collector.elements.first?.name == "svg" && collector.elements.first?.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        #expect(!collector.elements.contains { $0.attributes.keys.contains { $0.contains("href") } })
        #expect(collector.elements.filter { $0.name == "circle" && ($0.attributes["class"] ?? "").hasPrefix("point") }.count == 3 * 12)
    }

    @Test func aFailingSweepLeavesAnExistingPlotUntouched() throws {
        let dir = try Self.folder()
        let plot = dir.appendingPathComponent("plot.svg")
        try "<svg>previous</svg>".write(to: plot, atomically: true, encoding: .utf8)
        for arguments in [["--vary", "bufer=0,11"], ["--vary", "buffer=0,11", "--target", "recall>>1"], ["--vary", "buffer=0,x"]] {
            let r = try CLI.run(["sweep", "row.yaml", "--plot", "plot.svg", "--json", "grid.json"] + arguments, in: dir)
            #expect(r.status == 64 || r.status == 65, "\(r.stderr)")
            #expect(try String(contentsOf: plot, encoding: .utf8) == "<svg>previous</svg>")
            #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("grid.json").path))
        }
        // A scenario whose fences are missing fails before anything is replayed or written.
        try "name: broken\ntraces: [drive0.csv]\nfences: gone.geojson\n".write(
            to: dir.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        let missing = try CLI.run(["sweep", "broken.yaml", "--vary", "buffer=0,11", "--plot", "plot.svg"], in: dir)
        #expect(missing.status == 66, "\(missing.stderr)")
        #expect(try String(contentsOf: plot, encoding: .utf8) == "<svg>previous</svg>")
        // A sweep that completes replaces it whole, with no temporary file left behind.
        let ok = try CLI.run(["sweep", "row.yaml", "--vary", "buffer=0,11", "--plot", "plot.svg", "--quiet"], in: dir)
        #expect(ok.status == 0 && ok.stderr.contains("wrote plot.svg"), "\(ok.stderr)")
        #expect(try String(contentsOf: plot, encoding: .utf8).hasPrefix("<svg xmlns="))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    @Test func helpNamesTheExitCodesAndTheSyntax() throws {
        let r = try CLI.run(["sweep", "--help"])
        let text = r.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Exit codes: 0 done"))
        #expect(text.contains("1 no setting meets the target"))
        #expect(text.contains("--vary:N:COL"))
    }
}
