import Foundation
import Testing

/// Paths shared by the simulation tests.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let shared: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("data").path) ? url : nil
    }()

    static var hasSharedData: Bool { shared != nil }

    static func sharedData(_ relative: String) -> String {
        (shared ?? packageRoot).appendingPathComponent("data").appendingPathComponent(relative).path
    }

    static func repository(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fencesim-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Writes `text` to `name` in `dir` and returns its path.
    @discardableResult
    static func write(_ text: String, _ name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
