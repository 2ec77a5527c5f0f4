/// The examples closing each command's `--help`: complete commands a newcomer can run from the
/// repository's root (or adapt), one per line.
enum HelpExamples {
    /// The help screen's width: longer lines would be wrapped by the help formatter.
    static let width = 78

    /// `\n\nExamples:` and each command indented, broken with ` \` continuations (outside
    /// quotes) so that each stays whole on an 80-column screen and can be pasted into a shell.
    static func text(_ commands: String...) -> String {
        "\n\nExamples:\n" + commands.map(lines).joined(separator: "\n")
    }

    private static func lines(_ command: String) -> String {
        var words: [String] = []
        var quoted = false
        var word = ""
        for c in command {
            if c == "\"" { quoted.toggle() }
            if c == " ", !quoted {
                words.append(word)
                word = ""
            } else {
                word.append(c)
            }
        }
        words.append(word)
        var out: [String] = []
        var line = "  "
        for w in words {
            let indent = out.isEmpty ? "  " : "      "
            if line.count > indent.count, line.count + 1 + w.count + 2 > width {
                out.append(line + " \\")
                line = "      " + w
            } else {
                line += (line.count > indent.count ? " " : "") + w
            }
        }
        out.append(line)
        return out.joined(separator: "\n")
    }
}
