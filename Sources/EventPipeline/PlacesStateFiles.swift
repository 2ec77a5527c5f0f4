import Files
import Foundation
import Places
import Scenarios
import Support

/// Where `--state PATH` keeps each trace's Places state and rules state, and reading them back
/// (SPEC §4, §5: state persists across runs).
///
/// A trace is one device, so each trace has its own state. `PATH` is a directory when it exists
/// as one or ends with `/`: it then holds `<trace file name>.places.json` for every trace.
/// Otherwise `PATH` is a file and the scenario must have exactly one trace.
///
/// When the scenario has rules, each trace's rules state (``RulesDeviceState``: the client-side
/// profile and the event history) is kept beside its Places state, in a sibling file named by
/// ``rulesStatePath(forStatePath:)``: `<trace file name>.rules-state.json` in a state directory,
/// `state.rules-state.json` for `--state state.json`.
public enum PlacesStateFiles {
    /// The file name of a trace's state inside a state directory.
    public static func fileName(for trace: TraceInput) -> String {
        (trace.path as NSString).lastPathComponent + ".places.json"
    }

    /// The state file of each trace, in trace order.
    ///
    /// - Throws: ``Support/FencesimError`` `.usage` (64) when `path` is a file and there is more
    ///   than one trace, or when two traces of a state directory have the same file name.
    public static func paths(for traces: [TraceInput], option path: String) throws(FencesimError) -> [String] {
        let isDirectory = path.hasSuffix("/") || FileIO.isDirectory(path)
        guard isDirectory else {
            guard traces.count <= 1 else {
                throw FencesimError(
                    .usage,
                    "--state \(path) is one file, for one trace, and the scenario has \(traces.count) traces; give a directory (--state \(path)/) to keep one state file per trace",
                    at: SourceLocation(file: path))
            }
            return traces.map { _ in path }
        }
        var owner: [String: TraceInput] = [:]
        var out: [String] = []
        for trace in traces {
            let name = fileName(for: trace)
            if let first = owner[name] {
                throw FencesimError(
                    .usage,
                    "traces \(first.label) and \(trace.label) would share the state file \(name) in \(path); a state directory needs distinct trace file names",
                    at: SourceLocation(file: path))
            }
            owner[name] = trace
            out.append((path as NSString).appendingPathComponent(name))
        }
        return out
    }

    /// Reads every state file that exists; a missing file is a fresh state (`nil`).
    ///
    /// - Throws: ``Support/FencesimError`` `.badData` (65), located, for a file that is not a
    ///   fencesim Places state (it is never replaced silently); `.missingInput` or `.io` when it
    ///   cannot be read.
    public static func load(_ paths: [String], settings: PlacesSettings) throws(FencesimError) -> [PlacesState?] {
        var states: [PlacesState?] = []
        for path in paths {
            guard FileIO.exists(path) else {
                states.append(nil)
                continue
            }
            let bytes = try FileIO.readAll(path)
            states.append(try PlacesState.decode(SourceText(file: path, bytes: bytes), configuration: settings.configuration))
        }
        return states
    }

    /// The text `--state` writes for a trace's final state (one JSON line; see
    /// ``Places/PlacesState/encoded()``).
    public static func text(of state: PlacesState) -> String {
        state.encoded()
    }

    /// The rules state file beside a Places state file: `.places.json` or else `.json` at the end
    /// of `path` is replaced by `.rules-state.json`; any other name gets `.rules-state.json`
    /// appended. Never equal to `path`.
    public static func rulesStatePath(forStatePath path: String) -> String {
        let suffix = ".rules-state.json"
        for ending in [".places.json", ".json"] where path.hasSuffix(ending) && path.count > ending.count {
            return String(path.dropLast(ending.count)) + suffix
        }
        return path + suffix
    }

    /// Reads every rules state file that exists, by trace label; a missing file is a fresh state.
    ///
    /// - Parameters:
    ///   - paths: the rules state files, in trace order.
    ///   - traces: the traces, for their labels.
    /// - Throws: ``Support/FencesimError`` `.badData` (65), located, for a file that is not a
    ///   fencesim rules state (it is never replaced silently); `.missingInput` or `.io` when it
    ///   cannot be read.
    public static func loadRulesStates(_ paths: [String], traces: [TraceInput]) throws(FencesimError) -> [String: RulesDeviceState] {
        var states: [String: RulesDeviceState] = [:]
        for (path, trace) in zip(paths, traces) where FileIO.exists(path) {
            let bytes = try FileIO.readAll(path)
            states[trace.label] = try RulesDeviceState.decode(SourceText(file: path, bytes: bytes))
        }
        return states
    }

    /// The text `--state` writes for a trace's final rules state (one JSON line; see
    /// ``RulesDeviceState/encoded()``).
    public static func text(of state: RulesDeviceState) -> String {
        state.encoded()
    }
}
