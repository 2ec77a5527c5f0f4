import Support

/// The state of one decode: problems found so far, for one platform's tolerance.
struct RuleSetDecoder {
    let source: SourceText
    let platform: RulesPlatform
    var errors: [Diagnostic] = []
    var errorCount = 0
    var warnings: [Diagnostic] = []

    init(source: SourceText, platform: RulesPlatform) {
        self.source = source
        self.platform = platform
    }

    /// What an SDK does with a malformed piece (research §2.1).
    enum Tolerance {
        /// The piece is left out; its parent goes on.
        case drop
        /// The whole file is refused.
        case refuse
    }

    func at(_ offset: Int) -> SourceLocation { source.location(ofOffset: offset) }

    mutating func error(_ message: String, _ offset: Int) {
        errorCount += 1
        if errors.count < RuleSet.maximumReportedProblems {
            errors.append(Diagnostic(.error, message, at: at(offset), kind: "rules"))
        }
    }

    mutating func warning(_ message: String, _ offset: Int) {
        warnings.append(Diagnostic(.warning, message, at: at(offset), kind: "rules"))
    }

    /// Reports a malformed piece: an error in docs mode; otherwise what the platform's SDK does
    /// with it — a warning when it is dropped, an error when the SDK refuses the file.
    ///
    /// - Parameter what: the piece a drop removes ("matcher", "consequence"), for the message.
    mutating func problem(_ message: String, _ offset: Int, ios: Tolerance, android: Tolerance, what: String) {
        let tolerance: Tolerance
        switch platform {
        case .docs:
            error(message, offset)
            return
        case .ios: tolerance = ios
        case .android: tolerance = android
        }
        switch tolerance {
        case .drop: warning("\(message): \(what) dropped, as the \(platform.sdkName) drops it", offset)
        case .refuse: error("\(message) (the \(platform.sdkName) refuses the whole file)", offset)
        }
    }

    /// Warns about members a decoder does not read.
    mutating func checkMembers(_ node: JSONNode, known: Set<String>, in place: String) {
        for member in node.members ?? [] where !known.contains(member.key) {
            warning("unknown member \"\(member.key)\" in \(place) ignored", member.keyOffset)
        }
    }

    // MARK: Root and rules

    mutating func decodeRoot(_ root: JSONNode) -> RuleSet {
        var ruleSet = RuleSet(file: source.file, version: 0, rules: [], platform: platform)
        guard root.members != nil else {
            error("expected a JSON object with \"version\" and \"rules\", found \(root.value.typeDescription)", root.offset)
            return ruleSet
        }
        checkMembers(root, known: ["version", "rules"], in: "the rules file")
        // iOS decodes `version: Int` (required); Android reads an optional string defaulting to
        // "0"; neither gates on the value (research §2.1).
        switch root.member("version") {
        case .some(let node) where node.intValue != nil:
            ruleSet.version = node.intValue ?? 0
        case .some(let node):
            if platform == .android {
                ruleSet.version = node.string.flatMap { Int64($0) } ?? 0
                if node.string == nil || Int64(node.string ?? "") == nil {
                    warning("\"version\" is \(node.value.typeDescription), not an integer: Android reads version 0", node.offset)
                }
            } else {
                problem(
                    "\"version\" must be an integer, found \(node.value.typeDescription)", node.offset, ios: .refuse, android: .drop,
                    what: "version")
            }
        case .none:
            if platform == .android {
                warning("no \"version\": Android reads version 0", root.offset)
            } else {
                problem(
                    "missing \"version\" (an integer, 1 for the current format)", root.offset, ios: .refuse, android: .drop, what: "version"
                )
            }
        }
        guard let rulesNode = root.member("rules") else {
            problem("missing \"rules\" (an array of rules)", root.offset, ios: .refuse, android: .refuse, what: "file")
            return ruleSet
        }
        guard let elements = rulesNode.elements else {
            problem(
                "\"rules\" must be an array, found \(rulesNode.value.typeDescription)", rulesNode.offset, ios: .refuse, android: .refuse,
                what: "file")
            return ruleSet
        }
        for (index, element) in elements.enumerated() {
            if let rule = decodeRule(element, index: index) { ruleSet.rules.append(rule) }
        }
        ruleSet.warnings = warnings
        return ruleSet
    }

