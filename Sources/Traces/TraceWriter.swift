import Support

/// Renders fixes as GPX 1.1 or CSV text that fencesim's readers read back exactly: times with
/// milliseconds, coordinates with 7 decimals (about 1 cm), speed, course and accuracy.
public enum TraceWriter {
    /// The formats `synth` writes.
    public enum Format: String, Sendable, CaseIterable {
        case gpx, csv
    }

    /// The whole trace as text.
    public static func render(_ fixes: [Fix], format: Format, name: String = "fencesim trace") -> String {
        var out = header(format: format, name: name)
        for f in fixes { out += line(f, format: format) }
        return out + footer(format: format)
    }

    static func number(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let fractionText = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fractionText.count) + fractionText
    }

    static func escape(_ text: String) -> String { XMLText.escape(text) }

    /// What comes before the first fix.
    static func header(format: Format, name: String) -> String {
        switch format {
        case .gpx:
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="fencesim" xmlns="http://www.topografix.com/GPX/1/1">
            <trk><name>\(escape(name))</name><trkseg>

            """
        case .csv: "time,lat,lon,accuracy,speed,course\n"
        }
    }

    /// What comes after the last fix.
    static func footer(format: Format) -> String {
        switch format {
        case .gpx: "</trkseg></trk>\n</gpx>\n"
        case .csv: ""
        }
    }

    /// One fix's line, with its line break.
    static func line(_ f: Fix, format: Format) -> String {
        switch format {
        case .gpx:
            var out = "<trkpt lat=\"\(number(f.latitude, 7))\" lon=\"\(number(f.longitude, 7))\">"
            if let e = f.altitudeMeters { out += "<ele>\(number(e, 2))</ele>" }
            if let t = f.time { out += "<time>\(t.iso8601(fractionDigits: 3))</time>" }
            var extensions = ""
            if let s = f.speedMetersPerSecond { extensions += "<speed>\(number(s, 2))</speed>" }
            if let c = f.courseDegrees { extensions += "<course>\(number(c, 1))</course>" }
            if f.accuracySource == .reported { extensions += "<hAcc>\(number(f.accuracyMeters, 1))</hAcc>" }
            if !extensions.isEmpty { out += "<extensions>\(extensions)</extensions>" }
            return out + "</trkpt>\n"
        case .csv:
            return [
                f.time.map { $0.iso8601(fractionDigits: 3) } ?? "",
                number(f.latitude, 7), number(f.longitude, 7),
                f.accuracySource == .reported ? number(f.accuracyMeters, 1) : "",
                f.speedMetersPerSecond.map { number($0, 2) } ?? "",
                f.courseDegrees.map { number($0, 1) } ?? "",
            ].joined(separator: ",") + "\n"
        }
    }
}
