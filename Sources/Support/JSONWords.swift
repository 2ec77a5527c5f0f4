/// Strings a reader expects to meet often in a document (a file format's member and type
/// names), which ``JSONCursor/parseString()`` hands out as the same literals instead of making a
/// `String` from the bytes (checking them as UTF-8 costs about three times as much as finding
/// the text here). The format knows its words; the cursor only looks them up.
///
/// Each word with its first and last eight bytes (fewer for shorter words) as integers, which
/// together cover every byte of it, ordered by length; `starts[n]` is where the words of `n`
/// bytes begin (2 ≤ n ≤ 16; longer and shorter words are never found). In memory of its own,
/// allocated once, never written after and never freed (make one per format, in a `static
/// let`), so that a lookup touches no reference count and threads may share it.
public struct JSONWords: @unchecked Sendable {
    let entries: UnsafePointer<(head: UInt64, tail: UInt64, text: String)>
    let starts: UnsafePointer<Int>

    public init(_ list: [String]) {
        let words = list.sorted { $0.utf8.count < $1.utf8.count }
        let entries = UnsafeMutablePointer<(head: UInt64, tail: UInt64, text: String)>.allocate(capacity: max(1, words.count))
        let starts = UnsafeMutablePointer<Int>.allocate(capacity: 18)
        var k = 0
        for length in 0...17 {
            starts[length] = k
            for word in words where word.utf8.count == length {
                let bytes = Array(word.utf8)
                let (head, tail) = bytes.withUnsafeBufferPointer { JSONWords.headAndTail($0.baseAddress!, $0.count) }
                (entries + k).initialize(to: (head, tail, word))
                k += 1
            }
        }
        self.entries = UnsafePointer(entries)
        self.starts = UnsafePointer(starts)
    }

    /// The first and the last `min(8, count)` bytes of `bytes[0..<count]` as little-endian
    /// integers.
    @inline(__always)
    static func headAndTail(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> (UInt64, UInt64) {
        if count >= 8 {
            let raw = UnsafeRawPointer(bytes)
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        var word: UInt64 = 0
        for k in 0..<count { word |= UInt64(bytes[k]) << (8 * UInt64(k)) }
        return (word, word)
    }

    /// The word whose UTF-8 is `bytes[0..<count]`, if it is one.
    @inline(__always)
    public func word(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> String? {
        guard count >= 2, count <= 16 else { return nil }
        let (head, tail) = JSONWords.headAndTail(bytes, count)
        for k in starts[count]..<starts[count + 1] where entries[k].head == head && entries[k].tail == tail {
            return entries[k].text
        }
        return nil
    }
}
