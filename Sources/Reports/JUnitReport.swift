import Support

/// JUnit XML for CI systems (SPEC §6.5): one `<testsuite>` with one `<testcase>` per scenario,
/// a `<failure>` holding the event diff of a mismatch and an `<error>` for a scenario that could
/// not be checked.
///
/// The document is deterministic: no timestamps, host names or durations (CI systems accept
/// test cases without `time`), cases in the order checked.
public struct JUnitReport: Sendable {
    /// How one test case ended.
    public enum Outcome: Sendable {
        case passed
        /// The check ran and failed: a one-line message and the full text (the diff).
        case failed(message: String, text: String)
        /// The check could not run (bad scenario, bad golden log, failing trace).
        case error(message: String, text: String)
    }

    /// One test case.
    public struct TestCase: Sendable {
        /// The scenario's path as given.
        public var name: String
        public var classname: String
        /// The scenario file.
        public var file: String?
        public var outcome: Outcome

        public init(name: String, classname: String = "fencesim.check", file: String? = nil, outcome: Outcome) {
            self.name = name
            self.classname = classname
            self.file = file
            self.outcome = outcome
        }
    }

    public var suiteName: String
    public var cases: [TestCase]

    public init(suiteName: String = "fencesim check", cases: [TestCase] = []) {
        self.suiteName = suiteName
        self.cases = cases
    }

    public var failures: Int { cases.count { if case .failed = $0.outcome { true } else { false } } }
    public var errors: Int { cases.count { if case .error = $0.outcome { true } else { false } } }

    /// The XML document.
    public var xml: String {
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"\(errors)\""
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"\(JUnitReport.escape(suiteName))\" \(counts)>\n"
        out += "  <testsuite name=\"\(JUnitReport.escape(suiteName))\" \(counts) skipped=\"0\">\n"
        for c in cases {
            var attributes = "classname=\"\(JUnitReport.escape(c.classname))\" name=\"\(JUnitReport.escape(c.name))\""
            if let file = c.file { attributes += " file=\"\(JUnitReport.escape(file))\"" }
            switch c.outcome {
            case .passed:
                out += "    <testcase \(attributes)/>\n"
            case .failed(let message, let text):
                out += "    <testcase \(attributes)>\n"
                out += "      <failure message=\"\(JUnitReport.escape(message))\" type=\"mismatch\">\(JUnitReport.escape(text))</failure>\n"
                out += "    </testcase>\n"
            case .error(let message, let text):
                out += "    <testcase \(attributes)>\n"
                out += "      <error message=\"\(JUnitReport.escape(message))\" type=\"error\">\(JUnitReport.escape(text))</error>\n"
                out += "    </testcase>\n"
            }
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// `text` escaped for XML 1.0 attribute values and content; characters XML 1.0 cannot hold
    /// (controls other than tab, newline and carriage return) become U+FFFD.
    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
