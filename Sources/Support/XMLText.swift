/// Text escaped for XML 1.0 and HTML content and attribute values (GPX, JUnit, SVG and the
/// HTML report): the five markup characters as references (`'` as `&#39;`, which XML and every
/// HTML read), tab, newline and carriage return kept, and the characters XML 1.0 cannot hold
/// (other controls, U+FFFE, U+FFFF) as U+FFFD.
public enum XMLText {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
