import Support

extension CSVColumnMapping {
    /// Parses a mapping written on the command line, e.g. `lat=Y,lon=X,time=t,speed=SPEED:kmh`.
    ///
    /// Grammar: comma-separated `field=column[:modifier]` items. A column is a header name
    /// (quote it with `"` when it contains `,` `:` or `=`) or a 1-based index. Fields: `lat`
    /// (`latitude`), `lon` (`lng`, `long`, `longitude`), `time`, `date`, `utcoffset`, `accuracy`
    /// (`acc`, `hacc`), `hdop`, `speed`, `course` (`bearing`, `heading`), `altitude` (`alt`, `ele`,
    /// `elevation`), `satellites` (`sat`, `sats`), `segment` (`group`), `trace` (`trajectory`, `device`, `uid`,
    /// `user`, `vehicle`, `id`), `ns`, `ew`; plus the
    /// item `header=yes|no`. Modifiers: for speed `ms` `kmh` `kn` `mph` (also `m/s` `km/h` `kt`
    /// `knots`); for altitude `m` `ft`; for time `iso8601` `epoch` `s` `ms` `us` `ns`.
    ///
    /// - Parameter source: how the text is named in messages (the option it came from).
    /// - Throws: ``Support/FencesimError`` `.usage` located at the 1-based character column of
    ///   the problem (`--columns:1:9: error: unknown field 'lattitude' ...`).
    public init(parsing text: String, source: String = "--columns") throws(FencesimError) {
        self.init()
        let characters = Array(text)
        var i = 0
        func fail(_ message: String, at position: Int) -> FencesimError {
            FencesimError(.usage, message, at: SourceLocation(file: source, line: 1, column: position + 1))
        }
        func skipSpaces() {
            while i < characters.count, characters[i] == " " || characters[i] == "\t" { i += 1 }
        }
        var seen: Set<Field> = []
        while true {
            skipSpaces()
            let keyStart = i
            while i < characters.count, characters[i] != "=", characters[i] != "," { i += 1 }
            let key = String(characters[keyStart..<i]).trimmingSpaces().lowercased()
            guard !key.isEmpty else {
                throw fail(i >= characters.count && keyStart == 0 ? "the column mapping is empty" : "expected 'field=column'", at: keyStart)
            }
            guard i < characters.count, characters[i] == "=" else {
                throw fail("expected '=' after '\(key)' (write field=column)", at: i)
            }
            i += 1
            skipSpaces()
            let valueStart = i
            var value = ""
            var quoted = false
            if i < characters.count, characters[i] == "\"" {
                quoted = true
                i += 1
                while i < characters.count, characters[i] != "\"" {
                    value.append(characters[i])
                    i += 1
                }
                guard i < characters.count else { throw fail("unterminated quoted column name", at: valueStart) }
                i += 1
            } else {
                while i < characters.count, characters[i] != ",", characters[i] != ":" {
                    value.append(characters[i])
                    i += 1
                }
                value = value.trimmingSpaces()
            }
            var modifier: String?
            var modifierStart = i
            if i < characters.count, characters[i] == ":" {
                i += 1
                modifierStart = i
                var text = ""
                while i < characters.count, characters[i] != "," {
                    text.append(characters[i])
                    i += 1
                }
                modifier = text.trimmingSpaces().lowercased()
            }
            skipSpaces()
            guard i >= characters.count || characters[i] == "," else {
                throw fail("unexpected '\(characters[i])' after the column name", at: i)
            }
            guard quoted || !value.isEmpty else { throw fail("no column given for '\(key)'", at: valueStart) }

            if key == "header" {
                switch value.lowercased() {
                case "yes", "true", "1": hasHeader = true
                case "no", "false", "0": hasHeader = false
                default: throw fail("header must be 'yes' or 'no', not '\(value)'", at: valueStart)
                }
            } else {
                guard let field = Self.field(named: key) else {
                    let known = Field.allCases.map(\.rawValue).joined(separator: ", ")
                    throw fail("unknown field '\(key)'; expected one of \(known), header", at: keyStart)
                }
                guard seen.insert(field).inserted else { throw fail("field '\(key)' is mapped twice", at: keyStart) }
                if !quoted, !value.isEmpty, value.allSatisfy(\.isASCIIDigitCharacter) {
                    guard let index = Int(value), index >= 1 else {
                        throw fail("column index must be 1 or more, not \(value)", at: valueStart)
                    }
                    columns[field] = .index(index)
                } else {
                    columns[field] = .name(value)
                }
                if let modifier {
                    try applyModifier(modifier, to: field, fail: { fail($0, at: modifierStart) })
                }
            }
            if i >= characters.count { break }
            i += 1  // the comma
        }
    }

    private mutating func applyModifier(_ modifier: String, to field: Field, fail: (String) -> FencesimError) throws(FencesimError) {
        switch field {
        case .speed:
            switch modifier {
            case "ms", "m/s", "mps": speedUnit = .metersPerSecond
            case "kmh", "km/h", "kph": speedUnit = .kilometersPerHour
            case "kn", "kt", "kts", "knots": speedUnit = .knots
            case "mph": speedUnit = .milesPerHour
            default: throw fail("unknown speed unit '\(modifier)'; expected ms, kmh, kn or mph")
            }
        case .altitude:
            switch modifier {
            case "m", "meters", "metres": altitudeUnit = .meters
            case "ft", "feet": altitudeUnit = .feet
            default: throw fail("unknown altitude unit '\(modifier)'; expected m or ft")
            }
        case .time:
            switch modifier {
            case "iso8601", "iso": timeFormat = .iso8601
            case "epoch": timeFormat = .epoch
            case "s", "epoch-s", "seconds": timeFormat = .epochSeconds
            case "ms", "epoch-ms", "milliseconds": timeFormat = .epochMilliseconds
            case "us", "epoch-us", "microseconds": timeFormat = .epochMicroseconds
            case "ns", "epoch-ns", "nanoseconds": timeFormat = .epochNanoseconds
            default: throw fail("unknown time format '\(modifier)'; expected iso8601, epoch, s, ms, us or ns")
            }
        default:
            throw fail("field '\(field)' takes no unit or format (found ':\(modifier)')")
        }
    }

    /// The field a mapping key names, with its aliases.
    static func field(named key: String) -> Field? {
        switch key {
        case "lat", "latitude": .latitude
        case "lon", "lng", "long", "longitude": .longitude
        case "time", "timestamp", "datetime": .time
        case "date": .date
        case "utcoffset", "offset", "utc-offset": .utcOffset
        case "accuracy", "acc", "hacc", "horizontal_accuracy": .accuracy
        case "hdop": .hdop
        case "speed": .speed
        case "course", "bearing", "heading": .course
        case "altitude", "alt", "ele", "elevation", "height": .altitude
        case "satellites", "sat", "sats": .satellites
        case "segment", "group": .segment
        case "trace", "trajectory", "device", "uid", "user", "vehicle", "id": .trace
        case "ns", "lat-ref", "n/s": .latitudeHemisphere
        case "ew", "lon-ref", "e/w": .longitudeHemisphere
        default: nil
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.unicodeScalars.first, Self.isTrimmed(first) { scalars = scalars.dropFirst() }
        while let last = scalars.unicodeScalars.last, Self.isTrimmed(last) { scalars = scalars.dropLast() }
        return String(scalars)
    }
}

extension String {
    /// White space, line breaks and NUL padding.
    fileprivate static func isTrimmed(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\0" || scalar == "\u{FEFF}"
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
