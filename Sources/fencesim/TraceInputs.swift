import Files
import Foundation
import Scenarios
import Support
import Traces

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Trace inputs of `replay` and `report`: files, folders, globs and manifests, and the traces of
/// a file that holds several.
enum TraceInputs {
    /// File extensions taken from a folder.
    static let traceExtensions: Set<String> = ["gpx", "csv", "tsv", "txt", "nmea", "log", "plt", "gz"]

    /// Expands every input, in order; a folder's files and a glob's matches sorted; then each
    /// file that holds several traces becomes one input per trace (`FILE#ID`, see
    /// ``Scenarios/TraceInput/splittingFiles(_:options:)``).
    ///
    /// - Throws: ``Support/FencesimError`` `.missingInput` for an input that names nothing.
    static func expand(_ inputs: [String], options: TraceReadOptions) throws(FencesimError) -> [TraceInput] {
        TraceInput.splittingFiles(try expand(inputs), options: options)
    }

    /// Expands every input, in order; a folder's files and a glob's matches sorted.
    ///
    /// - Throws: ``Support/FencesimError`` `.missingInput` for an input that names nothing.
    static func expand(_ inputs: [String]) throws(FencesimError) -> [TraceInput] {
        var out: [TraceInput] = []
        for input in inputs {
            if input.contains(where: { "*?[".contains($0) }) {
                let matches = glob(input)
                guard !matches.isEmpty else {
                    throw FencesimError(.missingInput, "the pattern matches no file", at: SourceLocation(file: input))
                }
                out += matches.map { TraceInput(path: $0) }
            } else if FileIO.isDirectory(input) {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: input)) ?? []
                let files = names.filter { !$0.hasPrefix(".") && traceExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted()
                guard !files.isEmpty else {
                    throw FencesimError(
                        .missingInput, "the folder holds no trace files (\(traceExtensions.sorted().joined(separator: ", ")))",
                        at: SourceLocation(file: input))
                }
                out += files.map { TraceInput(path: (input as NSString).appendingPathComponent($0)) }
            } else if !FileIO.exists(input) {
                throw FencesimError(.missingInput, "cannot open: no such file or folder", at: SourceLocation(file: input))
            } else if let listed = try manifest(input) {
                out += listed
            } else {
                out.append(TraceInput(path: input))
            }
        }
        return out
    }

    /// The traces a manifest lists, or `nil` when `path` is not a manifest: a text file whose
    /// first line that is neither empty nor a `#` comment names an existing file (relative to the
    /// manifest's folder).
    static func manifest(_ path: String) throws(FencesimError) -> [TraceInput]? {
        let ext = (path as NSString).pathExtension.lowercased()
        guard ["txt", "list", "lst", "manifest"].contains(ext) else { return nil }
        let text = String(decoding: try FileIO.readAll(path), as: UTF8.self)
        let directory = (path as NSString).deletingLastPathComponent
        var out: [TraceInput] = []
        for (k, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let resolved = line.hasPrefix("/") || directory.isEmpty ? line : (directory as NSString).appendingPathComponent(line)
            if out.isEmpty, !FileIO.exists(resolved) { return nil }
            // A listed trace that does not exist fails on its own, located at this line.
            out.append(TraceInput(path: resolved, label: line))
            _ = k
        }
        return out.isEmpty ? nil : out
    }

    static func glob(_ pattern: String) -> [String] {
        var g = glob_t()
        defer { globfree(&g) }
        guard Glibc.glob(pattern, 0, nil, &g) == 0 else { return [] }
        var out: [String] = []
        for k in 0..<Int(g.gl_pathc) {
            if let p = g.gl_pathv[k] { out.append(String(cString: p)) }
        }
        return out.sorted()
    }
}