    mutating func decodeRule(_ node: JSONNode, index: Int) -> Rule? {
        let name = "rule \(index + 1)"
        guard node.members != nil else {
            problem(
                "\(name) must be an object, found \(node.value.typeDescription)", node.offset, ios: .refuse, android: .refuse, what: "rule")
            return nil
        }
        checkMembers(node, known: ["condition", "consequences", "meta"], in: name)
        guard let conditionNode = node.member("condition") else {
            problem("\(name) has no \"condition\"", node.offset, ios: .refuse, android: .refuse, what: "rule")
            return nil
        }
        guard let consequencesNode = node.member("consequences") else {
            problem("\(name) has no \"consequences\"", node.offset, ios: .refuse, android: .refuse, what: "rule")
            return nil
        }
        let condition = decodeCondition(conditionNode)
        var consequences: [Consequence] = []
        if let elements = consequencesNode.elements {
            for element in elements {
                if let consequence = decodeConsequence(element) { consequences.append(consequence) }
            }
        } else {
            problem(
                "\"consequences\" of \(name) must be an array, found \(consequencesNode.value.typeDescription)", consequencesNode.offset,
                ios: .refuse, android: .refuse, what: "rule")
        }
        guard let condition else {
            switch platform {
            case .docs:
                break  // the dropped piece is already an error
            case .ios:
                // JSONRuleRoot.convert keeps a rule only when its condition converts.
                warning("\(name) dropped: nothing is left of its condition, as the iOS SDK drops it", conditionNode.offset)
            case .android:
                // A null root condition fails the whole file (JSONRuleRoot.toLaunchRules).
                error("\(name) has no usable condition left (the Android SDK refuses the whole file)", conditionNode.offset)
            }
            return nil
        }
        return Rule(index: index, condition: condition, consequences: consequences, location: at(node.offset))
    }

    mutating func decodeConsequence(_ node: JSONNode) -> Consequence? {
        guard node.members != nil else {
            problem(
                "a consequence must be an object, found \(node.value.typeDescription)", node.offset, ios: .refuse, android: .refuse,
                what: "consequence")
            return nil
        }
        checkMembers(node, known: ["id", "type", "detail"], in: "a consequence")
        // iOS drops a consequence without id, type or object detail; Android refuses the file
        // (research §2.1).
        guard let id = node.member("id")?.string else {
            problem(
                "consequence has no \"id\" string", node.member("id")?.offset ?? node.offset, ios: .drop, android: .refuse,
                what: "consequence")
            return nil
        }
        guard let typeNode = node.member("type"), let type = typeNode.string else {
            problem(
                "consequence \"\(id)\" has no \"type\" string", node.member("type")?.offset ?? node.offset, ios: .drop, android: .refuse,
                what: "consequence")
            return nil
        }
        guard let detail = node.member("detail"), detail.members != nil else {
            problem(
                "consequence \"\(id)\" has no \"detail\" object", node.member("detail")?.offset ?? node.offset, ios: .drop,
                android: .refuse, what: "consequence")
            return nil
        }
        if platform == .docs && !Consequence.knownTypes.contains(type) {
            warning(
                "consequence \"\(id)\" has the undocumented type \"\(type)\": it is recorded as a rule consequence event", typeNode.offset)
        }
        return Consequence(id: id, type: type, detail: detail.value, location: at(node.offset))
    }

    // MARK: Conditions

