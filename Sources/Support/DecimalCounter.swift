/// A count and its decimal text, kept together as the count goes up by one: the text is
/// changed in place (its last digit, or a run of nines), not written afresh from the number.
/// An event log numbers every line (`seq`), millions of them one after another.
public struct DecimalCounter {
    /// The digits, right-aligned in 24 bytes (at most 19 of them for a count that fits `Int`).
    @usableFromInline var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// Where the first digit is.
    @usableFromInline var start = 23
    /// The count.
    public var value: Int { count }
    @usableFromInline var count = 0

    public init() {
        withUnsafeMutableBytes(of: &digits) { $0[23] = UInt8(ascii: "0") }
    }

    /// Adds one.
    @inlinable @inline(__always)
    public mutating func increment() {
        count += 1
        var first = start
        withUnsafeMutableBytes(of: &digits) { raw in
            var k = 23
            while raw[k] == UInt8(ascii: "9") {
                raw[k] = UInt8(ascii: "0")
                k -= 1
            }
            if k < first {
                // Every digit was a nine: one more digit in front.
                raw[k] = UInt8(ascii: "1")
                first = k
            } else {
                raw[k] &+= 1
            }
        }
        start = first
    }

    /// Appends the count's decimal text to `out`.
    @inlinable @inline(__always)
    public func append(to out: inout ByteBuffer) {
        let first = start
        withUnsafeBytes(of: digits) { raw in
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[first..<24]))
        }
    }
}
