/// The trace file formats fencesim reads (SPEC §1.1); any of them may be gzip-compressed.
public enum TraceFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// GPX 1.0 or 1.1: tracks, routes, and waypoints when a file has neither.
    case gpx
    /// Delimited text with a header naming the columns (or an explicit column mapping).
    case csv
    /// NMEA 0183 sentences (RMC and GGA from any talker).
    case nmea
    /// Microsoft GeoLife `.plt` trajectories.
    case plt

    /// `gpx`, `csv`, `nmea` or `plt`.
    public var description: String { rawValue }

    /// The format a file name's extension suggests (`.gz` is looked through), or `nil`.
    ///
    /// `.gpx` → GPX; `.csv`, `.txt`, `.tsv` → CSV; `.nmea`, `.log` → NMEA; `.plt` → PLT.
    public init?(fileExtensionOf path: String) {
        var name = Substring(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        if name.lowercased().hasSuffix(".gz") { name = name.dropLast(3) }
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "gpx": self = .gpx
        case "csv", "txt", "tsv": self = .csv
        case "nmea", "log": self = .nmea
        case "plt": self = .plt
        default: return nil
        }
    }
}
