import Foundation
import Spatial
import Support
import Testing

@testable import Fences

/// Fences at about 47.39° N, 8.5° E, built from metre offsets so that sizes are known.
private enum Place {
    static let latitude = 47.39
    static let longitude = 8.5

    /// The position `east` and `north` metres from the origin (geodesic offsets).
    static func at(east: Double, north: Double) -> (lon: Double, lat: Double) {
        let n = Geodesic.wgs84.direct(latitude: latitude, longitude: longitude, azimuth: 0, distanceMeters: north)
        let e = Geodesic.wgs84.direct(latitude: n.latitude, longitude: n.longitude, azimuth: 90, distanceMeters: east)
        return (e.longitude, e.latitude)
    }

    /// A GeoJSON Polygon of the rectangle from (`east`, `north`), `width` m east–west by
    /// `height` m north–south.
    static func rectangle(east: Double, north: Double, width: Double, height: Double) -> String {
        let corners = [(0.0, 0.0), (width, 0), (width, height), (0, height), (0, 0)].map { at(east: east + $0.0, north: north + $0.1) }
        return #"{"type": "Polygon", "coordinates": [["# + corners.map { "[\($0.lon), \($0.lat)]" }.joined(separator: ", ") + "]]}"
    }

    static func point(east: Double, north: Double) -> String {
        let p = at(east: east, north: north)
        return #"{"type": "Point", "coordinates": [\#(p.lon), \#(p.lat)]}"#
    }
}

private func feature(_ properties: String, _ geometry: String) -> String {
    "{\"type\": \"Feature\", \"properties\": {\(properties)}, \"geometry\": \(geometry)}"
}

/// A FeatureCollection with one feature per line (feature k on line k + 2).
private func collection(_ features: String...) -> String {
    "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
}

/// Reads as `fencesim lint` does: with make-valid, so that invalid geometry becomes a finding.
private func read(_ text: String) throws -> FenceSet {
    try FenceReader.parse(SourceText(file: "fences.geojson", bytes: Array(text.utf8)), options: FenceReadOptions(makeValid: true))
}

private func motion(_ speed: Double, _ interval: Double) -> [LintMotion] {
    [LintMotion(speedMetersPerSecond: speed, intervalSeconds: interval, source: "--speed/--interval")]
}

