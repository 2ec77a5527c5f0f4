import Foundation
import Places
import Support
import Testing

/// Helpers shared by the Places tests.
enum Fixture {
    /// 2026-01-01T00:00:00Z.
    static let t0 = Timestamp(seconds: 1_767_225_600)

    /// `t0` plus `seconds`.
    static func at(_ seconds: Double) -> Timestamp { t0.adding(seconds: seconds) }

    /// A POI near (37.33, -121.89) with the given rank and radius.
    static func poi(
        _ id: String, rank: Int = 1, radius: Double = 100, latitude: Double = 37.33, longitude: Double = -121.89,
        metadata: [String: String] = [:]
    ) -> POI {
        POI(
            id: id, name: "POI \(id)", latitude: latitude, longitude: longitude, radiusMeters: radius,
            library: "lib", rank: rank, metadata: metadata)
    }

    static func state(
        _ platform: PlacesPlatform = .docs, expiry: PlacesExpiryMode = .lazy, ttl: Double = 3600,
        budget: Int? = nil, seed: UInt64 = 0
    ) -> PlacesState {
        PlacesState(
            configuration: PlacesConfiguration(
                membershipTTL: ttl, expiry: expiry, platform: platform, regionBudget: budget, dictionarySeed: seed))
    }

    static func json(_ value: JSONValue?) -> String {
        value.map(JSONWriter.string) ?? "nil"
    }
}

/// The shared Adobe fixtures beside the package (`../shared/fixtures/adobe`), when present.
enum AdobeFixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/adobe")
        return FileManager.default.fileExists(atPath: url.appendingPathComponent("aepsdk-places-ios").path) ? url : nil
    }()

    static var isAvailable: Bool { directory != nil }

    static func source(_ repo: String, _ name: String) throws -> SourceText {
        let url = (directory ?? packageRoot).appendingPathComponent(repo).appendingPathComponent(name)
        let data = try Data(contentsOf: url)
        return SourceText(file: name, bytes: Array(data))
    }
}
