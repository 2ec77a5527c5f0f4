import Support
import Testing

/// A counter's text is the decimal text of its count after every step, through each change in
/// the number of digits (the runs of nines that carry).
@Suite struct DecimalCounterTests {
    @Test func textIsTheCountsDecimalText() {
        var counter = DecimalCounter()
        var out = ByteBuffer()
        for expected in 0...1_234_567 {
            out.removeAll()
            counter.append(to: &out)
            let text = out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
            #expect(counter.value == expected)
            #expect(text == String(expected), "after \(expected) steps")
            if text != String(expected) { return }
            counter.increment()
        }
    }

    @Test func appendsAfterWhatTheBufferHolds() {
        var counter = DecimalCounter()
        for _ in 0..<99 { counter.increment() }
        var out = ByteBuffer()
        out.append("seq=")
        counter.append(to: &out)
        counter.increment()
        out.append(UInt8(ascii: ","))
        counter.append(to: &out)
        #expect(out.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } == "seq=99,100")
    }
}
