/// A boolean expression in fencesim's one filter language, over the fields of a fix (the
/// ArcGIS feed filter, e.g. `accuracy <= 10 && speed < 40`) or over a fence's id, zone, name and
/// properties (a geotrigger's where-clause, as ArcGIS `FeatureFenceParameters.whereClause` and
/// Tile38 `WHERE`, e.g. `brand = 'acme' and floor >= 2`).
///
/// Grammar: `||` / `or`, `&&` / `and`, `!` / `not`, comparisons `< <= > >= == != = <>`,
/// `VALUE in (V, …)` and `not in`, `VALUE is null` and `is not null`, arithmetic `+ - * /`,
/// parentheses, numbers, `'strings'` (a quote doubled inside), `true`, `false`, and names: the
/// fields of ``FixField`` for fixes; for fences `id`, `zone`, `name` and property names, a
/// `"quoted name"` for one with spaces or a keyword's spelling, and `a.b` for a member of an
/// object property (when no property is named `a.b` itself). Keywords are case-insensitive.
///
/// A comparison with a value that is absent (a trace without speed, a fence without the
/// property) or null, or of two values of different types, is false, so `speed < 40` rejects
/// fixes without speed while `!(speed >= 40)` keeps them; `is null` is true exactly for absent
/// and null values. Strings compare by their Unicode scalars; booleans are equal or not.
public struct FilterExpression: Hashable, Sendable, CustomStringConvertible {
    /// What the names in an expression refer to.
    public enum Subject: Hashable, Sendable {
        /// A fix's fields (``FixField``): a feed filter, whose values are numbers.
        case fixes
        /// A fence's `id`, `zone`, `name` and properties: a where-clause.
        case fences
    }

    /// The expression as written.
    public let text: String
    /// The parsed expression; what its names refer to is in its values (``Value/field(_:)`` for
    /// fixes, ``Value/property(_:)`` for fences), not stored beside it: settings hold a filter for
    /// every fence.
    let root: Node

