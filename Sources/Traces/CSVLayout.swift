import Support

/// Where each field of a CSV trace is, in which unit, and which dialect the file speaks:
/// the outcome of header detection and of an explicit ``CSVColumnMapping``.
///
/// Header names are matched case-insensitively after trimming, ignoring spaces, `_`, `-` and `.`;
/// a unit in brackets or parentheses (`speed (km/h)`, `alt[ft]`) is read as the column's unit.
/// Recognised names, in order of preference when several columns match:
/// - latitude: `lat`, `latitude`, `latitude n/s` (hemisphere suffixed), `y` (only with `x`);
/// - longitude: `lon`, `lng`, `long`, `longitude`, `longitude e/w`, `x` (only with `y`);
/// - time: `time`, `timestamp`, `datetime`, `tracked_at`, `utc`, `gps_time`, `t`, and with a
///   date column `date` / `lcl date` the time column holds the time of day;
///   `utcofst` / `utc_offset` gives local times' offset from UTC (subtracted);
/// - accuracy: `accuracy`, `horizontal_accuracy`, `hacc`, `acc`; `hdop`;
/// - speed: `speed`, `spd`, `gndspd`, `velocity`, `sog`; course: `course`, `cog`, `trk`,
///   `bearing`, `heading`, `hdg`; altitude: `altitude`, `alt`, `ele`, `elevation`, `height`,
///   `altmsl`, `altgps`; satellites: `sat`, `sats`, `satellites`, `nsat`;
/// - segment: `segment_id`, `segment`;
/// - trace (one device or trajectory per value, see ``TraceReader/traces(path:options:)``):
///   `trajectory_id`, `traj_id`, `track_id`, `trip_id`, `device_id`, `device`, `vehicle_id`,
///   `vehicle`, `taxi_id`, `uid`, `user_id`, `user`, `trajectory`, `id`; without a segment
///   column, a change of its value also starts a new segment when the file is read whole
///   (but for a plain `id`, which often numbers rows);
/// - hemispheres: `n/s` and `e/w` columns.
///
/// Units, first rule that applies: the column mapping; a unit suffix on the value
/// (`374.812 m`, `0.865 km/h`); a unit in the header name; a units row (a `#` comment line just
/// before the header with one unit per column, as the Garmin G1000 writes: `kt`, `ft msl`);
/// the dialect (Columbus V-900/V-1000 and MTK/iBlue loggers write `SPEED` in km/h, the G1000
/// `GndSpd` in knots and `AltMSL` in feet); otherwise m/s and metres.
struct CSVLayout {
    var delimiter: UInt8
    var hasHeader: Bool
    /// Column indices (0-based) by field.
    var column: [CSVColumnMapping.Field: Int] = [:]
    var names: [String] = []
    var speedUnit = CSVColumnMapping.SpeedUnit.metersPerSecond
    var altitudeFactor = 1.0
    var timeFormat: CSVColumnMapping.TimeFormat?
    var dialect = ""
    /// How many leading fields a row must be split into to reach every mapped column.
    var fieldsNeeded = 0
    /// Whether, with no segment column, a change of the trace column starts a new segment when
    /// the file is read whole: not for a column found as plain `id`, which often numbers rows.
    var traceStartsSegments = false

