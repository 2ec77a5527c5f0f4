import Foundation
import Testing

/// The command line as a newcomer meets it: usage lines, help, and errors that say what works.
@Suite struct UsageLineTests {
    static let fences = ["--fences", "traces/demo-fences.geojson"]

    /// Values refused while parsing and values refused once parsing is over both print the
    /// usage line of the command at hand.
    @Test(arguments: [
        (["replay", "x", "--fences", "f", "--feed", "disc"], "replay"),
        (["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--crs", "bogus"], "replay"),
        (["replay", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--columns", "lattitude"], "replay"),
        (["report", "traces/demo-drive.gpx", "--fences", "traces/demo-fences.geojson", "--crs", "bogus"], "report"),
        (["run", "scenarios/demo.yaml", "--columns", "x"], "run"),
        (["check", "scenarios/demo.yaml", "--columns", "x"], "check"),
        (["lint", "traces/demo-fences.geojson", "--crs", "bogus"], "lint"),
        (["inspect", "traces/demo-drive.gpx", "--columns", "x"], "inspect"),
        (["report", "traces/demo-drive.gpx"], "report"),
        (["run", "scenarios/demo.yaml", "--shard", "3/2"], "run"),
    ])
    func anOptionErrorPrintsTheSubcommandsUsage(_ arguments: [String], _ command: String) throws {
        let result = try CLI.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("Usage: fencesim \(command) "), "\(result.stderr)")
        #expect(!result.stderr.contains("fencesim <subcommand>"), "\(result.stderr)")
        #expect(result.stderr.contains("See 'fencesim \(command) --help'"), "\(result.stderr)")
    }
}

/// Fences too wide for an automatic frame: the error names what works for the command at hand.
@Suite struct WideFencesTests {
    static func write(in folder: URL) throws -> (fences: String, scenario: String) {
        let fences = folder.appendingPathComponent("wide.geojson")
        try """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"id":"west","radius":50},"geometry":{"type":"Point","coordinates":[2.0,47.0]}},
        {"type":"Feature","properties":{"id":"east","radius":50},"geometry":{"type":"Point","coordinates":[12.0,47.0]}}]}
        """.write(to: fences, atomically: true, encoding: .utf8)
        let scenario = folder.appendingPathComponent("wide.yaml")
        try "name: wide\ntraces: [\(CLI.packageRoot.path)/traces/demo-drive.gpx]\nfences: wide.geojson\n".write(
            to: scenario, atomically: true, encoding: .utf8)
        return (fences.path, scenario.path)
    }

    @Test func commandsWithoutCRSOptionNameTheScenarioKey() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, scenario) = try Self.write(in: folder)
        for command in [["run", scenario], ["check", scenario], ["sweep", scenario, "--vary", "buffer=0,1"]] {
            let result = try CLI.run(command)
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("no automatic metric frame fits the fences"), "\(result.stderr)")
            #expect(
                result.stderr.contains("crs: key") && result.stderr.contains("this command has no --crs"), "\(command): \(result.stderr)")
        }
    }

    @Test func replayAndReportNameTheirOption() throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (fences, scenario) = try Self.write(in: folder)
        let replay = try CLI.run(["replay", "traces/demo-drive.gpx", "--fences", fences, "--summary"])
        #expect(replay.status == 65, "\(replay.stderr)")
        #expect(replay.stderr.contains("pass --crs") && !replay.stderr.contains("crs: key"), "\(replay.stderr)")
        let report = try CLI.run(["report", scenario, "--quiet"])
        #expect(report.status == 65, "\(report.stderr)")
        #expect(report.stderr.contains("crs: key, or pass --crs"), "\(report.stderr)")
    }
}

