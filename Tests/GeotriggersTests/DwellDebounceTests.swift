import Spatial
import Support
import Testing

@testable import Geotriggers

/// Dwell and debounce at their thresholds: one fix before, at, and after.
@Suite struct DwellDebounceTests {
    /// Enter at t = 0 (fix 0), then stay inside with a last fix at `lastInside`, then leave.
    func visit(lastInside: Double) -> [(Double, Double, Double, Double)] {
        [(0, 0, 0, 5), (lastInside, 10, 0, 5), (lastInside + 1, 500, 0, 5)]
    }

    @Test(arguments: [(59.0, false), (60.0, true), (61.0, true)])
    func dwellThreshold(lastInside: Double, dwells: Bool) throws {
        var scene = try Scene()
        scene.settings.dwellSeconds = 60
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        let events = try scene.run(visit(lastInside: lastInside))
        let dwell = events.filter { $0.kind == .dwell }
        #expect(dwell.count == (dwells ? 1 : 0))
        if let d = dwell.first {
            // The exact threshold time, whichever fix revealed it.
            #expect(d.time == scene.start.adding(seconds: 60))
            #expect(d.fixIndex == 1)
            #expect(d.dwellSeconds == 60)
        }
    }

    @Test func oneDwellPerVisit() throws {
        var scene = try Scene()
        scene.settings.dwellSeconds = 10
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        var fixes: [(Double, Double, Double, Double)] = (0..<40).map { (Double($0), 0, 0, 5) }
        fixes += [(40, 500, 0, 5)] + (41..<60).map { (Double($0), 0, 0, 5) }
        let events = try scene.run(fixes)
        #expect(events.map(\.kind) == [.enter, .dwell, .exit, .enter, .dwell])
        #expect(events[4].time == scene.start.adding(seconds: 51))
    }

    /// Inside from t = 1: the enter is confirmed by the first fix inside with 3 s elapsed, t = 4.
    @Test(arguments: [(3.0, false), (4.0, true), (5.0, true)])
    func debounceSecondsAtThreshold(insideUntil: Double, confirmed: Bool) throws {
        var scene = try Scene()
        scene.settings.enterAfter = .seconds(3)
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        // Outside at t = 0, inside from t = 1 to `insideUntil`, then outside.
        var fixes: [(Double, Double, Double, Double)] = [(0, 500, 0, 5)]
        var t = 1.0
        while t <= insideUntil + 1e-9 {
            fixes.append((t, 0, 0, 5))
            t += 1
        }
        fixes.append((t, 500, 0, 5))
        let events = try scene.run(fixes)
        if confirmed {
            #expect(events.map(\.kind) == [.enter, .exit])
            #expect(events.first?.time == scene.start.adding(seconds: 4))
            #expect(events.first?.reason?.contains("confirmed after") == true)
        } else {
            #expect(events.map(\.kind) == [.suppressed])
            #expect(events.first?.reason?.contains("debounce") == true)
        }
    }

    @Test(arguments: [(2, false), (3, true), (4, true)])
    func debounceFixesAtThreshold(insideFixes: Int, confirmed: Bool) throws {
        var scene = try Scene()
        scene.settings.enterAfter = .fixes(3)
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        var fixes: [(Double, Double, Double, Double)] = [(0, 500, 0, 5)]
        for k in 0..<insideFixes { fixes.append((Double(k + 1), 0, 0, 5)) }
        fixes.append((Double(insideFixes + 1), 500, 0, 5))
        let events = try scene.run(fixes)
        if confirmed {
            #expect(events.first?.kind == .enter)
            #expect(events.first?.fixIndex == 3)  // the third consecutive fix inside
            #expect(events.last?.kind == .exit)
        } else {
            #expect(events.map(\.kind) == [.suppressed])
        }
    }

    @Test func exitDebounceKeepsTheVisitThroughABlip() throws {
        var scene = try Scene()
        scene.settings.exitAfter = .seconds(5)
        scene.settings.gapPolicy = .ignore
        scene.circle("c", x: 0, y: 0, radius: 100)
        // One fix drifts outside for a second, then the device is back.
        let fixes: [(Double, Double, Double, Double)] = [(0, 0, 0, 5), (1, 150, 0, 5), (2, 0, 0, 5), (3, 500, 0, 5), (9, 500, 0, 5)]
        let events = try scene.run(fixes)
        #expect(events.map(\.kind) == [.enter, .suppressed, .exit])
        #expect(events.last?.time == scene.start.adding(seconds: 9))
    }
}
