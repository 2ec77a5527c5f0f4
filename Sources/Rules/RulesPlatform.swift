/// Which rules engine fencesim reproduces where Adobe's mobile SDKs differ from each other or
/// from their documentation (SPEC §5; research/adobe-places-and-rules.md §2).
///
/// The platform decides two things: how tolerant loading is (research §2.1) and how matchers
/// coerce and compare values (research §2.3). Every divergence is documented where it is
/// implemented, with the research section it comes from:
///
/// | divergence | iOS | Android | where |
/// |---|---|---|---|
/// | unknown matcher, unusable value | dropped | file refused (one value) / false (several) | §2.1, `RuleSetDecoder` |
/// | consequence without id/type/detail | dropped | file refused | §2.1, `RuleSetDecoder` |
/// | group logic `AND` | kept, always false | read as `and` | §2.1, `RuleSetDecoder` |
/// | group whose conditions were all dropped | dropped | empty `and` true, `or` false | §2.1, `RuleSetDecoder` |
/// | missing `version` | file refused | version 0 | §2.1, `RuleSetDecoder` |
/// | historical `from`/`to` within 32 bits | bound | no bound | §2.4, `RuleSetDecoder` |
/// | missing key with `ne`, `nc`, `eq ""`, `eq false` | true (`""` coerced) | false | §2.3, `Coercion` |
/// | `gt`/`ge`/`lt`/`le` with a string value | false | compared as numbers | §2.3, `MatcherEvaluator` |
/// | `co`/`nc`/`sw`/`ew` on numbers | false | `nc` true, others false | §2.3, `MatcherEvaluator` |
/// | `sw`/`ew` case folding | Unicode | ASCII only | §2.3, `MatcherEvaluator` |
/// | `values: []` | compared with `""` | only `ex`/`nx` | §2.3, `MatcherEvaluator` |
/// | several values of `ne`/`nc` | AND-ed (docs: OR-ed, seed 004) | AND-ed (docs: OR-ed) | §2.3, `Matcher` |
/// | integers | 64-bit | 32-bit (`int()` wraps or fails) | §2.3, `Coercion` |
/// | `string()` of a double | `1e+20` | `1.0E20` | §2.3, `NumberText` |
/// | `~timestampu` | Int | String (so `int()` fails after 2038) | §2.2, §4, `TokenFinder` |
/// | `~cachebust` | 1..<10^8 | 0..<10^8 | §2.2, `TokenFinder` |
/// | `~state.ext/a/b` | key `a/b` | key `a` | §2.2 (code reading), `TokenFinder` |
/// | `urlenc` of non-ASCII letters | kept | UTF-8 encoded | §2.5, `URLEncoding` |
///
/// Not reproduced: iOS dropping historical conditions from downloaded or bundled rules (research
/// §2.4 calls it an unconfirmed inference), the events evaluated twice before rules load (§2.6),
/// and Android's `Double.valueOf` parsing details beyond whitespace, `NaN`/`Infinity` and a
/// `d`/`f` suffix.
public enum RulesPlatform: String, Sendable, CaseIterable, CustomStringConvertible {
    /// The documented behaviour (AdobeDocs rules.json reference, seed 004). Loading is strict:
    /// anything either SDK would drop or refuse, and anything the documentation leaves undefined
    /// (a numeric matcher with a string value, a missing `values` list), is a located error.
    /// Evaluation follows the iOS coercions, except that a missing key satisfies only `nx` and
    /// that several values are OR-ed for every matcher, `ne` and `nc` included, as seed 004 says.
    case docs
    /// AEPCore for iOS 5.x (`LaunchRulesEngine` over `AEPRulesEngine`): drops malformed pieces,
    /// 64-bit integers, Unicode case folding, a missing key reads as `""` inside coercions.
    case ios
    /// AEP Core for Android 3.x: refuses the whole file for most malformed pieces, 32-bit
    /// integers, numeric comparison of strings, a missing key fails every comparison but `nx`.
    case android

    /// The option value: `docs`, `ios` or `android`.
    public var description: String { rawValue }

    /// The SDK the platform stands for, for messages ("as the iOS SDK does").
    var sdkName: String {
        switch self {
        case .docs: "documentation"
        case .ios: "iOS SDK"
        case .android: "Android SDK"
        }
    }

    /// The `~sdkver` value used when the caller supplies none: the SDK versions the research
    /// snapshots were taken from (research, table of sources: AEPCore 5.11.0, Core 3.8).
    public var defaultSDKVersion: String {
        switch self {
        case .docs, .ios: "5.11.0"
        case .android: "3.8.0"
        }
    }
}
