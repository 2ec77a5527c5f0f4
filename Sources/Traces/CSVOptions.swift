/// CSV-specific reading options; everything left `nil` is detected from the file.
public struct CSVOptions: Sendable, Hashable {
    /// The field delimiter (e.g. `UInt8(ascii: ";")`); `nil` detects `,` `;` tab or `|` from the
    /// header line.
    public var delimiter: UInt8?
    /// Which column holds which field; overrides header detection for the fields it names.
    public var mapping: CSVColumnMapping?

    /// Creates CSV options; `nil` values are detected.
    public init(delimiter: UInt8? = nil, mapping: CSVColumnMapping? = nil) {
        self.delimiter = delimiter
        self.mapping = mapping
    }
}
