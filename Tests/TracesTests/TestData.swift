import Foundation
import Support
import Testing

@testable import Traces

/// Paths to the shared real-world data (`../shared/data` from the package root) and scratch files.
enum TestData {
    /// The package root, found from this file's path (Tests/TracesTests/TestData.swift).
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The shared data folder.
    static let directory = packageRoot + "/../shared/data"

    /// Whether the shared data is present; tests that need it are skipped (and say so) when not.
    static let isAvailable = FileManager.default.fileExists(atPath: directory + "/MANIFEST.tsv")

    static func path(_ relative: String) -> String { directory + "/" + relative }

    /// A fresh temporary directory for one test.
    static func temporaryDirectory() -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-traces-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url.path
    }

    /// Writes `text` to a new temporary file named `name` and returns its path.
    static func write(_ text: String, named name: String) -> String {
        write(Array(text.utf8), named: name)
    }

    static func write(_ bytes: [UInt8], named name: String) -> String {
        let path = temporaryDirectory() + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// Reads a trace, collecting the fixes.
    static func read(_ path: String, _ options: TraceReadOptions = TraceReadOptions()) throws(FencesimError) -> (
        fixes: [Fix], statistics: TraceStatistics
    ) {
        var fixes: [Fix] = []
        let statistics = try TraceReader.read(path: path, options: options) { fixes.append($0) }
        return (fixes, statistics)
    }

    /// The error a read throws, or `nil` (recorded as a test issue) when it does not throw.
    static func error(
        reading path: String, _ options: TraceReadOptions = TraceReadOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> FencesimError? {
        do {
            _ = try TraceReader.read(path: path, options: options) { _ in }
            Issue.record("expected reading \(path) to fail", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }
}

/// One row of the shared data's MANIFEST.tsv (an independent oracle for the readers).
struct ManifestRow: Sendable, CustomTestStringConvertible {
    var path: String
    var format: String
    var tracks: Int
    var segments: Int
    var routes: Int
    var waypoints: Int
    var points: Int
    var pointsWithTime: Int
    var timeStart: String
    var timeEnd: String
    var timeBacksteps: Int
    var boundingBox: TraceStatistics.BoundingBox?

    var testDescription: String { path }

    static let all: [ManifestRow] = {
        guard let text = try? String(contentsOfFile: TestData.directory + "/MANIFEST.tsv", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line -> ManifestRow? in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 12 else { return nil }
            let box = f[11].split(separator: ",").compactMap { Double($0) }
            return ManifestRow(
                path: f[0], format: f[1], tracks: Int(f[2]) ?? 0, segments: Int(f[3]) ?? 0, routes: Int(f[4]) ?? 0,
                waypoints: Int(f[5]) ?? 0, points: Int(f[6]) ?? 0, pointsWithTime: Int(f[7]) ?? 0, timeStart: f[8],
                timeEnd: f[9], timeBacksteps: Int(f[10]) ?? 0,
                boundingBox: box.count == 4 ? .init(west: box[0], south: box[1], east: box[2], north: box[3]) : nil)
        }
    }()

    static func row(_ path: String) -> ManifestRow? { all.first { $0.path == path } }
}

extension Timestamp {
    /// `YYYY-MM-DDThh:mm:ssZ`, the fraction cut (as MANIFEST writes times).
    var wholeSecondText: String {
        Timestamp(seconds: seconds).iso8601(fractionDigits: 0)
    }
}
