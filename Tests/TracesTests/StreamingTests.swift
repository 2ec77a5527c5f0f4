import Foundation
import Support
import Testing

@testable import Traces

/// Streaming: a long CSV is read without collecting its fixes.
@Suite("Streaming")
struct StreamingTests {
    @Test("two million generated rows stream through the reader")
    func twoMillionRows() throws {
        let rows = 2_000_000
        let directory = TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/long.csv"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        var chunk = "time,lat,lon,accuracy\n"
        for k in 0..<rows {
            // A zigzag at about 1 m/s, so that no jump is implausible.
            let step = k % 200_000 < 100_000 ? k % 100_000 : 100_000 - k % 100_000
            chunk += "\(1_767_225_600 + k),\(37 + Double(step) * 1e-5),-122.2,\(k % 50 + 1)\n"
            if chunk.utf8.count > 1 << 20 {
                handle.write(Data(chunk.utf8))
                chunk = ""
            }
        }
        handle.write(Data(chunk.utf8))
        try handle.close()

        var count = 0
        var lastLine = 0
        var accuracySum = 0.0
        let stats = try TraceReader.read(path: path) { fix in
            count += 1
            lastLine = fix.line
            accuracySum += fix.accuracyMeters
        }
        #expect(count == rows)
        #expect(lastLine == rows + 1)
        #expect(stats.pointsRead == rows)
        #expect(stats.fixesAccepted == rows)
        #expect(stats.accuracySources == [.reported: rows])
        #expect(accuracySum == Double(rows / 50) * (50 * 51 / 2))
        #expect(stats.timeSpan == Timestamp(seconds: 1_767_225_600)...Timestamp(seconds: 1_767_225_600 + Int64(rows) - 1))
        #expect(stats.warnings.isEmpty)
    }
}