/// The image of `deploy/Dockerfile` holds every file the bundled scenarios name.
@Suite struct DockerImageTests {
    @Test func everyFolderTheScenariosNameIsCopied() throws {
        let root = CLI.packageRoot
        let dockerfile = try String(contentsOf: root.appendingPathComponent("deploy/Dockerfile"), encoding: .utf8)
        // The runtime stage: after the last FROM.
        let runtime = dockerfile.components(separatedBy: "\nFROM ").last ?? ""
        let copied = Set(
            runtime.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                guard words.count == 3, words[0] == "COPY", !words[1].hasPrefix("--") else { return nil }
                return String(words[1])
            })
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("scenarios").path)
            .filter { $0.hasSuffix(".yaml") }
        #expect(!scenarios.isEmpty)
        var named: Set<String> = ["scenarios"]
        for name in scenarios {
            let text = try String(contentsOf: root.appendingPathComponent("scenarios/\(name)"), encoding: .utf8)
            // Files next to the scenarios' folder: `../FOLDER/...` outside comments.
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("#") {
                var rest = Substring(line.split(separator: "#", maxSplits: 1).first ?? "")
                while let range = rest.range(of: "../") {
                    let folder = rest[range.upperBound...].prefix { $0 != "/" && $0 != "\"" && $0 != "," && $0 != "]" && $0 != " " }
                    if !folder.isEmpty { named.insert(String(folder)) }
                    rest = rest[range.upperBound...]
                }
            }
        }
        #expect(named.contains("rules"), "a bundled scenario names rules/")
        for folder in named.sorted() {
            #expect(copied.contains(folder), "deploy/Dockerfile does not copy \(folder)/ into the image: \(copied.sorted())")
        }
    }
}

/// Every subcommand's `--help` gives each option's default and complete example commands.
@Suite struct HelpTests {
    static let commands: [[String]] = [
        ["inspect"], ["run"], ["replay"], ["synth"], ["rules", "check"], ["rules", "eval"], ["lint"], ["check"], ["merge"],
        ["report"], ["sweep"], ["score"], ["calibrate"],
    ]

    /// Option entries of a help screen: the option's names and its whole help text.
    static func options(_ help: String) -> [(names: String, text: String)] {
        guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
        var entries: [(names: String, text: String)] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            let trimmed = line.drop { $0 == " " }
            let indent = line.count - trimmed.count
            if indent == 2, trimmed.hasPrefix("-") {
                // Help text starts at column 26, or on the next line after long names.
                let characters = Array(line)
                if characters.count > 26, characters[25] == " " {
                    entries.append((String(characters[..<26]).trimmingCharacters(in: .whitespaces), String(characters[26...])))
                } else {
                    entries.append((String(trimmed), ""))
                }
            } else if var last = entries.popLast() {
                last.text += " " + trimmed
                entries.append(last)
            }
        }
        return entries
    }

    @Test(arguments: commands)
    func eachOptionSaysItsDefault(_ command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        #expect(result.status == 0)
        let usage = result.stdout.components(separatedBy: "USAGE:").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
        for (names, text) in Self.options(result.stdout) {
            // Flags are off unless given; --help and --version have nothing to default.
            guard names.contains("<"), !names.contains("--help"), !names.contains("--version") else { continue }
            let long = names.split(separator: " ").first { $0.hasPrefix("--") }.map(String.init) ?? names
            // Required options (outside brackets in the usage line) have no default.
            if let range = usage.range(of: long + " <"), usage[..<range.lowerBound].last != "[" { continue }
            #expect(text.lowercased().contains("default"), "fencesim \(command.joined(separator: " ")) \(long): \(text)")
        }
    }

    @Test(arguments: commands)
    func helpEndsWithCompleteExamples(_ command: [String]) throws {
        let result = try CLI.run(command + ["--help"])
        #expect(result.status == 0)
        let prefix = "fencesim " + command.joined(separator: " ") + " "
        let examples = result.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }
        #expect(result.stdout.contains("EXAMPLES:") || result.stdout.contains("Examples:"), "\(result.stdout)")
        #expect(!examples.isEmpty, "no example of \(prefix): \(result.stdout)")
    }
}
