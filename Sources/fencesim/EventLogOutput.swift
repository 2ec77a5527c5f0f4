import EventPipeline
import Files
import Support
import Traces

/// Where `replay` and `run` write their event log as it is produced: a file that appears whole
/// when the run succeeds (and not at all otherwise), or standard output, where the events
/// written before a failure stay written (the exit status tells the failure).
struct EventLogOutput {
    let writer: EventLogWriter
    /// The file, when the log goes to one.
    private let file: AtomicFileWriter?

    /// Opens `path` (standard output when `nil`) for a log in `format`.
    /// - Parameter extraColumns: CSV columns after SPEC's (``Simulation/Scenario/logExtraColumns``).
    init(format: EventLogFormat, path: String?, extraColumns: [String] = []) throws(FencesimError) {
        file = try path.map { path throws(FencesimError) in try AtomicFileWriter(path: path) }
        writer = EventLogWriter(format: format, sink: file ?? StandardOutput.shared, extraColumns: extraColumns)
    }

    /// Replays `traces` with `replay`, the events going to the log as they are produced (a table,
    /// whose widths depend on every row, is written at the end); then reports the traces'
    /// warnings and failures and, when none failed, completes the log.
    ///
    /// - Throws: the log's write error, else the first failing trace's exit code (after every
    ///   trace's warnings and failures are printed).
    func write(traces: Int, options: TraceReadOptions, _ replay: (OrderedEventLog?) throws(FencesimError) -> [Replayer.Outcome]) throws
        -> [Replayer.Outcome]
    {
        let outcomes: [Replayer.Outcome]
        if writer.format == .table {
            outcomes = try replay(nil)
        } else {
            let log = OrderedEventLog(writer: writer, traces: traces)
            outcomes = try replay(log)
            if let failure = log.failure { throw failure }
        }
        try Reporting.finish(outcomes, options: options)
        if writer.format == .table {
            for event in Replayer.merge(outcomes) { try writer.append(event) }
        }
        try writer.finish()
        try file?.commit()
        return outcomes
    }
}
