extension String {
    /// The string without leading and trailing ASCII whitespace (Kotlin `trim()` on keys).
    var trimmingASCIIWhitespace: String {
        var scalars = Substring(self)
        while let c = scalars.unicodeScalars.first, c == " " || c == "\t" || c == "\n" || c == "\r" { scalars = scalars.dropFirst() }
        while let c = scalars.unicodeScalars.last, c == " " || c == "\t" || c == "\n" || c == "\r" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
