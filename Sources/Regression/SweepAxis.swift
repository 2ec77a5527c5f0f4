import Support

/// One varied parameter of a sweep and its values, in the order given (`--vary NAME=V1,V2,...`).
public struct SweepAxis: Sendable, Hashable {
    public var parameter: SweepParameter
    /// The values, in the order given: that order decides which setting is the smallest.
    public var values: [SweepValue]

    public init(parameter: SweepParameter, values: [SweepValue]) {
        self.parameter = parameter
        self.values = values
    }

    /// Reads `NAME=V1,V2,...`: a parameter name, `=`, and values separated by commas (spaces
    /// around names and values are ignored).
    ///
    /// Errors are located in the flag's text: the file is `source`, the line is `occurrence`
    /// (the first `--vary` flag is line 1, the second line 2, ...), the column counts bytes of
    /// the text from 1.
    ///
    /// - Throws: ``Support/FencesimError``: `.usage` when the text is not shaped
    ///   `NAME=V1,V2,...` (no `=`, no name, an empty value) or lists a value twice; `.badData` for
    ///   an unknown parameter or a value the parameter does not take.
    public init(parsing text: String, source: String = "--vary", occurrence: Int = 1) throws(FencesimError) {
        let bytes = Array(text.utf8)
        func location(_ offset: Int) -> SourceLocation {
            SourceLocation(file: source, line: occurrence, column: offset + 1)
        }
        let names = SweepParameter.allCases.map(\.rawValue).joined(separator: ", ")
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            throw FencesimError(.usage, "expected NAME=V1,V2,... (parameters: \(names))", at: location(0))
        }
        let (nameStart, nameEnd) = SweepAxis.trimmed(bytes, 0, equals)
        guard nameStart < nameEnd else {
            throw FencesimError(.usage, "expected a parameter name before \"=\" (parameters: \(names))", at: location(nameStart))
        }
        let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
        guard let parameter = SweepParameter(name: name) else {
            throw FencesimError(.badData, "unknown parameter \"\(name)\" (parameters: \(names))", at: location(nameStart))
        }
        var values: [SweepValue] = []
        var start = equals + 1
        while true {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
            let (from, to) = SweepAxis.trimmed(bytes, start, end)
            guard from < to else {
                throw FencesimError(
                    .usage, "\(parameter.rawValue): empty value (give values separated by commas: \(parameter.rawValue)=V1,V2,...)",
                    at: location(from))
            }
            let value = try parameter.value(parsing: String(decoding: bytes[from..<to], as: UTF8.self), at: location(from))
            if values.contains(value) {
                throw FencesimError(.usage, "\(parameter.rawValue): the value \(value) is listed twice", at: location(from))
            }
            values.append(value)
            guard end < bytes.count else { break }
            start = end + 1
        }
        self.init(parameter: parameter, values: values)
    }

    /// The range `from..<to` of `bytes` without leading and trailing spaces.
    static func trimmed(_ bytes: [UInt8], _ from: Int, _ to: Int) -> (Int, Int) {
        var a = from
        var b = to
        while a < b, bytes[a] == UInt8(ascii: " ") || bytes[a] == UInt8(ascii: "\t") { a += 1 }
        while b > a, bytes[b - 1] == UInt8(ascii: " ") || bytes[b - 1] == UInt8(ascii: "\t") { b -= 1 }
        return (a, b)
    }

    /// `name=v1,v2,...` with the values as ``SweepValue/description`` writes them.
    public var text: String {
        parameter.rawValue + "=" + values.map(\.description).joined(separator: ",")
    }
}
