import Support
import Yams

/// A configuration value from a YAML or JSON file with the location of each node, so that every
/// setting error points at its line and column (scenario files, fence `geotrigger` properties).
public struct ConfigNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case list([ConfigNode])
        case map([(key: String, keyLocation: SourceLocation, value: ConfigNode)])
    }

    public var value: Value
    public var location: SourceLocation
    /// For strings: the column where the text itself starts (after an opening quote), so that a
    /// column inside the text (a filter expression's error) maps onto the file.
    public var textColumn: Int?

    public init(_ value: Value, at location: SourceLocation, textColumn: Int? = nil) {
        self.value = value
        self.location = location
        self.textColumn = textColumn
    }

    /// A short name of the node's type, for messages.
    // Not inlined: Swift 6.3.1 in release builds crashes (CopyPropagation, "Found ownership
    // error") on some typed-throws functions that inline these switches over `Value`.
    @inline(never)
    public var typeDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .list: "a list"
        case .map: "a mapping"
        }
    }

    @inline(never)
    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    @inline(never)
    public var number: Double? {
        if case .number(let d) = value { return d }
        return nil
    }

    /// The node's number, `nil` when it is not a number.
    ///
    /// - Throws: `.badData` at the node for a number written too large to hold (`1e400` reads
    ///   as infinity), saying so: `key` is what the message calls the value.
    public func finiteNumber(_ key: String) throws(FencesimError) -> Double? {
        guard let v = number else { return nil }
        guard v.isFinite else {
            throw error("\(key) is out of range: a number must be finite, at most ±1.8e308 in size")
        }
        return v
    }

    @inline(never)
    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    @inline(never)
    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    public var entries: [(key: String, keyLocation: SourceLocation, value: ConfigNode)]? {
        if case .map(let m) = value { return m }
        return nil
    }

    public var items: [ConfigNode]? {
        if case .list(let l) = value { return l }
        return nil
    }

    /// The value of `key` in a mapping.
    public subscript(key: String) -> ConfigNode? {
        entries?.last(where: { $0.key == key })?.value
    }

    /// The node as a JSON value (for custom data carried into events).
    public var json: JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let d): d == d.rounded() && abs(d) < 9e15 ? .int(Int64(d)) : .double(d)
        case .string(let s): .string(s)
        case .list(let items): .list(items.map(\.json))
        case .map(let entries): .orderedObject(entries.map { ($0.key, $0.value.json) })
        }
    }

    /// The location of a column inside this string node's text (1-based), or the node's location.
    public func location(ofTextColumn column: Int) -> SourceLocation {
        guard let start = textColumn else { return location }
        return SourceLocation(file: location.file, line: location.line, column: start + column - 1)
    }

    /// An error located at this node.
    public func error(_ message: String) -> FencesimError {
        FencesimError(.badData, message, at: location)
    }
}

extension ConfigNode {
    /// Converts a JSON node read by ``Support/JSONParser``.
    public init(json node: JSONNode, source: SourceText) {
        let location = source.location(ofOffset: node.offset)
        switch node.value {
        case .null: self.init(.null, at: location)
        case .bool(let b): self.init(.bool(b), at: location)
        case .int(let i): self.init(.number(Double(i)), at: location)
        case .double(let d): self.init(.number(d), at: location)
        case .string(let s): self.init(.string(s), at: location, textColumn: (location.column ?? 0) + 1)
        case .array(let items): self.init(.list(items.map { ConfigNode(json: $0, source: source) }), at: location)
        case .object(let members):
            self.init(
                .map(
                    members.map { m in
                        (m.key, source.location(ofOffset: m.keyOffset), ConfigNode(json: m.node, source: source))
                    }), at: location)
        }
    }