    /// Picks the delimiter that occurs most on the header line among `,` `;` tab `|`.
    static func detectDelimiter(_ bytes: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> UInt8 {
        let candidates: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
        var best: UInt8 = 0x2C
        var bestCount = 0
        for candidate in candidates {
            var count = 0
            var quoted = false
            for k in start..<end {
                if bytes[k] == 0x22 { quoted.toggle() } else if !quoted, bytes[k] == candidate { count += 1 }
            }
            if count > bestCount {
                best = candidate
                bestCount = count
            }
        }
        return best
    }

    /// The matching key of a header name: lower case, without spaces, `_`, `-`, `.` and any
    /// bracketed unit, plus that unit.
    static func key(of name: String) -> (key: String, unit: String?) {
        var base = ""
        var unit: String?
        var inUnit = false
        var unitText = ""
        for scalar in name.lowercased().unicodeScalars {
            switch scalar {
            case "(", "[":
                inUnit = true
                unitText = ""
            case ")", "]":
                inUnit = false
                unit = unitText.trimmingSpaces()
            case " ", "_", "-", ".", "\t", "\"":
                if inUnit { unitText.unicodeScalars.append(scalar) }
            default:
                if inUnit { unitText.unicodeScalars.append(scalar) } else { base.unicodeScalars.append(scalar) }
            }
        }
        return (base, unit)
    }

    private static let preferences: [(CSVColumnMapping.Field, [String])] = [
        (.latitude, ["lat", "latitude", "latitudens", "latdeg", "latitudedeg", "gpslat", "locationlat", "y"]),
        (
            .longitude,
            [
                "lon", "lng", "long", "longitude", "longitudeew", "londeg", "longitudedeg", "gpslon", "gpslng", "locationlon",
                "locationlng", "x",
            ]
        ),
        (
            .time,
            [
                "time", "timestamp", "datetime", "trackedat", "utc", "utctime", "timeutc", "gpstime", "lcltime", "localtime", "recordedat",
                "fixtime", "ts", "unixtime", "t",
            ]
        ),
        (.date, ["date", "lcldate", "utcdate", "gpsdate", "localdate"]),
        (.utcOffset, ["utcofst", "utcoffset", "utcoff", "tzoffset"]),
        (.accuracy, ["accuracy", "horizontalaccuracy", "hacc", "haccuracy", "acc", "locationaccuracy", "accuracym"]),
        (.hdop, ["hdop"]),
        (
            .speed,
            [
                "speed", "spd", "gndspd", "groundspeed", "velocity", "sog", "speedkmh", "speedms", "speedmps", "speedkn", "speedkt",
                "speedmph", "speedkph",
            ]
        ),
        (.course, ["course", "cog", "trk", "bearing", "heading", "hdg", "direction"]),
        (.altitude, ["altitude", "alt", "ele", "elevation", "height", "altmsl", "altgps", "altitudem", "altitudeft", "elevationm"]),
        (.satellites, ["sat", "sats", "satellites", "nsat", "numsat", "numsats", "nsats", "satellitesused", "nsatusedview"]),
        (.segment, ["segmentid", "segment"]),
        (
            .trace,
            [
                "trajectoryid", "trajid", "trackid", "tripid", "deviceid", "device", "vehicleid", "vehicle", "taxiid", "uid",
                "userid", "user", "trajectory", "id",
            ]
        ),
        (.latitudeHemisphere, ["n/s", "ns"]),
        (.longitudeHemisphere, ["e/w", "ew"]),
    ]

    /// Builds the layout from the header fields (or `nil` for a file without header) and an
    /// optional mapping.
    ///
    /// - Throws: `.badData` located at the header when latitude or longitude cannot be found, or
    ///   when the mapping names a column the header does not have.
    init(
        delimiter: UInt8, header: [String]?, unitsRow: [String]?, mapping: CSVColumnMapping?,
        headerLocation: SourceLocation
    ) throws(FencesimError) {
        self.delimiter = delimiter
        hasHeader = header != nil
        names = header ?? []
        let keyed = names.map { Self.key(of: $0) }
        var keys = keyed.map(\.key)
        // `LATITUDE N/S`: the slash survives key(of:); fold it away for matching.
        keys = keys.map { $0.replacingOccurrences(of: "/", with: "", keepSlashPairs: true) }

        // 1. The mapping.
        if let mapping {
            // In field order, so that the first problem reported does not depend on hashing.
            for field in CSVColumnMapping.Field.allCases {
                guard let target = mapping.columns[field] else { continue }
                switch target {
                case .index(let index):
                    column[field] = index - 1
                case .name(let name):
                    guard header != nil else {
                        throw FencesimError(
                            .badData, "the column mapping names column '\(name)' but the file has no header; use a column number",
                            at: headerLocation)
                    }
                    let wanted = name.trimmingSpaces().lowercased()
                    guard
                        let index = names.firstIndex(where: { $0.lowercased() == wanted })
                            ?? keys.firstIndex(of: Self.key(of: name).key.replacingOccurrences(of: "/", with: "", keepSlashPairs: true))
                    else {
                        throw FencesimError(
                            .badData,
                            "no column '\(name)' (mapped to \(field)) in the header; the columns are: \(names.joined(separator: ", "))",
                            at: headerLocation)
                    }
                    column[field] = index
                }
            }
            timeFormat = mapping.timeFormat
        }

        // 2. Header names for the fields the mapping left out.
        if header != nil {
            var taken = Set(column.values)
            // A mapped time is complete: a `date` column next to it is not combined with it.
            let skipped: Set<CSVColumnMapping.Field> = mapping?.columns[.time] != nil ? [.date] : []
            for (field, candidates) in Self.preferences where column[field] == nil && !skipped.contains(field) {
                for candidate in candidates {
                    if let index = keys.indices.first(where: { keys[$0] == candidate && !taken.contains($0) }) {
                        column[field] = index
                        taken.insert(index)
                        break
                    }
                }
            }
            // `x`/`y` only as a pair; a lone `t` or `x` is more likely something else.
            if let lat = column[.latitude], keys[lat] == "y", column[.longitude].map({ keys[$0] }) != "x" {
                column[.latitude] = nil
            }
            if let lon = column[.longitude], keys[lon] == "x", column[.latitude].map({ keys[$0] }) != "y" {
                column[.longitude] = nil
            }
            // A `time` column next to a `date` column holds the time of day; a lone `date` column
            // holding full date-times (`date` = `2020-01-01T10:00:00Z`) is the time.
            if column[.time] == nil, let date = column[.date] {
                column[.time] = date
                column[.date] = nil
            }
        }

        guard column[.latitude] != nil else {
            throw FencesimError(.badData, Self.missingMessage("latitude", names: names, hint: "lat, latitude"), at: headerLocation)
        }
        guard column[.longitude] != nil else {
            throw FencesimError(
                .badData, Self.missingMessage("longitude", names: names, hint: "lon, lng, long, longitude"), at: headerLocation)
        }
        fieldsNeeded = (column.values.max() ?? 0) + 1
        if let trace = column[.trace] {
            traceStartsSegments = mapping?.columns[.trace] != nil || !(header != nil && trace < keys.count && keys[trace] == "id")
        }

        // Dialect.
        let keySet = Set(keys)
        var speedUnit: CSVColumnMapping.SpeedUnit?
        var altitudeUnit: CSVColumnMapping.AltitudeUnit?
        defer {
            self.speedUnit = speedUnit ?? .metersPerSecond
            altitudeFactor = (altitudeUnit ?? .meters).meters
        }
        if keySet.contains("tag"), keySet.contains("latitudens") {
            dialect = "Columbus V-900/V-1000"
            speedUnit = .kilometersPerHour
        } else if keySet.contains("rcr") {
            dialect = "MTK logger"
            speedUnit = .kilometersPerHour
        } else if keySet.contains("lcldate"), keySet.contains("utcofst") {
            dialect = "Garmin G1000"
        } else if keySet.contains("trackedat") {
            dialect = "trackintel"
        } else if keys.first == "no", keySet.contains("latitude") {
            dialect = "gpsbabel unicsv"
        }
        if let speed = column[.speed], header != nil, keys[speed] == "gndspd" { speedUnit = .knots }
        if let altitude = column[.altitude], header != nil, ["altmsl", "altgps", "altb"].contains(keys[altitude]) { altitudeUnit = .feet }

        // Units row (Garmin G1000: `#yyy-mm-dd, hh:mm:ss, ..., kt, ...` before the header).
        if let unitsRow, unitsRow.count >= names.count - 1 {
            if let speed = column[.speed], speed < unitsRow.count, let unit = Self.speedUnit(unitsRow[speed]) { speedUnit = unit }
            if let altitude = column[.altitude], altitude < unitsRow.count, let unit = Self.altitudeUnit(unitsRow[altitude]) {
                altitudeUnit = unit
            }
        }
        // A unit in the header name.
        if let speed = column[.speed], header != nil {
            if let unit = keyed[speed].unit.flatMap({ Self.speedUnit($0) }) ?? Self.speedUnitOfKey(keys[speed]) { speedUnit = unit }
        }
        if let altitude = column[.altitude], header != nil {
            if let unit = keyed[altitude].unit.flatMap({ Self.altitudeUnit($0) }) ?? Self.altitudeUnitOfKey(keys[altitude]) {
                altitudeUnit = unit
            }
        }
        if let unit = mapping?.speedUnit { speedUnit = unit }
        if let unit = mapping?.altitudeUnit { altitudeUnit = unit }
    }

    /// The first header column that repeats the name of a column the layout reads (compared as
    /// header names are matched), with what it repeats: the file does not say which of the two
    /// holds the value. Columns the mapping names by number are not ambiguous and are left out.
    func repeatedColumn(mapping: CSVColumnMapping?) -> (field: CSVColumnMapping.Field, original: Int, repeated: Int)? {
        guard hasHeader else { return nil }
        let keys = names.map { Self.key(of: $0).key.replacingOccurrences(of: "/", with: "", keepSlashPairs: true) }
        var found: (field: CSVColumnMapping.Field, original: Int, repeated: Int)?
        for field in CSVColumnMapping.Field.allCases {
            guard let original = column[field], original < keys.count, !keys[original].isEmpty else { continue }
            if case .index? = mapping?.columns[field] { continue }
            for other in keys.indices where other != original && keys[other] == keys[original] {
                let repeated = max(other, original)
                if found.map({ repeated < $0.repeated }) ?? true { found = (field, min(other, original), repeated) }
                break
            }
        }
        return found
    }

    private static func missingMessage(_ what: String, names: [String], hint: String) -> String {
        if names.isEmpty {
            return "no \(what) column: the file has no header, so give a column mapping (e.g. --columns lat=1,lon=2,time=3)"
        }
        return
            "no \(what) column in the header (looked for \(hint)); the columns are: \(names.joined(separator: ", ")); give a column mapping (--columns)"
    }

    static func speedUnit(_ text: String) -> CSVColumnMapping.SpeedUnit? {
        switch text.trimmingSpaces().lowercased() {
        case "m/s", "ms", "mps", "m s-1": .metersPerSecond
        case "km/h", "kmh", "kph", "kmph", "km h-1": .kilometersPerHour
        case "kt", "kts", "kn", "knots", "knot": .knots
        case "mph": .milesPerHour
        default: nil
        }
    }

    private static func speedUnitOfKey(_ key: String) -> CSVColumnMapping.SpeedUnit? {
        if key.hasSuffix("kmh") || key.hasSuffix("kph") { return .kilometersPerHour }
        if key.hasSuffix("mph") { return .milesPerHour }
        if key.hasSuffix("kn") || key.hasSuffix("kt") || key.hasSuffix("knots") { return .knots }
        if key.hasSuffix("ms") || key.hasSuffix("mps") { return .metersPerSecond }
        return nil
    }

    static func altitudeUnit(_ text: String) -> CSVColumnMapping.AltitudeUnit? {
        let words = text.trimmingSpaces().lowercased().split(separator: " ")
        switch words.first.map(String.init) ?? "" {
        case "m", "meters", "metres", "meter", "metre": return .meters
        case "ft", "feet", "foot": return .feet
        default: return nil
        }
    }

    private static func altitudeUnitOfKey(_ key: String) -> CSVColumnMapping.AltitudeUnit? {
        if key.hasSuffix("ft") || key.hasSuffix("feet") { return .feet }
        return nil
    }
}

extension String {
    /// Removes `/` from a key (`latitude n/s` → `latitudens`) unless the whole key is a pair
    /// such as `n/s` or `e/w`, which names a hemisphere column.
    fileprivate func replacingOccurrences(of slash: String, with replacement: String, keepSlashPairs: Bool) -> String {
        if keepSlashPairs, count == 3, dropFirst().first == "/" { return self }
        return split(separator: "/", omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
