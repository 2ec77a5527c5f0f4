import Support

/// A rule condition as decoded from rules.json: a group of conditions, a matcher on one key, or
/// a count over the event history (seed 004 "Condition object definition"; research §2.1, §2.4).
///
/// Pieces that the chosen platform drops are gone by the time a `Condition` exists; what is left
/// is exactly what that platform evaluates.
public indirect enum Condition: Sendable {
    /// All (`and`) or any (`or`) of the conditions, short-circuit, in order. An `and` over no
    /// conditions is true and an `or` over none is false: on Android a group whose every operand
    /// was dropped evaluates so (research §2.1, `LogicalExpression`).
    case group(logic: GroupLogic, conditions: [Condition], location: SourceLocation?)
    /// The value of `key` compared with each of `values` (OR-ed; AND-ed for `ne`/`nc` on the SDK
    /// platforms, ``Matcher/combinesValuesWithAnd(on:)``).
    case matcher(key: String, matcher: Matcher, values: [JSONValue], location: SourceLocation?)
    /// A count (or position) of past events compared with an integer.
    case historical(HistoricalCondition, location: SourceLocation?)

    /// Where the condition's `type` member is in the rules file.
    public var location: SourceLocation? {
        switch self {
        case .group(_, _, let location), .matcher(_, _, _, let location), .historical(_, let location):
            location
        }
    }
}