    indirect enum Node: Hashable, Sendable {
        case constant(Bool)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Value, Comparison, Value)
        /// `value is null` (or `is not null` when negated).
        case isNull(Value, negated: Bool)
        /// `value in (list)` (or `not in` when negated).
        case oneOf(Value, [Value], negated: Bool)
    }

    indirect enum Value: Hashable, Sendable {
        case number(Double)
        case string(String)
        case boolean(Bool)
        case field(FixField)
        /// A fence's id, zone, name or property.
        case property(String)
        case arithmetic(Value, Arithmetic, Value)
        case negate(Value)
    }

    /// A value a name stands for.
    public enum Scalar: Hashable, Sendable {
        case number(Double)
        case string(String)
        case boolean(Bool)
        case null
        /// An object or an array: present (not null), equal to nothing.
        case composite
    }

    enum Comparison: String, Hashable, Sendable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case equal = "=="
        case notEqual = "!="
    }

    enum Arithmetic: String, Hashable, Sendable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        case divide = "/"
    }

    /// A parse error with the 1-based column (in characters) of the problem in the expression.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var column: Int
        public var message: String
        public var description: String { "column \(column): \(message)" }
    }

    /// The most tokens an expression may have. Far beyond any real filter; it bounds the depth
    /// of the parsed tree (a chain of `&&` or `+` nests one level per operator), which parsing,
    /// evaluation and destruction walk recursively.
    public static let maximumTokens = 2_000

    /// The deepest nesting of parentheses, `!` and unary `-`: a filter nested deeper than this is
    /// refused rather than allowed to exhaust the stack (found by fuzzing, issue 8).
    public static let maximumNesting = 100

    /// Parses `text`, whose names refer to `subject`.
    ///
    /// - Throws: ``ParseError`` pointing at the offending column, also for an expression longer
    ///   than ``maximumTokens`` or nested deeper than ``maximumNesting``.
    public init(_ text: String, over subject: Subject = .fixes) throws(ParseError) {
        self.text = text
        var parser = Parser(text, subject: subject)
        root = try parser.parseAll()
    }

    public var description: String { text }

    /// Whether a fix with these field values passes.
    ///
    /// - Parameter value: the value of a field, or `nil` when the fix has none.
    public func accepts(_ value: (FixField) -> Double?) -> Bool {
        evaluate(root) { name in
            guard case .field(let f) = name, let v = value(f) else { return nil }
            return .number(v)
        }
    }

    /// Whether this where-clause selects a fence with these values.
    ///
    /// - Parameter value: the value of `id`, `zone`, `name` or a property, or `nil` when the
    ///   fence has none.
    public func selects(_ value: (String) -> Scalar?) -> Bool {
        evaluate(root) { name in
            guard case .property(let key) = name else { return nil }
            return value(key)
        }
    }

    /// A name's value, or `nil` when absent.
    typealias Lookup = (Value) -> Scalar?

    func evaluate(_ node: Node, _ lookup: Lookup) -> Bool {
        switch node {
        case .constant(let b): return b
        case .not(let n): return !evaluate(n, lookup)
        case .and(let a, let b): return evaluate(a, lookup) && evaluate(b, lookup)
        case .or(let a, let b): return evaluate(a, lookup) || evaluate(b, lookup)
        case .compare(let l, let op, let r):
            guard let x = scalar(l, lookup), let y = scalar(r, lookup) else { return false }
            return FilterExpression.compare(x, op, y)
        case .isNull(let v, let negated):
            let isNull = scalar(v, lookup).map { $0 == .null } ?? true
            return isNull != negated
        case .oneOf(let v, let list, let negated):
            guard let x = scalar(v, lookup), x != .null else { return false }
            let found = list.contains { scalar($0, lookup).map { FilterExpression.compare(x, .equal, $0) } ?? false }
            return found != negated
        }
    }

    /// `x op y` for two values: false when either is null or their types differ.
    static func compare(_ x: Scalar, _ op: Comparison, _ y: Scalar) -> Bool {
        switch (x, y) {
        case (.number(let a), .number(let b)): return order(a, op, b)
        case (.string(let a), .string(let b)):
            // By Unicode scalars (not by canonical equivalence): what a user typed and what a
            // file holds compare as their code points do.
            let relation =
                a.unicodeScalars.elementsEqual(b.unicodeScalars) ? 0 : a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars) ? -1 : 1
            return order(relation, op, 0)
        case (.boolean(let a), .boolean(let b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: return false
            }
        default: return false
        }
    }

    @inline(__always)
    static func order<T: Comparable>(_ x: T, _ op: Comparison, _ y: T) -> Bool {
        switch op {
        case .less: return x < y
        case .lessOrEqual: return x <= y
        case .greater: return x > y
        case .greaterOrEqual: return x >= y
        case .equal: return x == y
        case .notEqual: return x != y
        }
    }

    func scalar(_ v: Value, _ lookup: Lookup) -> Scalar? {
        switch v {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .boolean(let b): return .boolean(b)
        case .field, .property: return lookup(v)
        case .negate(let a):
            guard case .number(let x)? = scalar(a, lookup) else { return nil }
            return .number(-x)
        case .arithmetic(let a, let op, let b):
            guard case .number(let x)? = scalar(a, lookup), case .number(let y)? = scalar(b, lookup) else { return nil }
            switch op {
            case .add: return .number(x + y)
            case .subtract: return .number(x - y)
            case .multiply: return .number(x * y)
            case .divide: return y == 0 ? nil : .number(x / y)
            }
        }
    }

    /// The fields the expression reads.
    public var fields: Set<FixField> {
        var out = Set<FixField>()
        func visit(_ v: Value) {
            switch v {
            case .number, .string, .boolean, .property: break
            case .field(let f): out.insert(f)
            case .negate(let a): visit(a)
            case .arithmetic(let a, _, let b):
                visit(a)
                visit(b)
            }
        }
        func visit(_ n: Node) {
            switch n {
            case .constant: break
            case .not(let a): visit(a)
            case .and(let a, let b), .or(let a, let b):
                visit(a)
                visit(b)
            case .compare(let a, _, let b):
                visit(a)
                visit(b)
            case .isNull(let a, _): visit(a)
            case .oneOf(let a, let list, _):
                visit(a)
                list.forEach(visit)
            }
        }
        visit(root)
        return out
    }
}

