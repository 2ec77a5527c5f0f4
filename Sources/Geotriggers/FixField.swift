/// The fields of a fix that filter expressions and message templates can name.
public enum FixField: String, CaseIterable, Hashable, Sendable {
    case accuracy, speed, course, altitude, hdop, satellites, latitude, longitude
    /// Seconds since the start of the trace.
    case elapsed
    /// Seconds since the previous fix of the trace (absent for the first).
    case interval

    /// Other spellings users write (`horizontalaccuracy` as in ArcGIS `$locationupdate`).
    static func named(_ name: String) -> FixField? {
        switch name.lowercased() {
        case "accuracy", "horizontalaccuracy", "hacc": .accuracy
        case "speed", "velocity": .speed
        case "course", "bearing", "heading": .course
        case "altitude", "ele", "elevation": .altitude
        case "hdop": .hdop
        case "satellites", "sat", "sats": .satellites
        case "latitude", "lat": .latitude
        case "longitude", "lon", "lng": .longitude
        case "elapsed": .elapsed
        case "interval", "dt": .interval
        default: nil
        }
    }
}
