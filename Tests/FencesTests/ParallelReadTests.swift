import Foundation
import Spatial
import Support
import Testing

@testable import Fences

/// Reading a feature array on several threads gives exactly what streaming it on one thread
/// gives: the same fences in the same order, the same warnings, and the same first error with
/// the same related problems.
@Suite struct ParallelReadTests {
    /// Everything a reader keeps of a fence, as text.
    static func fingerprint(_ f: Fence) -> String {
        "\(f.index) \(f.id) \(f.name ?? "-") \(f.kind) \(f.shape) \(f.zone ?? "-") \(f.bufferMeters ?? .nan) \(f.library ?? "-") "
            + "\(f.rank ?? -1) \(f.metadata.map { JSONWriter.string($0) } ?? "-") \(JSONWriter.string(.object(f.properties))) \(f.location)"
    }

    /// The outcome of reading `text` with `workers` threads: fingerprints and warnings, or the
    /// full error text.
    static func outcome(_ text: String, workers: Int, options: FenceReadOptions = FenceReadOptions()) -> String {
        do {
            let set = try FenceReader.parse(SourceText(file: "f.geojson", bytes: Array(text.utf8)), options: options, workers: workers)
            return (set.fences.map(fingerprint) + set.warnings.map(\.description) + ["from \(set.reprojectedFrom ?? "-")"]).joined(
                separator: "\n")
        } catch {
            return "error \(error.code): \(error.fullDescription)"
        }
    }

