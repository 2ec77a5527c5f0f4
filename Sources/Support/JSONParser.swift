#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A strict RFC 8259 JSON reader that keeps byte offsets for every value and reports errors as
/// `file:line:col`.
///
/// Foundation's `JSONSerialization` reports neither the line nor the column of a problem, and
/// fencesim must point users at the exact place of a bad fence, scenario key or rules matcher;
/// hence this reader. Numbers go through the C library's `strtod` (correctly rounded) after the
/// grammar is checked here. Nesting deeper than ``maximumDepth`` is refused rather than
/// overflowing the stack.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses a whole JSON document.
    ///
    /// - Parameter source: the file's bytes and name (used for error locations).
    /// - Throws: ``FencesimError`` with code `.badData`, located at the offending byte.
    /// - Complexity: O(n) in the size of the input.
    public static func parse(_ source: SourceText) throws(FencesimError) -> JSONNode {
        try withCursor(source) { (cursor: inout JSONCursor) throws(JSONCursor.Failure) -> JSONNode in
            let node = try cursor.parseValue()
            try cursor.expectEnd()
            return node
        }
    }

    /// Runs `body` with a cursor at the start of the document (after any byte order mark and
    /// whitespace), for readers that walk large documents without building the whole tree (the
    /// fence reader streams the features of a FeatureCollection this way).
    ///
    /// - Throws: ``FencesimError`` `.badData` located at the failure's offset.
    /// `refusingDuplicateKeys` makes every object read whole (``JSONCursor/parseValue()``) refuse a
    /// member name given twice.
    public static func withCursor<T>(
        _ source: SourceText, refusingDuplicateKeys: Bool = false,
        _ body: (inout JSONCursor) throws(JSONCursor.Failure) -> T
    ) throws(FencesimError) -> T {
        let bytes = source.bytes
        // Skip a UTF-8 byte order mark, which some editors write.
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        let result: Result<T, JSONCursor.Failure> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = JSONCursor(buffer: buffer, end: buffer.count, position: start)
            cursor.refusesDuplicateKeys = refusingDuplicateKeys
            do throws(JSONCursor.Failure) {
                cursor.skipWhitespace()
                return .success(try body(&cursor))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            return value
        case .failure(let failure):
            throw FencesimError(.badData, failure.message, at: source.location(ofOffset: failure.offset))
        }
    }

    /// Parses JSON text held in a string (for tests and command-line arguments).
    public static func parse(_ text: String, file: String = "<string>") throws(FencesimError) -> JSONNode {
        try parse(SourceText(file: file, bytes: Array(text.utf8)))
    }

}
