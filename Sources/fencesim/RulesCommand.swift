import ArgumentParser
import Files
import Rules
import Support

/// `fencesim rules check|eval`: validate Adobe mobile rules and show what fires for an event
/// (SPEC §5, §7).
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Validate Adobe mobile rules (rules.json or a ZIP holding it) and evaluate them on an event.",
        subcommands: [Check.self, Eval.self]
    )

    /// The `--rules-platform` option shared by both subcommands.
    struct PlatformOption: ParsableArguments {
        @Option(
            name: .customLong("rules-platform"),
            help: ArgumentHelp(
                "docs (strict, the documented behaviour), ios or android (each SDK's tolerance and coercions).",
                valueName: "platform"))
        var name: String = RulesPlatform.docs.rawValue

        func validate() throws {
            guard RulesPlatform(rawValue: name) != nil else {
                throw ValidationError(
                    "--rules-platform must be one of \(RulesPlatform.allCases.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
            }
        }

        var platform: RulesPlatform { RulesPlatform(rawValue: name) ?? .docs }
    }

    /// `fencesim rules check FILE`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a rules file and print a summary.",
            discussion: """
                Prints one line: the rule and consequence counts and the consequences by type. \
                Pieces the chosen platform drops are reported as warnings on standard error; \
                problems the platform refuses (every problem with --rules-platform docs) are \
                located errors and exit 65.
                """
                    + HelpExamples.text(
                        "fencesim rules check rules/places-seed001.json", "fencesim rules check rules.zip --rules-platform android")
        )

        @Argument(help: "rules.json, or a ZIP archive holding it.")
        var file: String

        @OptionGroup var platformOption: PlatformOption

        func run() throws {
            try Terminal.run {
                let ruleSet = try RulesLoader.load(path: file, platform: platformOption.platform)
                for warning in ruleSet.warnings { Terminal.err(warning.description) }
                let types = ruleSet.consequenceTypeCounts.map { "\($0.type) \($0.count)" }.joined(separator: ", ")
                var line = "\(ruleSet.file): \(ruleSet.rules.count) rules, \(ruleSet.consequenceCount) consequences"
                if !types.isEmpty { line += " (\(types))" }
                line += "; version \(ruleSet.version), platform \(ruleSet.platform)"
                if !ruleSet.warnings.isEmpty { line += ", \(ruleSet.warnings.count) warnings" }
                Terminal.out(line + "\n")
            }
        }
    }

    /// `fencesim rules eval FILE --event EVENT.json`.
    struct Eval: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Evaluate rules on one event and print the consequences that fire.",
            discussion: """
                Prints each consequence that fires, in rule order, as one JSON line \
                {"id":...,"type":...,"detail":{...}} with its {%...%} tokens rendered. Events \
                created by dispatch consequences are evaluated next, as the SDK's event hub \
                would (they cannot dispatch further); their consequences carry \
                "dispatchedEvent": N. In-app messages (iam) are first-one-wins (seed 004): of \
                those one event fires, the first carries "shown": true and the others \
                "shown": false. Consequences that do nothing are reported on standard error.

                EVENT.json: {"name": ..., "type": ..., "source": ..., "data": {...}, "time": ISO-8601}; \
                type and source are required, "eventdata" is accepted for "data", an event \
                without data reads every key as "". A shared state file is a JSON object; \
                a history file is a JSON array of {"time": ..., "data": {...}, "mask": [...]}.

                With --explain, after the consequences: for each rule whether it matched and \
                why (each condition with the key's value, the coercion and the comparison), \
                then the event data after add/mod and each dispatched event.
                """
                    + HelpExamples.text(
                        "fencesim rules eval rules/places-seed001.json --event entry.json --explain",
                        "fencesim rules eval rules.json --event entry.json --shared-state com.adobe.module.places=places.json --time 2026-01-01T09:00:00Z"
                    )
        )

        @Argument(help: "rules.json, or a ZIP archive holding it.")
        var file: String

        @Option(help: ArgumentHelp("The triggering event (JSON).", valueName: "file"))
        var event: String

        @Option(
            name: .customLong("shared-state"),
            help: ArgumentHelp(
                "An extension's shared state, e.g. com.adobe.module.places=places.json; repeatable (default: none).",
                valueName: "name=file"))
        var sharedStates: [String] = []

        @Option(help: ArgumentHelp("Past events for historical conditions, a JSON array (default: no history).", valueName: "file"))
        var history: String?

        @OptionGroup var platformOption: PlatformOption

        @Flag(help: "Explain why each rule did or did not match.")
        var explain = false

        @Option(
            help: ArgumentHelp(
                "The simulated event time, ISO-8601 UTC (overrides the event file's time; default 1970-01-01T00:00:00Z). fencesim never reads the clock.",
                valueName: "time"))
        var time: String?

        @Option(help: ArgumentHelp("Seed of the generator ~cachebust draws from.", valueName: "n"))
        var seed: UInt64 = 0

        @Option(
            name: .customLong("sdk-version"),
            help: ArgumentHelp("The ~sdkver value (default: the platform's SDK version).", valueName: "version"))
        var sdkVersion: String?

        func validate() throws {
            for pair in sharedStates {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex, pair.index(after: equals) != pair.endIndex else {
                    throw ValidationError("--shared-state must be NAME=FILE, not \"\(pair)\"")
                }
            }
            let names = sharedStates.compactMap { $0.split(separator: "=", maxSplits: 1).first }
            if Set(names).count != names.count {
                throw ValidationError("--shared-state names each extension once")
            }
            if let time, case .failure(let failure) = Timestamp.parseISO8601(time) {
                throw ValidationError("--time: \(failure.message)")
            }
        }

        func run() throws {
            let platform = platformOption.platform
            var givenTime: Timestamp?
            if let time, case .success(let parsed) = Timestamp.parseISO8601(time) { givenTime = parsed }
            try Terminal.run {
                let ruleSet = try RulesLoader.load(path: file, platform: platform)
                for warning in ruleSet.warnings { Terminal.err(warning.description) }
                var triggering = try RuleEventReader.event(
                    SourceText(file: event, bytes: FileIO.readAll(event)),
                    defaultTime: Timestamp(seconds: 0))
                if let givenTime { triggering.time = givenTime }
                var context = RulesContext(sdkVersion: sdkVersion ?? platform.defaultSDKVersion)
                for pair in sharedStates {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    context.sharedStates[parts[0]] = try RuleEventReader.sharedState(
                        SourceText(file: parts[1], bytes: FileIO.readAll(parts[1])))
                }
                if let history {
                    context.history = try RuleEventReader.history(SourceText(file: history, bytes: FileIO.readAll(history)))
                }
                var rng = SplitMix64(seed: seed)
                let engine = RulesEngine(ruleSet: ruleSet, platform: platform)
                let outcomes = engine.evaluateWithDispatchedEvents(triggering, context: context, rng: &rng, explain: explain)
                var text = ""
                for (number, outcome) in outcomes.enumerated() {
                    for consequence in outcome.consequences where consequence.isApplied {
                        let extra: [(String, JSONValue)] = number == 0 ? [] : [("dispatchedEvent", .int(Int64(number)))]
                        text += JSONWriter.string(consequence.jsonObject(appending: extra)) + "\n"
                    }
                    for warning in outcome.warnings { Terminal.err(warning.description) }
                }
                if explain { text += Self.explanation(outcomes) }
                Terminal.out(text)
            }
        }

        static func explanation(_ outcomes: [RulesOutcome]) -> String {
            var lines: [String] = []
            for (number, outcome) in outcomes.enumerated() {
                let event = outcome.event
                let title = number == 0 ? "event" : "dispatched event \(number)"
                lines.append("\(title): \(event.type) \(event.source) at \(event.time)")
                for trace in outcome.explanation { lines += trace.lines }
                if number == 0 {
                    lines.append("event data after add/mod: " + (event.data.map(JSONWriter.string) ?? "none"))
                }
            }
            return lines.map { $0 + "\n" }.joined()
        }
    }
}
