import Foundation

/// The real-world data beside the project (`../shared/data`), which tests use when it is there.
enum SharedData {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` beside the package root, or `nil` when it is absent.
    static let directory: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    static var isAvailable: Bool { directory != nil }

    static func path(_ relative: String) -> String {
        (directory ?? packageRoot).appendingPathComponent(relative).path
    }
}
