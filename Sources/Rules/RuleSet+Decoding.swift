import Support

extension RuleSet {
    /// The most problems listed in one error.
    public static let maximumReportedProblems = 50

    /// Decodes the text of a rules.json for `platform`.
    ///
    /// With ``RulesPlatform/docs`` every malformed or undocumented piece is an error. With
    /// ``RulesPlatform/ios`` and ``RulesPlatform/android`` each piece is treated as that SDK
    /// treats it (research §2.1): dropped (with a located warning in ``RuleSet/warnings``; fencesim
    /// never drops silently) or refused with the whole file.
    ///
    /// - Parameters:
    ///   - source: the bytes and the file name used in locations.
    ///   - platform: whose tolerance to apply.
    /// - Throws: ``FencesimError`` `.badData`, located at the first problem, every other problem
    ///   in `related`.
    /// - Complexity: O(n) in the size of the file.
    public static func decode(_ source: SourceText, platform: RulesPlatform) throws(FencesimError) -> RuleSet {
        guard source.bytes.contains(where: { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }) else {
            throw FencesimError(
                .badData, "empty file: expected a rules.json object with \"version\" and \"rules\"",
                at: SourceLocation(file: source.file, line: 1, column: 1))
        }
        let root = try JSONParser.parse(source)
        var decoder = RuleSetDecoder(source: source, platform: platform)
        let ruleSet = decoder.decodeRoot(root)
        if let first = decoder.errors.first {
            var related = Array(decoder.errors.dropFirst())
            if decoder.errorCount > decoder.errors.count {
                related.append(Diagnostic(.note, "\(decoder.errorCount - decoder.errors.count) more problems not listed"))
            }
            throw FencesimError(.badData, first.message, at: first.location, related: related)
        }
        return ruleSet
    }
}
