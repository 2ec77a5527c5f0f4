import Support

/// A line of the log on its way out of a trace's pipeline (``TraceLog``) to the renderer: a
/// ``LogEvent``, or a geotrigger event that no stage after the engine reads, rendered from its
/// own fields without a ``LogEvent`` (an event log of a million lines builds no million field
/// arrays).
package enum LogLine {
    case event(LogEvent)
    case engine(EngineLogLine)

    /// When it happened: what orders the log.
    var time: Timestamp {
        switch self {
        case .event(let e): e.time
        case .engine(let line): line.event.time
        }
    }

    /// The line as a ``LogEvent`` (for what keeps a trace's events: outcomes, tables).
    package var logEvent: LogEvent {
        switch self {
        case .event(let e): e
        case .engine(let line): line.logEvent
        }
    }
}
