import Support
import Traces

/// A trace to replay: its path on disk and the name it has in the event log.
public struct TraceInput: Hashable, Sendable {
    public var path: String
    /// The `trace` value of its events (the path as the scenario or command line wrote it;
    /// `PATH#ID` for one trace of a file that holds several).
    public var label: String
    /// The one trace of a file holding several that this input is (``splittingFiles(_:options:)``).
    public var selection: TraceSelection?

    public init(path: String, label: String? = nil, selection: TraceSelection? = nil) {
        self.path = path
        self.label = label ?? path
        self.selection = selection
    }

    /// The file as messages name it: its path, and `#ID` for one trace of a file holding several.
    public var file: String {
        selection.map { path + "#" + $0.id } ?? path
    }

    /// `base` reading only this input's trace of its file.
    public func readOptions(_ base: TraceReadOptions) -> TraceReadOptions {
        guard let selection else { return base }
        var options = base
        options.selection = selection
        return options
    }

    /// `inputs` with each file that holds several traces (a CSV with a trace column, see
    /// ``Traces/TraceReader/traces(path:options:)``) replaced by one input per trace, labelled
    /// `LABEL#ID`, in order of each id's first row.
    ///
    /// A file that cannot be read is left as it is: its replay reports why, located.
    ///
    /// - Complexity: one pass over each CSV file's trace column (the header only when it has
    ///   none); memory O(ids).
    public static func splittingFiles(_ inputs: [TraceInput], options: TraceReadOptions) -> [TraceInput] {
        var out: [TraceInput] = []
        out.reserveCapacity(inputs.count)
        for input in inputs {
            guard input.selection == nil, let split = try? TraceReader.traces(path: input.path, options: options) else {
                out.append(input)
                continue
            }
            for selection in split.traces {
                out.append(TraceInput(path: input.path, label: input.label + "#" + selection.id, selection: selection))
            }
        }
        return out
    }
}