    /// Parses a YAML document (JSON is accepted too, as YAML 1.2 allows).
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` located at the YAML error, or at a
    ///   duplicate key.
    public static func parseYAML(_ text: String, file: String) throws(FencesimError) -> ConfigNode {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ConfigNode.locate(error, file: file)
        } catch {
            throw FencesimError(.badData, "cannot read YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        guard let root else {
            return ConfigNode(.null, at: SourceLocation(file: file, line: 1, column: 1))
        }
        var budget = maximumYAMLValues
        return try ConfigNode(yaml: root, file: file, budget: &budget)
    }

    /// The most values (scalars, lists and mappings) a YAML document may expand to. Aliases
    /// repeat what they name, so a document of a few lines can stand for billions of values
    /// ("billion laughs"); a scenario has a few hundred.
    public static let maximumYAMLValues = 100_000

    static func locate(_ error: YamlError, file: String) -> FencesimError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let text = context.map { "\(problem) (\($0.text))" } ?? problem
            return FencesimError(.badData, "YAML: \(text)", at: SourceLocation(file: file, line: mark.line, column: mark.column))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return FencesimError(
                .badData, "duplicate key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", ")) in a mapping",
                at: SourceLocation(file: file, line: context.mark.line, column: context.mark.column))
        case .reader(let problem, let offset, _, _):
            return FencesimError(
                .badData, "YAML: \(problem)\(offset.map { " at byte \($0)" } ?? "")", at: SourceLocation(file: file, line: 1, column: 1))
        default:
            return FencesimError(.badData, "YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    init(yaml node: Node, file: String, budget: inout Int) throws(FencesimError) {
        let location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
        budget -= 1
        guard budget >= 0 else {
            throw FencesimError(
                .badData, "the document expands to more than \(ConfigNode.maximumYAMLValues) values (aliases repeating aliases?)",
                at: location)
        }
        switch node {
        case .scalar(let scalar):
            let text = scalar.string
            if scalar.style == .plain {
                switch text {
                case "", "~", "null", "Null", "NULL":
                    self.init(.null, at: location)
                    return
                case "true", "True", "TRUE":
                    self.init(.bool(true), at: location)
                    return
                case "false", "False", "FALSE":
                    self.init(.bool(false), at: location)
                    return
                default:
                    if let number = ConfigNode.number(text) {
                        self.init(.number(number), at: location)
                        return
                    }
                }
            }
            let quoted = scalar.style == .singleQuoted || scalar.style == .doubleQuoted
            self.init(.string(text), at: location, textColumn: location.column.map { $0 + (quoted ? 1 : 0) })
        case .sequence(let sequence):
            var items: [ConfigNode] = []
            for item in sequence { items.append(try ConfigNode(yaml: item, file: file, budget: &budget)) }
            self.init(.list(items), at: location)
        case .mapping(let mapping):
            var entries: [(key: String, keyLocation: SourceLocation, value: ConfigNode)] = []
            for (key, value) in mapping {
                let keyLocation = SourceLocation(file: file, line: key.mark?.line ?? 1, column: key.mark?.column ?? 1)
                guard case .scalar(let k) = key else {
                    throw FencesimError(.badData, "mapping keys must be plain words", at: keyLocation)
                }
                entries.append((k.string, keyLocation, try ConfigNode(yaml: value, file: file, budget: &budget)))
            }
            self.init(.map(entries), at: location)
        case .alias:
            throw FencesimError(.badData, "YAML aliases are not supported in scenario files", at: location)
        }
    }

    /// A YAML plain scalar as a number: decimal, with optional sign, fraction and exponent.
    package static func number(_ text: String) -> Double? {
        var sawDigit = false
        for (k, c) in text.enumerated() {
            if c.isASCII, c.isNumber { sawDigit = true; continue }
            if (c == "-" || c == "+")
                && (k == 0 || text[text.index(text.startIndex, offsetBy: k - 1)] == "e"
                    || text[text.index(text.startIndex, offsetBy: k - 1)] == "E")
            {
                continue
            }
            if c == "." || c == "e" || c == "E" || c == "_" { continue }
            return nil
        }
        guard sawDigit else { return nil }
        return Double(text.replacingOccurrences(of: "_", with: ""))
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: Character(target), omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