extension FilterExpression {
    struct Token: Hashable {
        enum Kind: Hashable {
            /// A number; a word (a name or a keyword); a `"quoted name"`; a `'string'`.
            case number(Double)
            case identifier(String)
            case quotedName(String)
            case string(String)
            case symbol(String)
            case end
        }
        var kind: Kind
        var column: Int
    }

    struct Parser {
        var tokens: [Token] = []
        var position = 0
        var lexError: ParseError?
        /// How many parentheses, `!` and unary `-` enclose the current position.
        var nesting = 0

        let subject: Subject

        init(_ text: String, subject: Subject) {
            self.subject = subject
            let chars = Array(text)
            var i = 0
            func column(_ index: Int) -> Int { index + 1 }
            while i < chars.count {
                let c = chars[i]
                if tokens.count >= FilterExpression.maximumTokens, !c.isWhitespace {
                    lexError = ParseError(column: column(i), message: "the filter has more than \(FilterExpression.maximumTokens) tokens")
                    return
                }
                if c.isWhitespace {
                    i += 1
                    continue
                }
                if c.isNumber || (c == "." && i + 1 < chars.count && chars[i + 1].isNumber) {
                    let start = i
                    while i < chars.count, chars[i].isNumber || chars[i] == "." { i += 1 }
                    if i < chars.count, chars[i] == "e" || chars[i] == "E" {
                        var j = i + 1
                        if j < chars.count, chars[j] == "+" || chars[j] == "-" { j += 1 }
                        if j < chars.count, chars[j].isNumber {
                            i = j
                            while i < chars.count, chars[i].isNumber { i += 1 }
                        }
                    }
                    let literal = String(chars[start..<i])
                    guard let value = Double(literal) else {
                        lexError = ParseError(column: column(start), message: "\"\(literal)\" is not a number")
                        return
                    }
                    tokens.append(Token(kind: .number(value), column: column(start)))
                    continue
                }
                if c.isLetter || c == "_" {
                    let start = i
                    while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "." { i += 1 }
                    tokens.append(Token(kind: .identifier(String(chars[start..<i])), column: column(start)))
                    continue
                }
                if c == "'" || c == "\"" {
                    // A string, or a quoted name; the quote doubled stands for itself.
                    let start = i
                    var content = ""
                    var closed = false
                    i += 1
                    while i < chars.count {
                        if chars[i] == c {
                            if i + 1 < chars.count, chars[i + 1] == c {
                                content.append(c)
                                i += 2
                                continue
                            }
                            closed = true
                            i += 1
                            break
                        }
                        content.append(chars[i])
                        i += 1
                    }
                    guard closed else {
                        lexError = ParseError(
                            column: column(start), message: c == "'" ? "the string has no closing '" : "the quoted name has no closing \"")
                        return
                    }
                    tokens.append(Token(kind: c == "'" ? .string(content) : .quotedName(content), column: column(start)))
                    continue
                }
                let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                if ["&&", "||", "<=", ">=", "==", "!=", "<>"].contains(two) {
                    // SQL's `<>` is `!=`.
                    tokens.append(Token(kind: .symbol(two == "<>" ? "!=" : two), column: column(i)))
                    i += 2
                    continue
                }
                if c == "=" {
                    // SQL's `=` is `==`.
                    tokens.append(Token(kind: .symbol("=="), column: column(i)))
                    i += 1
                    continue
                }
                if "<>!()+-*/,".contains(c) {
                    tokens.append(Token(kind: .symbol(String(c)), column: column(i)))
                    i += 1
                    continue
                }
                lexError = ParseError(column: column(i), message: "unexpected character '\(c)'")
                return
            }
            tokens.append(Token(kind: .end, column: column(chars.count)))
        }

