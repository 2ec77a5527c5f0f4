/// Percent-encoding for `{%urlenc(key)%}` and `~all_url` (research §2.5 "urlenc", §2.2).
enum URLEncoding {
    /// `urlenc`: keeps letters, digits and `-._~`, percent-encodes every other UTF-8 byte
    /// (`x y` → `x%20y`, the iOS functional test `testUrlenc`).
    ///
    /// iOS builds its allowed set from `CharacterSet.alphanumerics`, which is Unicode, so
    /// non-ASCII letters and digits stay as they are there *(research §2.5, inference)*; Android's
    /// `UrlEncoder` encodes them (`网` → `%E7%BD%91`).
    static func urlenc(_ text: String, platform: RulesPlatform) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if isUnreservedASCII(scalar) || (platform != .android && scalar.value >= 0x80 && isUnicodeAlphanumeric(scalar)) {
                out.unicodeScalars.append(scalar)
            } else {
                appendPercentEncoded(scalar, to: &out)
            }
        }
        return out
    }

    /// `~all_url`: `key=value` pairs joined with `&`, each pair percent-encoded with the URL query
    /// allowed set (`URLUtility.generateQueryString` on iOS: `"k=v".addingPercentEncoding(
    /// withAllowedCharacters: .urlQueryAllowed)`). Used on every platform: Android's
    /// `serializeToQueryString` is not pinned by the research. Pairs keep the data's member order
    /// (the SDKs iterate a hash map; fencesim keeps the output deterministic).
    static func queryString(_ pairs: [(key: String, value: String)]) -> String {
        pairs.map { pair in
            var out = ""
            for scalar in "\(pair.key)=\(pair.value)".unicodeScalars {
                if isQueryAllowed(scalar) { out.unicodeScalars.append(scalar) } else { appendPercentEncoded(scalar, to: &out) }
            }
            return out
        }.joined(separator: "&")
    }

    private static func isUnreservedASCII(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~": true
        default: false
        }
    }

    private static func isQueryAllowed(_ s: Unicode.Scalar) -> Bool {
        if isUnreservedASCII(s) { return true }
        switch s {
        case "!", "$", "&", "'", "(", ")", "*", "+", ",", "/", ":", ";", "=", "?", "@": return true
        default: return false
        }
    }

    /// Letters, marks and numbers (the categories of Foundation's `CharacterSet.alphanumerics`).
    private static func isUnicodeAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF")

    private static func appendPercentEncoded(_ scalar: Unicode.Scalar, to out: inout String) {
        for byte in String(scalar).utf8 {
            out.append("%")
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
    }
}
