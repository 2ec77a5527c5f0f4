/// A boolean expression over fix fields that decides whether a fix is used (the ArcGIS feed
/// filter, e.g. `accuracy <= 10 && speed < 40`).
///
/// Grammar: `||` / `or`, `&&` / `and`, `!` / `not`, comparisons `< <= > >= == !=`, arithmetic
/// `+ - * /`, parentheses, numbers, `true`, `false`, and the fields of ``FixField``. A comparison
/// with a field the fix does not have (a trace without speed) is false, so `speed < 40` rejects
/// fixes without speed while `!(speed >= 40)` keeps them.
public struct FilterExpression: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    let root: Node

    indirect enum Node: Hashable, Sendable {
        case constant(Bool)
        case not(Node)
        case and(Node, Node)
        case or(Node, Node)
        case compare(Value, Comparison, Value)
    }

    indirect enum Value: Hashable, Sendable {
        case number(Double)
        case field(FixField)
        case arithmetic(Value, Arithmetic, Value)
        case negate(Value)
    }

    enum Comparison: String, Hashable, Sendable {
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "==", notEqual = "!="
    }

    enum Arithmetic: String, Hashable, Sendable {
        case add = "+", subtract = "-", multiply = "*", divide = "/"
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

    /// Parses `text`.
    ///
    /// - Throws: ``ParseError`` pointing at the offending column, also for an expression longer
    ///   than ``maximumTokens`` or nested deeper than ``maximumNesting``.
    public init(_ text: String) throws(ParseError) {
        self.text = text
        var parser = Parser(text)
        root = try parser.parseAll()
    }

    public var description: String { text }

    /// Whether a fix with these field values passes.
    ///
    /// - Parameter value: the value of a field, or `nil` when the fix has none.
    public func accepts(_ value: (FixField) -> Double?) -> Bool {
        evaluate(root, value)
    }

    func evaluate(_ node: Node, _ value: (FixField) -> Double?) -> Bool {
        switch node {
        case .constant(let b): return b
        case .not(let n): return !evaluate(n, value)
        case .and(let a, let b): return evaluate(a, value) && evaluate(b, value)
        case .or(let a, let b): return evaluate(a, value) || evaluate(b, value)
        case .compare(let l, let op, let r):
            guard let x = number(l, value), let y = number(r, value) else { return false }
            switch op {
            case .less: return x < y
            case .lessOrEqual: return x <= y
            case .greater: return x > y
            case .greaterOrEqual: return x >= y
            case .equal: return x == y
            case .notEqual: return x != y
            }
        }
    }

    func number(_ v: Value, _ value: (FixField) -> Double?) -> Double? {
        switch v {
        case .number(let d): return d
        case .field(let f): return value(f)
        case .negate(let a): return number(a, value).map { -$0 }
        case .arithmetic(let a, let op, let b):
            guard let x = number(a, value), let y = number(b, value) else { return nil }
            switch op {
            case .add: return x + y
            case .subtract: return x - y
            case .multiply: return x * y
            case .divide: return y == 0 ? nil : x / y
            }
        }
    }

    /// The fields the expression reads.
    public var fields: Set<FixField> {
        var out = Set<FixField>()
        func visit(_ v: Value) {
            switch v {
            case .number: break
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
            }
        }
        visit(root)
        return out
    }
}

extension FilterExpression {
    struct Token: Hashable {
        enum Kind: Hashable {
            case number(Double), identifier(String), symbol(String), end
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

        init(_ text: String) {
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
                let two = i + 1 < chars.count ? String(chars[i...(i + 1)]) : ""
                if ["&&", "||", "<=", ">=", "==", "!="].contains(two) {
                    tokens.append(Token(kind: .symbol(two), column: column(i)))
                    i += 2
                    continue
                }
                if "<>!()+-*/".contains(c) {
                    tokens.append(Token(kind: .symbol(String(c)), column: column(i)))
                    i += 1
                    continue
                }
                if c == "=" {
                    lexError = ParseError(column: column(i), message: "use == to compare")
                    return
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
        func isWord(_ w: String) -> Bool {
            if case .identifier(let id) = current.kind { return id.lowercased() == w }
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
            guard case .symbol(let s) = current.kind, let op = Comparison(rawValue: s) else {
                throw ParseError(column: current.column, message: "expected a comparison (<, <=, >, >=, ==, !=) after the value at column \(start.column), found \(describe(current))")
            }
            position += 1
            let right = try parseSum()
            return .compare(left, op, right)
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
            case .identifier(let name):
                guard let field = FixField.named(name) else {
                    let known = FixField.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ParseError(column: token.column, message: "unknown field '\(name)' (known: \(known))")
                }
                position += 1
                return .field(field)
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
                throw ParseError(column: token.column, message: "expected a number or a fix field, found \(describe(token))")
            }
        }
    }
}
