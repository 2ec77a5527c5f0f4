/// A place in an input file: the file's path as the user gave it, a 1-based line and an optional
/// 1-based column.
///
/// Columns count bytes of UTF-8 from the start of the line, as compilers do.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The path of the file, as given on the command line or in a scenario.
    public var file: String
    /// The 1-based line, or `nil` when the problem concerns the whole file.
    public var line: Int?
    /// The 1-based column within `line`, when known.
    public var column: Int?

    public init(file: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file`, `file:line` or `file:line:col`.
    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }
}