@Suite struct FenceLintTests {
    /// A 10 m × 200 m strip: 30 m/s × 1 s moves 30 m, so a device can pass it between two fixes;
    /// at 5 m/s it cannot.
    static let strip = collection(feature(#""id": "strip""#, Place.rectangle(east: 0, north: 0, width: 10, height: 200)))

    @Test func narrowFenceIsAnErrorAt30MetresPerSecondAndNotAt5() throws {
        let set = try read(Self.strip)
        let fast = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1)))
        #expect(fast.count == 1)
        let finding = try #require(fast.first)
        #expect(finding.rule == .narrow)
        #expect(finding.severity == .error)
        #expect(finding.fenceID == "strip")
        #expect(abs((finding.value ?? 0) - 10) < 0.01, "width \(finding.value ?? -1)")
        #expect(finding.limit == 30)
        #expect(finding.location == SourceLocation(file: "fences.geojson", line: 2, column: 1))
        #expect(finding.description.hasPrefix("fences.geojson:2:1: error: fence \"strip\" is 10 m wide at its narrowest"))
        #expect(finding.message.contains("a buffer of 10 m"), "\(finding.message)")
        let slow = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(5, 1)))
        #expect(slow.isEmpty, "\(slow)")
    }

    /// The buffer at which lint stops flagging is the one its message names: width + 2 × buffer
    /// reaches speed × interval.
    @Test(arguments: [(9.99, true), (10.0, false), (12.0, false)])
    func bufferClosesTheGap(buffer: Double, flagged: Bool) throws {
        let set = try read(Self.strip)
        let findings = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1), bufferMeters: buffer))
        #expect(findings.contains { $0.rule == .narrow } == flagged, "\(findings)")
    }

    @Test func circleWidthIsTwiceItsRadiusAndTinyCirclesAreWarnings() throws {
        let set = try read(
            collection(
                feature(#""id": "tiny", "radius": 3"#, Place.point(east: 0, north: 0)),
                feature(#""id": "big", "radius": 20"#, Place.point(east: 500, north: 0))))
        let findings = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1)))
        #expect(
            findings.map { "\($0.fenceID) \($0.rule.rawValue) \($0.severity.rawValue)" } == [
                "tiny narrow error", "tiny tiny-circle warning",
            ])
        #expect(findings[0].value == 6)
        #expect(findings[0].message.hasPrefix("circle fence \"tiny\" is 6 m across"))
        #expect(findings[1].value == 3)
        #expect(findings[1].limit == 5)
        // Without motion only the size is checked.
        let still = try FenceLint.lint(set)
        #expect(still.map(\.rule) == [.tinyCircle])
    }

    @Test func tinyPolygonIsAWarning() throws {
        let set = try read(collection(feature(#""id": "kiosk""#, Place.rectangle(east: 0, north: 0, width: 6, height: 8))))
        let findings = try FenceLint.lint(set)
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.rule == .tinyPolygon)
        #expect(finding.severity == .warning)
        #expect(abs((finding.value ?? 0) - 48) < 0.1)
        #expect(finding.limit == 70)
    }

    @Test func overlapsWithinAZoneAreWarningsAndAcrossZonesAreNot() throws {
        func fences(_ zoneA: String, _ zoneB: String, _ zoneC: String) throws -> FenceSet {
            try read(
                collection(
                    feature(#""id": "a", "radius": 50, "zone": "\#(zoneA)""#, Place.point(east: 0, north: 0)),
                    feature(#""id": "b", "radius": 50, "zone": "\#(zoneB)""#, Place.point(east: 60, north: 0)),
                    feature(#""id": "c", "zone": "\#(zoneC)""#, Place.rectangle(east: 40, north: -20, width: 200, height: 40)),
                    feature(#""id": "far", "radius": 50, "zone": "\#(zoneA)""#, Place.point(east: 2000, north: 0))))
        }
        let same = try FenceLint.lint(try fences("z1", "z1", "z1"))
        #expect(
            same.map { "\($0.fenceID)/\($0.otherFenceID ?? "") \($0.rule.rawValue) \($0.severity.rawValue) \($0.zone ?? "")" } == [
                "b/a zone-overlap warning z1", "c/a zone-overlap warning z1", "c/b zone-overlap warning z1",
            ])
        // Two discs of 50 m whose centres are 60 m apart share 2r²acos(d/2r) − (d/2)√(4r² − d²).
        let lens = 2 * 2500 * acos(0.6) - 30 * (10000.0 - 3600).squareRoot()
        #expect(abs((same[0].value ?? 0) - lens) < 1, "\(same[0].value ?? -1) vs \(lens)")
        #expect(same[0].location.line == 3)
        #expect(same[0].message.contains("fence \"b\" overlaps fence \"a\" (fences.geojson:2:1)"))
        let apart = try FenceLint.lint(try fences("z1", "z2", "z3"))
        #expect(apart.isEmpty, "\(apart)")
    }

    @Test func fencesWithoutAZoneAreNotPaired() throws {
        let set = try read(
            collection(
                feature(#""id": "a", "radius": 50"#, Place.point(east: 0, north: 0)),
                feature(#""id": "b", "radius": 50"#, Place.point(east: 10, north: 0))))
        #expect(try FenceLint.lint(set).isEmpty)
    }

    @Test func fencesThatNeverExistAtOnceDoNotOverlap() throws {
        let set = try read(
            collection(
                feature(#""id": "a", "radius": 50, "zone": "z", "validUntil": "2026-01-01T10:00:00Z""#, Place.point(east: 0, north: 0)),
                feature(#""id": "b", "radius": 50, "zone": "z", "validFrom": "2026-01-01T10:00:00Z""#, Place.point(east: 10, north: 0)),
                feature(#""id": "c", "radius": 50, "zone": "z", "validFrom": "2026-01-01T09:59:59Z""#, Place.point(east: 20, north: 0))))
        // "c" exists with "a" for a second, and with "b" from 10:00.
        #expect(try FenceLint.lint(set).map { "\($0.fenceID)/\($0.otherFenceID ?? "")" } == ["c/a", "c/b"])
    }

    @Test func touchingFencesOfOneZoneDoNotOverlap() throws {
        let set = try read(
            collection(
                feature(#""id": "a", "zone": "z""#, Place.rectangle(east: 0, north: 0, width: 50, height: 50)),
                feature(#""id": "b", "zone": "z""#, Place.rectangle(east: 50, north: 0, width: 50, height: 50))))
        let findings = try FenceLint.lint(set)
        #expect(findings.allSatisfy { $0.rule != .zoneOverlap }, "\(findings)")
    }

    @Test func invalidGeometryIsALocatedError() throws {
        let bowtie = #"{"type": "Polygon", "coordinates": [[[8.5, 47.39], [8.501, 47.391], [8.501, 47.39], [8.5, 47.391], [8.5, 47.39]]]}"#
        let set = try read(
            collection(
                feature(#""id": "fine", "radius": 30"#, Place.point(east: -500, north: 0)),
                feature(#""id": "bowtie""#, bowtie)))
        let findings = try FenceLint.lint(set)
        let finding = try #require(findings.first { $0.rule == .invalidGeometry })
        #expect(finding.severity == .error)
        #expect(finding.fenceID == "bowtie")
        #expect(finding.location.line == 3)
        #expect(finding.message.contains("Self-intersection"), "\(finding.message)")
        #expect(finding.message.contains("--make-valid"))
        // When the runs repair it too, it is a warning.
        let repaired = try FenceLint.lint(set, options: FenceLint.Options(invalidGeometryIsRepaired: true))
        #expect(repaired.first { $0.rule == .invalidGeometry }?.severity == .warning)
    }

    @Test func negativeBufferThatRemovesAFenceIsAnError() throws {
        let set = try read(collection(feature(#""id": "thin", "buffer": -6"#, Place.rectangle(east: 0, north: 0, width: 10, height: 100))))
        let findings = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(5, 1)))
        #expect(findings.map(\.rule) == [.bufferedAway])
        #expect(findings.first?.severity == .error)
    }

    @Test func perFenceBuffersReplaceTheGlobalOne() throws {
        let set = try read(Self.strip)
        let findings = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1), bufferMeters: 20, fenceBuffers: [0]))
        #expect(findings.map(\.rule) == [.narrow])
    }

    @Test func theLargestGapOfSeveralMotionsIsUsed() throws {
        let set = try read(Self.strip)
        let motions = [
            LintMotion(speedMetersPerSecond: 3, intervalSeconds: 1, source: "walk"),
            LintMotion(speedMetersPerSecond: 14, intervalSeconds: 2, source: "drive"),
        ]
        let finding = try #require(try FenceLint.lint(set, options: FenceLint.Options(motions: motions)).first)
        #expect(finding.source == "drive")
        #expect(finding.limit == 28)
        #expect(finding.message.contains("(drive)"))
    }

    @Test func findingsAreSortedByPlaceThenRule() throws {
        let set = try read(
            collection(
                feature(#""id": "z", "radius": 2, "zone": "q""#, Place.point(east: 0, north: 0)),
                feature(#""id": "a", "radius": 2, "zone": "q""#, Place.point(east: 1, north: 0))))
        let findings = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(10, 1)))
        #expect(
            findings.map { "\($0.location.line ?? 0) \($0.fenceID) \($0.rule.rawValue)" } == [
                "2 z narrow", "2 z tiny-circle", "3 a narrow", "3 a tiny-circle", "3 a zone-overlap",
            ])
        // The same input gives the same findings, byte for byte.
        let again = try FenceLint.lint(set, options: FenceLint.Options(motions: motion(10, 1)))
        #expect(again.map(\.description) == findings.map(\.description))
    }

    @Test func jsonHasStableKeys() throws {
        let set = try read(Self.strip)
        let finding = try #require(try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1))).first)
        let text = JSONWriter.string(finding.json)
        #expect(
            text.hasPrefix(#"{"file":"fences.geojson","line":2,"column":1,"severity":"error","rule":"narrow","fence":"strip","value":"#))
        #expect(text.contains(#""limit":30,"source":"--speed/--interval","message":"#))
    }

    @Test func emptyFenceSetHasNoFindings() throws {
        let set = try read(#"{"type": "FeatureCollection", "features": []}"#)
        #expect(try FenceLint.lint(set, options: FenceLint.Options(motions: motion(30, 1))).isEmpty)
    }
}