        var current: Token { tokens[min(position, tokens.count - 1)] }

        func describe(_ token: Token) -> String {
            switch token.kind {
            case .number(let d): "number \(d)"
            case .identifier(let s): "'\(s)'"
            case .quotedName(let s): "the name \"\(s)\""
            case .string(let s): "the string '\(s)'"
            case .symbol(let s): "'\(s)'"
            case .end: "the end of the expression"
            }
        }

        mutating func parseAll() throws(ParseError) -> Node {
            if let lexError { throw lexError }
            guard tokens.count > 1 else { throw ParseError(column: 1, message: "the filter is empty") }
            let node = try parseOr()
            guard case .end = current.kind else {
                throw ParseError(column: current.column, message: "unexpected \(describe(current)); expected && or || or the end")
            }
            return node
        }

        /// Steps into one more level of nesting at the current token.
        mutating func nest() throws(ParseError) {
            nesting += 1
            guard nesting <= FilterExpression.maximumNesting else {
                throw ParseError(column: current.column, message: "the filter nests deeper than \(FilterExpression.maximumNesting) levels")
            }
        }

        func isSymbol(_ s: String) -> Bool { current.kind == .symbol(s) }
        func isWord(_ w: String) -> Bool { Parser.isWord(current, w) }
        static func isWord(_ token: Token, _ w: String) -> Bool {
            if case .identifier(let id) = token.kind { return id.lowercased() == w }
            return false
        }

        mutating func parseOr() throws(ParseError) -> Node {
            var left = try parseAnd()
            while isSymbol("||") || isWord("or") {
                position += 1
                left = .or(left, try parseAnd())
            }
            return left
        }

        mutating func parseAnd() throws(ParseError) -> Node {
            var left = try parseNot()
            while isSymbol("&&") || isWord("and") {
                position += 1
                left = .and(left, try parseNot())
            }
            return left
        }

        mutating func parseNot() throws(ParseError) -> Node {
            if isSymbol("!") || isWord("not") {
                try nest()
                defer { nesting -= 1 }
                position += 1
                return .not(try parseNot())
            }
            return try parseComparison()
        }

        mutating func parseComparison() throws(ParseError) -> Node {
            // A parenthesised boolean, or a literal true/false.
            if isWord("true") || isWord("false") {
                let value = isWord("true")
                position += 1
                return .constant(value)
            }
            if isSymbol("("), let node = try tryParenthesisedBoolean() {
                return node
            }
            let start = current
            let left = try parseSum()
            if isWord("is") {
                position += 1
                let negated = isWord("not")
                if negated { position += 1 }
                guard isWord("null") else {
                    throw ParseError(
                        column: current.column, message: "expected null after is\(negated ? " not" : ""), found \(describe(current))")
                }
                position += 1
                return .isNull(left, negated: negated)
            }
            if isWord("in") || (isWord("not") && Parser.isWord(next, "in")) {
                let negated = isWord("not")
                position += negated ? 2 : 1
                return .oneOf(left, try parseList(), negated: negated)
            }
            guard case .symbol(let s) = current.kind, let op = Comparison(rawValue: s) else {
                throw ParseError(
                    column: current.column,
                    message:
                        "expected a comparison (<, <=, >, >=, ==, !=), in or is null after the value at column \(start.column), found \(describe(current))"
                )
            }
            position += 1
            let right = try parseSum()
            return .compare(left, op, right)
        }

        /// The token after the current one.
        var next: Token { tokens[min(position + 1, tokens.count - 1)] }

