import Foundation
import Testing

/// The Kubernetes Indexed Jobs of `deploy/`: the shell line each pod runs, with
/// `JOB_COMPLETION_INDEX` set as Kubernetes sets it, writes the parts its merge Job reads, and
/// the merge gives the bytes of a single run. No cluster runs here: the test plays the pods,
/// with the image's `/work` as the package root and the shared volume's `/data` as a temporary
/// folder.
@Suite struct KubernetesJobTests {
    /// What a pod of a manifest runs.
    struct Pod {
        var environment: [String: String] = [:]
        /// The `sh -c` line of an Indexed Job's pods.
        var shell: String?
        /// The command of a merge Job.
        var command: [String]?
        var completions: Int?
        var parallelism: Int?
        var workingDirectory: String?
    }

    /// Reads the few keys the jobs use (env, args `>-`, command, completions, parallelism).
    static func pod(_ file: String) throws -> Pod {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent("deploy/\(file)"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var pod = Pod()
        var k = 0
        func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
        func value(_ line: String, _ key: String) -> String? {
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix(key + ":") else { return nil }
            var v = t.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces)
            if let hash = v.range(of: " #") { v = v[..<hash.lowerBound].trimmingCharacters(in: .whitespaces) }
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = String(v.dropFirst().dropLast()) }
            return v
        }
        while k < lines.count {
            let line = lines[k]
            let t = line.trimmingCharacters(in: .whitespaces)
            if t.hasPrefix("- name:"), k + 1 < lines.count, let v = value(lines[k + 1], "value") {
                pod.environment[String(t.dropFirst("- name:".count)).trimmingCharacters(in: .whitespaces)] = v
            } else if t == "- >-" {
                // A folded block: its lines joined by spaces.
                let base = indent(line)
                var words: [String] = []
                k += 1
                while k < lines.count, indent(lines[k]) > base, !lines[k].trimmingCharacters(in: .whitespaces).isEmpty {
                    words.append(lines[k].trimmingCharacters(in: .whitespaces))
                    k += 1
                }
                pod.shell = words.joined(separator: " ")
                continue
            } else if let v = value(line, "command"), v.hasPrefix("[") {
                pod.command = try JSONDecoder().decode([String].self, from: Data(v.utf8))
            } else if let v = value(line, "completions") {
                pod.completions = Int(v)
            } else if let v = value(line, "parallelism") {
                pod.parallelism = Int(v)
            } else if let v = value(line, "workingDir") {
                pod.workingDirectory = v
            }
            k += 1
        }
        return pod
    }

    /// Runs `line` with `sh -c` as a pod would: fencesim on PATH, the manifest's environment,
    /// `/data` and `/work` mapped to `data` and the package root.
    static func runPod(_ line: String, environment: [String: String], data: URL) throws -> (status: Int32, stderr: String) {
        let mapped = line.replacingOccurrences(of: "/data", with: data.path).replacingOccurrences(
            of: "/work/", with: CLI.packageRoot.path + "/")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", mapped]
        process.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        for (k, v) in environment { env[k] = v.replacingOccurrences(of: "/work/", with: CLI.packageRoot.path + "/") }
        process.environment = env
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, stderr)
    }

    /// Plays `shards` and then `merge`; returns the data folder.
    static func play(shards file: String, merge mergeFile: String, parts: String) throws -> URL {
        let shards = try pod(file)
        let merge = try pod(mergeFile)
        let n = try #require(Int(shards.environment["SHARDS"] ?? ""), "\(file) sets SHARDS")
        #expect(shards.completions == n && shards.parallelism == n, "\(file): completions, parallelism and SHARDS must agree")
        #expect(merge.workingDirectory == shards.workingDirectory, "the merge runs where the shards ran (relative paths in the parts)")
        let line = try #require(shards.shell, "\(file) has an args: >- line")
        #expect(line.contains("$((JOB_COMPLETION_INDEX))/$SHARDS"))
        let data = try CLI.temporaryDirectory()
        for k in 0..<n {
            var env = shards.environment
            env["JOB_COMPLETION_INDEX"] = "\(k)"
            let r = try runPod(line, environment: env, data: data)
            #expect(r.status == 0, "pod \(k) of \(file): \(r.stderr)")
        }
        let written = try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent(parts).path)
        #expect(written.count == n, "\(written)")
        var command = try #require(merge.command, "\(mergeFile) has a command")
        #expect(command.first == "fencesim")
        command = command.dropFirst().map { $0.replacingOccurrences(of: "/data", with: data.path) }
        let r = try CLI.run(command)
        #expect(r.status == 0 || (mergeFile.contains("sweep") && r.status == 1), "\(mergeFile): \(r.stderr)")
        return data
    }

    @Test func reportPodsWriteThePartsTheMergeJobReads() throws {
        let data = try Self.play(shards: "report-indexed-job.yaml", merge: "report-merge-job.yaml", parts: "report-parts")
        let scenario = try #require(try Self.pod("report-indexed-job.yaml").environment["SCENARIO"])
        let single = try CLI.run([
            "report", scenario, "--html", data.appendingPathComponent("single.html").path,
            "--json", data.appendingPathComponent("single.json").path, "--quiet",
        ])
        #expect(single.status == 0, "\(single.stderr)")
        for name in ["html", "json"] {
            #expect(
                try Data(contentsOf: data.appendingPathComponent("report.\(name)"))
                    == Data(contentsOf: data.appendingPathComponent("single.\(name)")))
        }
    }

    @Test func sweepPodsWriteThePartsTheMergeJobReads() throws {
        let data = try Self.play(shards: "sweep-indexed-job.yaml", merge: "sweep-merge-job.yaml", parts: "sweep-parts")
        let env = try Self.pod("sweep-indexed-job.yaml").environment
        let single = try CLI.run([
            "sweep", try #require(env["SCENARIO"]), "--vary", try #require(env["VARY_BUFFER"]), "--vary",
            try #require(env["VARY_RESAMPLE"]),
            "--plot", data.appendingPathComponent("single.svg").path, "--json", data.appendingPathComponent("single.json").path,
        ])
        #expect([0, 1].contains(single.status), "\(single.stderr)")
        #expect(
            try Data(contentsOf: data.appendingPathComponent("sweep.svg")) == Data(contentsOf: data.appendingPathComponent("single.svg")))
        #expect(
            try Data(contentsOf: data.appendingPathComponent("sweep.json")) == Data(contentsOf: data.appendingPathComponent("single.json")))
    }

    @Test func runPodsWriteThePartsTheMergeJobReads() throws {
        let data = try Self.play(shards: "indexed-job.yaml", merge: "merge-job.yaml", parts: "parts")
        let scenario = try #require(try Self.pod("indexed-job.yaml").environment["SCENARIO"]).replacingOccurrences(of: "/work/", with: "")
        let single = try CLI.run(["run", scenario])
        #expect(single.status == 0)
        #expect(try String(contentsOf: data.appendingPathComponent("events.jsonl"), encoding: .utf8) == single.stdout)
    }
}
