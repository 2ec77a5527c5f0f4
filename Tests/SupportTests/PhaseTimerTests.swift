import Testing

@testable import Support

@Suite struct PhaseTimerTests {
    @Test(arguments: [(0.0, "0.000"), (0.0004, "0.000"), (0.0005, "0.001"), (1.23456, "1.235"), (61.5, "61.500"), (0.05, "0.050")])
    func secondsHaveThreeDecimals(_ seconds: Double, _ text: String) {
        #expect(PhaseTimer.format(seconds) == text)
    }

    @Test func phasesAreListedInOrderThenTheTotal() {
        let timer = PhaseTimer()
        timer.lap("one")
        timer.lap("two")
        let lines = timer.lines
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("timing: one "))
        #expect(lines[1].hasPrefix("timing: two "))
        #expect(lines[2].hasPrefix("timing: total "))
        #if os(Linux)
        #expect(PhaseTimer.residentBytes().map { $0 > 1 << 20 } == true)
        #endif
    }
}