        /// `( value, … )` after `in`.
        mutating func parseList() throws(ParseError) -> [Value] {
            guard isSymbol("(") else {
                throw ParseError(column: current.column, message: "expected '(' and a list of values after in, found \(describe(current))")
            }
            try nest()
            defer { nesting -= 1 }
            position += 1
            var values = [try parseSum()]
            while isSymbol(",") {
                position += 1
                values.append(try parseSum())
            }
            guard isSymbol(")") else {
                throw ParseError(column: current.column, message: "expected ',' or ')' in the list, found \(describe(current))")
            }
            position += 1
            return values
        }

        /// Parses `( boolean )` when the parenthesis holds a boolean expression; rewinds and
        /// returns `nil` when it holds an arithmetic value such as `(speed * 3.6) < 50`.
        mutating func tryParenthesisedBoolean() throws(ParseError) -> Node? {
            let saved = position
            try nest()
            defer { nesting -= 1 }
            position += 1
            do throws(ParseError) {
                let node = try parseOr()
                guard isSymbol(")") else {
                    throw ParseError(column: current.column, message: "expected ')', found \(describe(current))")
                }
                position += 1
                return node
            } catch {
                position = saved
                // Try again as an arithmetic value; if that fails too, report the first error.
                var probe = self
                probe.position = saved
                // The probe's parseUnary counts this parenthesis itself.
                probe.nesting -= 1
                if (try? probe.parseSum()) != nil { return nil }
                throw error
            }
        }

        mutating func parseSum() throws(ParseError) -> Value {
            var left = try parseProduct()
            while case .symbol(let s) = current.kind, s == "+" || s == "-" {
                position += 1
                left = .arithmetic(left, s == "+" ? .add : .subtract, try parseProduct())
            }
            return left
        }

        mutating func parseProduct() throws(ParseError) -> Value {
            var left = try parseUnary()
            while case .symbol(let s) = current.kind, s == "*" || s == "/" {
                position += 1
                left = .arithmetic(left, s == "*" ? .multiply : .divide, try parseUnary())
            }
            return left
        }

        mutating func parseUnary() throws(ParseError) -> Value {
            if isSymbol("-") {
                try nest()
                defer { nesting -= 1 }
                position += 1
                return .negate(try parseUnary())
            }
            let token = current
            switch token.kind {
            case .number(let d):
                position += 1
                return .number(d)
            case .identifier(let word) where ["true", "false", "null"].contains(word.lowercased()):
                guard subject == .fences, word.lowercased() != "null" else {
                    throw ParseError(
                        column: token.column,
                        message: word.lowercased() == "null"
                            ? "compare with null by 'is null' or 'is not null'"
                            : "fix fields are numbers: '\(word)' is not one")
                }
                position += 1
                return .boolean(word.lowercased() == "true")
            case .identifier(let name), .quotedName(let name):
                position += 1
                return try resolve(name, at: token)
            case .string(let text):
                guard subject == .fences else {
                    throw ParseError(column: token.column, message: "fix fields are numbers: the string '\(text)' is not one")
                }
                position += 1
                return .string(text)
            case .symbol("("):
                try nest()
                defer { nesting -= 1 }
                position += 1
                let v = try parseSum()
                guard isSymbol(")") else {
                    throw ParseError(column: current.column, message: "expected ')', found \(describe(current))")
                }
                position += 1
                return v
            default:
                throw ParseError(
                    column: token.column,
                    message: subject == .fixes
                        ? "expected a number or a fix field, found \(describe(token))"
                        : "expected a value or a property, found \(describe(token))")
            }
        }

        /// What a name stands for: a fix field, or a fence's property.
        func resolve(_ name: String, at token: Token) throws(ParseError) -> Value {
            switch subject {
            case .fences:
                guard !name.isEmpty else { throw ParseError(column: token.column, message: "the quoted name is empty") }
                return .property(name)
            case .fixes:
                guard let field = FixField.named(name) else {
                    let known = FixField.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ParseError(column: token.column, message: "unknown field '\(name)' (known: \(known))")
                }
                return .field(field)
            }
        }
    }
}