    mutating func decodeCondition(_ node: JSONNode) -> Condition? {
        guard node.members != nil else {
            problem(
                "a condition must be an object, found \(node.value.typeDescription)", node.offset, ios: .refuse, android: .refuse,
                what: "condition")
            return nil
        }
        checkMembers(node, known: ["type", "definition"], in: "a condition")
        // An unknown or missing type fails the whole file on both platforms: iOS through the
        // `ConditionType` enum decode, Android because any failing rule fails the file (§2.1).
        guard let typeNode = node.member("type") else {
            problem(
                "condition has no \"type\" (group, matcher or historical)", node.offset, ios: .refuse, android: .refuse, what: "condition")
            return nil
        }
        guard let type = typeNode.string, ["group", "matcher", "historical"].contains(type) else {
            let found = typeNode.string.map { "\"\($0)\"" } ?? typeNode.value.typeDescription
            problem(
                "unknown condition type \(found) (expected group, matcher or historical)", typeNode.offset,
                ios: .refuse, android: .refuse, what: "condition")
            return nil
        }
        guard let definition = node.member("definition"), definition.members != nil else {
            problem(
                "\(type) condition has no \"definition\" object", node.member("definition")?.offset ?? node.offset,
                ios: .refuse, android: .refuse, what: "condition")
            return nil
        }
        let location = at(node.offset)
        switch type {
        case "group": return decodeGroup(definition, location: location)
        case "matcher": return decodeMatcher(definition, location: location)
        default: return decodeHistorical(definition, location: location)
        }
    }

    mutating func decodeGroup(_ definition: JSONNode, location: SourceLocation) -> Condition? {
        checkMembers(definition, known: ["logic", "conditions"], in: "a group definition")
        guard let logicNode = definition.member("logic") else {
            problem("group has no \"logic\"", definition.offset, ios: .drop, android: .drop, what: "group")
            return nil
        }
        guard let logicText = logicNode.string else {
            problem(
                "group \"logic\" must be a string, found \(logicNode.value.typeDescription)", logicNode.offset,
                ios: .refuse, android: .drop, what: "group")
            return nil
        }
        let logic: GroupLogic
        switch (platform, logicText) {
        case (_, "and"): logic = .and
        case (_, "or"): logic = .or
        case (.android, _) where ["and", "or"].contains(logicText.lowercased()):
            // Android lower-cases the logic string (research §2.1).
            logic = logicText.lowercased() == "and" ? .and : .or
        case (.ios, _):
            // iOS keeps the group; its LogicalExpression evaluates an unknown operator to false.
            logic = .unrecognized(logicText)
            warning(
                "group logic \"\(logicText)\" is neither \"and\" nor \"or\": the iOS SDK evaluates this group to false", logicNode.offset)
        default:
            problem(
                "group logic \"\(logicText)\" is neither \"and\" nor \"or\"", logicNode.offset, ios: .drop, android: .drop, what: "group")
            return nil
        }
        guard let conditionsNode = definition.member("conditions") else {
            problem("group has no \"conditions\"", definition.offset, ios: .drop, android: .drop, what: "group")
            return nil
        }
        guard let elements = conditionsNode.elements else {
            problem(
                "group \"conditions\" must be an array, found \(conditionsNode.value.typeDescription)", conditionsNode.offset,
                ios: .refuse, android: .drop, what: "group")
            return nil
        }
        guard !elements.isEmpty else {
            problem("group has no conditions", conditionsNode.offset, ios: .drop, android: .drop, what: "group")
            return nil
        }
        let conditions = elements.compactMap { decodeCondition($0) }
        if conditions.isEmpty {
            switch platform {
            case .docs:
                break  // each dropped condition is already an error
            case .ios:
                warning("group dropped: every one of its conditions was dropped, as the iOS SDK drops it", conditionsNode.offset)
                return nil
            case .android:
                // LogicalExpression skips null operands: an `and` of none is true, an `or` false.
                warning(
                    "every condition of this group was dropped: the Android SDK evaluates the empty \(logic) to \(logic == .and)",
                    conditionsNode.offset)
            }
        }
        return .group(logic: logic, conditions: conditions, location: location)
    }

