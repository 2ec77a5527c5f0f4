import Files
import Spatial
import Support
import Testing

@testable import Traces

/// `synth` streams what it makes (issue 21): the fixes of a route are handed out one at a time
/// and written in chunks of bounded size, with the bytes of the whole trace rendered at once.
@Suite("Synthesis, streamed (issue 21)")
struct SynthStreamingTests {
    /// A sink that keeps the bytes and the largest single write.
    final class RecordingSink: ByteSink {
        var bytes: [UInt8] = []
        var writes = 0
        var largestWrite = 0
        func write(_ raw: UnsafeRawBufferPointer) throws(FencesimError) {
            bytes.append(contentsOf: raw)
            writes += 1
            largestWrite = max(largestWrite, raw.count)
        }
    }

    static let route = [XY(longitude: 8.53, latitude: 47.37), XY(longitude: 8.54, latitude: 47.371), XY(longitude: 8.545, latitude: 47.38)]

    @Test("the streamed trace is the rendered trace, byte for byte, in chunks of bounded size", arguments: TraceWriter.Format.allCases)
    func streamedEqualsRendered(_ format: TraceWriter.Format) throws {
        guard case .success(let start) = Timestamp.parseISO8601("2026-01-01T00:00:00Z") else { Issue.record("bad time"); return }
        let synthesizer = RouteSynthesizer(
            speed: 1.5, interval: 0.25, start: start, noiseMeters: 3, accuracyMeters: 6, seed: 9,
            pauses: [0: 20, 1: 7.5])
        let rendered = TraceWriter.render(synthesizer.fixes(along: Self.route), format: format, name: "a <route> & more")
        let sink = RecordingSink()
        var writer = try TraceStreamWriter(format: format, name: "a <route> & more", to: sink)
        var made = 0
        synthesizer.forEachFix(along: Self.route) { fix in
            made += 1
            try? writer.write(fix)
        }
        try writer.finish()
        #expect(made > 4_000)
        #expect(sink.bytes == Array(rendered.utf8))
        #expect(sink.writes > 3, "\(sink.writes) writes")
        // A chunk is at most one fix's line past the chunk size: memory does not grow with the trace.
        #expect(sink.largestWrite < TraceStreamWriter.chunkBytes + 1_024, "\(sink.largestWrite) bytes in one write")
    }

    @Test("a failing sink stops the walk at the first failed write")
    func failingSinkStops() throws {
        final class FullSink: ByteSink {
            func write(_ raw: UnsafeRawBufferPointer) throws(FencesimError) { throw FencesimError(.io, "disk full") }
        }
        guard case .success(let start) = Timestamp.parseISO8601("2026-01-01T00:00:00Z") else { return }
        let synthesizer = RouteSynthesizer(speed: 1, interval: 0.1, start: start)
        var writer = try TraceStreamWriter(format: .csv, to: FullSink())
        var made = 0
        #expect(throws: FencesimError.self) {
            try synthesizer.forEachFix(along: Self.route) { (fix) throws(FencesimError) in
                made += 1
                try writer.write(fix)
            }
        }
        #expect(made > 0 && made < 2_000, "\(made) fixes made after the sink failed")
    }
}