    /// Same outcome with 1, 2, 3 and 7 workers; returns it.
    @discardableResult
    static func expectSame(
        _ text: String, options: FenceReadOptions = FenceReadOptions(), sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> String {
        let reference = outcome(text, workers: 1, options: options)
        for workers in [2, 3, 7] {
            let other = outcome(text, workers: workers, options: options)
            #expect(other == reference, "\(workers) workers", sourceLocation: sourceLocation)
        }
        return reference
    }

    /// `radius` replaces the radius's JSON text (a key may not be given twice, so `extra` cannot).
    static func circle(_ k: Int, id: String? = nil, radius: String? = nil, extra: String = "") -> String {
        let lon = -122.4 + Double(k % 50) * 0.001
        let lat = 37.7 + Double(k / 50) * 0.001
        return
            #"{"type": "Feature", "properties": {"id": "\#(id ?? "c\(k)")", "radius": \#(radius ?? String(50 + k % 7))\#(extra)}, "geometry": {"type": "Point", "coordinates": [\#(lon), \#(lat)]}}"#
    }

    static func square(_ k: Int, extra: String = "") -> String {
        let x = -122.4 + Double(k % 50) * 0.001
        let y = 37.7 + Double(k / 50) * 0.001
        let d = 0.0004
        return
            #"{"type": "Feature", "properties": {"id": "p\#(k)"\#(extra)}, "geometry": {"type": "Polygon", "coordinates": [[[\#(x), \#(y)], [\#(x + d), \#(y)], [\#(x + d), \#(y + d)], [\#(x), \#(y + d)], [\#(x), \#(y)]]]}}"#
    }

    static let bowtie =
        #"{"type": "Polygon", "coordinates": [[[-122.3, 37.7], [-122.29, 37.71], [-122.29, 37.7], [-122.3, 37.71], [-122.3, 37.7]]]}"#

    static func collection(_ features: [String], crs: String = "") -> String {
        "{\"type\": \"FeatureCollection\",\(crs) \"features\": [\n" + features.joined(separator: ",\n") + "\n]}"
    }

    @Test func aCleanSetReadsTheSame() {
        let features = (0..<400).map { k in
            k % 5 == 0
                ? Self.square(k, extra: #", "zone": "z\#(k % 3)", "metadata": {"tags": ["a]", "{b"]}"#)
                : Self.circle(k, extra: #", "name": "store \"\#(k)\" [x]", "rank": \#(k % 4)"#)
        }
        let text = Self.collection(features)
        let out = Self.expectSame(text)
        #expect(out.split(separator: "\n").count == 401)
    }

    @Test func problemsAreReportedInFileOrderWithTheirFirstAndRelated() {
        var features = (0..<300).map { Self.circle($0) }
        features[12] = Self.circle(12, id: "dup")
        features[250] = Self.circle(250, id: "dup")  // a duplicate in another block
        features[251] = Self.circle(251, id: "dup", radius: "-1")  // duplicate, and its radius is never looked at
        features[40] = #"{"type": "Feature", "properties": {"id": "nr"}, "geometry": {"type": "Point", "coordinates": [-122.4, 37.7]}}"#
        features[199] = #"{"type": "Feature", "properties": {"id": "bow"}, "geometry": \#(Self.bowtie)}"#
        features[280] = "17"
        let out = Self.expectSame(Self.collection(features))
        #expect(out.hasPrefix("error bad-data: f.geojson:"))
        #expect(out.contains("duplicate fence id \"dup\""))
        #expect(out.contains("invalid geometry"))
        #expect(out.contains("feature 280 must be an object"))
    }

    @Test func moreProblemsThanAreListedAreCountedTheSame() {
        let features = (0..<200).map { k in k % 2 == 0 ? Self.circle(k, radius: #""x""#) : Self.circle(k) }
        let out = Self.expectSame(Self.collection(features))
        #expect(out.contains("and 50 more problems"))
    }

    @Test func makeValidWarningsKeepTheirOrder() {
        var features = (0..<120).map { Self.square($0) }
        for k in [3, 70, 119] {
            features[k] = #"{"type": "Feature", "properties": {"id": "bow\#(k)"}, "geometry": \#(Self.bowtie)}"#
        }
        var options = FenceReadOptions()
        options.makeValid = true
        let out = Self.expectSame(Self.collection(features), options: options)
        #expect(out.components(separatedBy: "repaired by make-valid").count == 4)
    }

    @Test func aSyntaxErrorIsTheOneAStreamingReadMeets() {
        var features = (0..<300).map { Self.circle($0) }
        features[5] = Self.circle(5, radius: #""x""#)  // a semantic problem first...
        features[222] = #"{"type": "Feature", "properties": {"id": "s", "radius": 10,}, "geometry": null}"#  // ...then bad JSON
        features[260] = #"{"type": "Feature", "properties": {"id": "t" "radius": 10}, "geometry": null}"#
        let out = Self.expectSame(Self.collection(features))
        #expect(out.contains("expected a quoted member name"), "\(out)")
    }

    /// Arrays the structural scan gives up on, or whose elements do not end where it said, are
    /// streamed; the errors are the streaming read's.
    @Test(arguments: [
        "[{\"type\": \"Feature\"} {\"type\": \"Feature\"}]",
        "[{\"type\": \"Feature\", \"properties\": {\"id\": \"a\", \"radius\": 5}, \"geometry\": {\"type\": \"Point\", \"coordinates\": [0, 0]}], 3]",
        "[1 , , 2]",
        "[\"unterminated",
    ])
    func malformedArraysFallBackToStreaming(_ array: String) {
        let many = (0..<50).map { Self.circle($0) }.joined(separator: ",")
        let text =
            "{\"type\": \"FeatureCollection\", \"features\": [" + many + "," + array.dropFirst()
            + "}"
        let out = Self.expectSame(text)
        #expect(out.hasPrefix("error bad-data: f.geojson:1:"), "\(out)")
    }

    @Test func reprojectionHappensOnEveryWorker() {
        let features = (0..<90).map { k in
            let x = -13_600_000.0 + Double(k) * 150
            return
                #"{"type": "Feature", "properties": {"id": "m\#(k)", "radius": 40}, "geometry": {"type": "Point", "coordinates": [\#(x), 4_540_000]}}"#
                .replacingOccurrences(of: "4_540_000", with: "4540000")
        }
        var options = FenceReadOptions()
        options.reproject = true
        let out = Self.expectSame(
            Self.collection(features, crs: #" "crs": {"type": "name", "properties": {"name": "EPSG:3857"}},"#), options: options)
        #expect(out.contains("from EPSG:3857"), "\(out.suffix(300))")
        #expect(!out.hasPrefix("error"), "\(out.prefix(300))")
    }

    /// The shared bench file, when present: 100,000 fences read both ways.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: NSTemporaryDirectory() + "/fencesim-bench-small-s1/fences.geojson")))
    func theBenchFencesReadTheSame() throws {
        let path = NSTemporaryDirectory() + "/fencesim-bench-small-s1/fences.geojson"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        Self.expectSame(text)
    }
}