    mutating func decodeMatcher(_ definition: JSONNode, location: SourceLocation) -> Condition? {
        checkMembers(definition, known: ["key", "matcher", "values"], in: "a matcher definition")
        guard let keyNode = definition.member("key") else {
            problem("matcher has no \"key\"", definition.offset, ios: .drop, android: .drop, what: "matcher")
            return nil
        }
        guard let key = keyNode.string else {
            problem(
                "matcher \"key\" must be a string, found \(keyNode.value.typeDescription)", keyNode.offset, ios: .refuse, android: .drop,
                what: "matcher")
            return nil
        }
        guard let matcherNode = definition.member("matcher") else {
            problem("matcher on \"\(key)\" has no \"matcher\"", definition.offset, ios: .drop, android: .drop, what: "matcher")
            return nil
        }
        guard let matcherName = matcherNode.string else {
            problem(
                "\"matcher\" must be a string, found \(matcherNode.value.typeDescription)", matcherNode.offset, ios: .refuse,
                android: .drop, what: "matcher")
            return nil
        }
        var valueNodes: [JSONNode] = []
        if let valuesNode = definition.member("values") {
            if let elements = valuesNode.elements {
                valueNodes = elements
            } else if platform == .android {
                warning(
                    "\"values\" must be an array, found \(valuesNode.value.typeDescription): Android reads no values", valuesNode.offset)
            } else {
                problem(
                    "\"values\" must be an array, found \(valuesNode.value.typeDescription)", valuesNode.offset, ios: .refuse,
                    android: .drop, what: "matcher")
                return nil
            }
        }
        guard let matcher = Matcher(rawValue: matcherName) else {
            let message = "unknown matcher \"\(matcherName)\" (expected one of \(Matcher.namesForMessages))"
            if platform == .android && valueNodes.count >= 2 {
                // MatcherCondition builds an `or` of null operands for several values, which is
                // false; with one value the operand itself is null (research §2.1).
                warning(message + ": the Android SDK evaluates it to false (an or of nothing)", matcherNode.offset)
                return .group(logic: .or, conditions: [], location: location)
            }
            problem(message, matcherNode.offset, ios: .drop, android: .drop, what: "matcher")
            return nil
        }
        var values: [JSONValue] = []
        for node in valueNodes {
            switch node.value {
            case .string, .int, .double, .bool:
                values.append(node.value)
            case .null, .array, .object:
                if platform == .android {
                    // Kept: a null builds a unary expression, other values compare with the raw key.
                    if !matcher.testsPresence {
                        warning("\(matcher) value \(JSONWriter.string(node.value)) never matches on Android", node.offset)
                    }
                    values.append(node.value)
                } else {
                    // iOS `convert(key:matcher:anyCodable:)` returns nil for these.
                    problem(
                        "\(matcher) value \(JSONWriter.string(node.value)) is not a string, number or boolean", node.offset,
                        ios: .drop, android: .drop, what: "value")
                }
            }
        }
        if platform == .ios && !valueNodes.isEmpty && values.isEmpty {
            warning("matcher on \"\(key)\" dropped: none of its values is usable, as the iOS SDK drops it", keyNode.offset)
            return nil
        }
        if platform == .docs { checkDocumented(matcher, key: key, values: values, definition: definition, valueNodes: valueNodes) }
        return .matcher(key: key, matcher: matcher, values: values, location: location)
    }

    /// Docs mode: what the documentation leaves undefined is an error (seed 004 "Matcher types":
    /// `gt ge lt le` apply to numbers, `co nc sw ew` to strings, every matcher but `ex`/`nx`
    /// compares with values).
    private mutating func checkDocumented(
        _ matcher: Matcher, key: String, values: [JSONValue], definition: JSONNode, valueNodes: [JSONNode]
    ) {
        if values.isEmpty && !matcher.testsPresence {
            error(
                "\(matcher) on \"\(key)\" has no values (iOS compares with \"\", Android never matches; --rules-platform reproduces either)",
                definition.member("values")?.offset ?? definition.offset)
        }
        if (matcher == .ne || matcher == .nc) && values.count > 1 {
            warning(
                "\(matcher) on \"\(key)\" with \(values.count) values: OR-ed as the documentation says, so it holds when the key differs from any one of them; the iOS and Android SDKs AND them (--rules-platform ios or android)",
                definition.member("matcher")?.offset ?? definition.offset)
        }
        for node in valueNodes where TokenValue(leaf: node.value) != nil {
            let isString = node.string != nil
            let isNumber = node.number != nil
            if matcher.isNumericOnly && isString {
                error(
                    "\(matcher) compares numbers, but its value \(JSONWriter.string(node.value)) is a string (iOS never matches it, Android compares it as a number; --rules-platform reproduces either)",
                    node.offset)
            } else if matcher.isNumericOnly && !isNumber {
                error(
                    "\(matcher) compares numbers, but its value \(JSONWriter.string(node.value)) is \(node.value.typeDescription)",
                    node.offset)
            } else if matcher.isStringOnly && !isString {
                error(
                    "\(matcher) compares strings, but its value \(JSONWriter.string(node.value)) is not a string (iOS never matches it, Android's nc always matches it; --rules-platform reproduces either)",
                    node.offset)
            }
        }
    }

    mutating func decodeHistorical(_ definition: JSONNode, location: SourceLocation) -> Condition? {
        checkMembers(definition, known: ["events", "matcher", "value", "from", "to", "searchType"], in: "a historical definition")
        guard let eventsNode = definition.member("events") else {
            problem("historical condition has no \"events\"", definition.offset, ios: .drop, android: .drop, what: "historical condition")
            return nil
        }
        guard let eventNodes = eventsNode.elements, eventNodes.allSatisfy({ $0.members != nil }) else {
            problem(
                "historical \"events\" must be an array of objects", eventsNode.offset, ios: .refuse, android: .drop,
                what: "historical condition")
            return nil
        }
        guard let matcherNode = definition.member("matcher") else {
            problem("historical condition has no \"matcher\"", definition.offset, ios: .drop, android: .drop, what: "historical condition")
            return nil
        }
        guard let matcherName = matcherNode.string else {
            problem(
                "historical \"matcher\" must be a string", matcherNode.offset, ios: .refuse, android: .drop, what: "historical condition")
            return nil
        }
        guard let matcher = Matcher(rawValue: matcherName) else {
            problem(
                "unknown matcher \"\(matcherName)\" (expected one of \(Matcher.namesForMessages))", matcherNode.offset,
                ios: .drop, android: .drop, what: "historical condition")
            return nil
        }
        guard let valueNode = definition.member("value"), let value = valueNode.intValue,
            platform != .android || Int64(Int32(truncatingIfNeeded: value)) == value
        else {
            // iOS needs `value.intValue`, Android an `Int` (32-bit).
            problem(
                "historical condition needs an integer \"value\"", definition.member("value")?.offset ?? definition.offset,
                ios: .drop, android: .drop, what: "historical condition")
            return nil
        }
        var searchType = HistoricalCondition.SearchType.any
        if let node = definition.member("searchType") {
            if let text = node.string, let known = HistoricalCondition.SearchType(rawValue: text) {
                searchType = known
            } else if platform == .docs {
                error("unknown searchType \(JSONWriter.string(node.value)) (expected any, ordered or mostRecent)", node.offset)
            } else if node.string == nil && platform == .ios {
                problem(
                    "historical \"searchType\" must be a string", node.offset, ios: .refuse, android: .drop, what: "historical condition")
                return nil
            } else {
                warning("unknown searchType \(JSONWriter.string(node.value)): the \(platform.sdkName) searches with any", node.offset)
            }
        }
        var bounds: [Int64?] = []
        for name in ["from", "to"] {
            guard let node = definition.member(name) else {
                bounds.append(nil)
                continue
            }
            guard let milliseconds = node.intValue else {
                if platform == .android {
                    warning("historical \"\(name)\" is not an integer: Android reads 0, no bound", node.offset)
                    bounds.append(nil)
                    continue
                }
                problem(
                    "historical \"\(name)\" must be an integer of milliseconds", node.offset, ios: .refuse, android: .drop,
                    what: "historical condition")
                return nil
            }
            if platform == .android && Int64(Int32(truncatingIfNeeded: milliseconds)) == milliseconds {
                // `opt(...) as? Long` misses numbers org.json parsed as Integer: 0, no bound
                // (research §2.4, code reading).
                warning("historical \"\(name)\" \(milliseconds) fits in 32 bits: Android reads it as 0, no bound", node.offset)
                bounds.append(nil)
                continue
            }
            bounds.append(milliseconds)
        }
        let historical = HistoricalCondition(
            events: eventNodes.map(\.value), searchType: searchType, matcher: matcher, value: value,
            fromMilliseconds: bounds[0], toMilliseconds: bounds[1])
        return .historical(historical, location: location)
    }
}
