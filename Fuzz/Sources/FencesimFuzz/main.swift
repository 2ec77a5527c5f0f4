// libFuzzer entry points for fencesim's readers of untrusted input (issue 8, SECURITY.md).
//
// `fencesim-fuzz TARGET [libFuzzer options] [CORPUS...]` runs one target. Every target feeds the
// input to a public reader and accepts two outcomes: a result, or a thrown error (FencesimError,
// or FilterExpression.ParseError). Anything else (a trap, a sanitizer report, a timeout, memory
// above -rss_limit_mb) is a finding that libFuzzer saves as `crash-*`, `timeout-*` or `oom-*`.

#if canImport(Glibc)
import Glibc
#endif
import Fences
import Geotriggers
import Rules
import Scenarios
import Support
import Traces

/// One fuzz target: a name and what it does with an input.
struct FuzzTarget: Sendable {
    let name: String
    let summary: String
    let run: @Sendable ([UInt8]) -> Void
}

/// Writes `text` to standard error.
func printError(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
}

/// A private scratch folder: trace readers and the scenario reader read from paths.
let scratch: String = {
    let base = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
    var template = Array("\(base)/fencesim-fuzz-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { fatalError("cannot create a scratch folder under \(base)") }
    return String(cString: template.map { UInt8(bitPattern: $0) })
}()

/// Writes `bytes` to `name` in the scratch folder (no fsync: it is read back at once).
func scratchFile(_ name: String, _ bytes: [UInt8]) -> String {
    let path = "\(scratch)/\(name)"
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { fatalError("cannot write \(path)") }
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
            guard n > 0 else { fatalError("cannot write \(path)") }
            offset += n
        }
    }
    close(fd)
    return path
}

/// Reads a trace in both strict and lenient mode, with the format forced.
func readTrace(_ bytes: [UInt8], format: TraceFormat, name: String) {
    let path = scratchFile(name, bytes)
    for lenient in [false, true] {
        var fixes = 0
        _ = try? TraceReader.read(path: path, options: TraceReadOptions(format: format, lenient: lenient)) { _ in fixes += 1 }
    }
}

/// The scenario reader checks that the files a scenario names exist: give it some to find.
let scenarioNeighbours: Void = {
    _ = scratchFile("f.geojson", Array(#"{"type":"FeatureCollection","features":[]}"#.utf8))
    _ = scratchFile("t.csv", Array("time,lat,lon\n2026-01-01T00:00:00Z,37.75,-122.2\n".utf8))
}()

let targets: [FuzzTarget] = [
    FuzzTarget(name: "gpx", summary: "TraceReader.read, GPX forced") { readTrace($0, format: .gpx, name: "input.gpx") },
    FuzzTarget(name: "csv", summary: "TraceReader.read, CSV forced (plain or gzip by magic)") { readTrace($0, format: .csv, name: "input.csv") },
    FuzzTarget(name: "nmea", summary: "TraceReader.read, NMEA forced") { readTrace($0, format: .nmea, name: "input.nmea") },
    FuzzTarget(name: "plt", summary: "TraceReader.read, PLT forced") { readTrace($0, format: .plt, name: "input.plt") },
    FuzzTarget(name: "geojson", summary: "FenceReader.parse, plain and with makeValid") { bytes in
        for makeValid in [false, true] {
            _ = try? FenceReader.parse(SourceText(file: "input.geojson", bytes: bytes), options: FenceReadOptions(makeValid: makeValid))
        }
    },
    FuzzTarget(name: "scenario", summary: "ScenarioReader.read on a temporary file beside f.geojson and t.csv") { bytes in
        _ = scenarioNeighbours
        _ = try? ScenarioReader.read(path: scratchFile("input.yaml", bytes))
    },
    FuzzTarget(name: "filter", summary: "FilterExpression(_:), then evaluated with every field present and absent") { bytes in
        guard let expression = try? FilterExpression(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = expression.accepts { _ in 1.5 }
        _ = expression.accepts { _ in nil }
        _ = expression.description
    },
    FuzzTarget(name: "rules", summary: "RulesLoader.parse (rules.json or ZIP), for each platform") { bytes in
        for platform in [RulesPlatform.docs, .ios, .android] {
            _ = try? RulesLoader.parse(bytes, file: "input.json", platform: platform)
        }
    },
]

nonisolated(unsafe) var selected: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    selected?.run(Array(UnsafeRawBufferPointer(start: data, count: count)))
    return 0
}

// libFuzzer's driver, called from our own entry point: SwiftPM links executables with
// `--defsym main=<Target>_main`, so libFuzzer's `main` cannot be used.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafeRawPointer, Int) -> CInt
) -> CInt

@_cdecl("FencesimFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    guard let argv else { return 64 }
    // The target is the first argument; libFuzzer's -jobs/-fork/-merge re-run this binary with
    // its own arguments only, so the name is also passed on in the environment.
    var name = argc >= 2 ? argv[1].map { String(cString: $0) } : nil
    var shift = true
    if name.map({ n in !targets.contains { $0.name == n } }) ?? true, let inherited = getenv("FENCESIM_FUZZ_TARGET") {
        name = String(cString: inherited)
        shift = false
    }
    guard let name else {
        let names = targets.map { "  \($0.name)\(String(repeating: " ", count: max(1, 10 - $0.name.count)))\($0.summary)" }
        printError("usage: fencesim-fuzz TARGET [libFuzzer options] [CORPUS...]\ntargets:\n\(names.joined(separator: "\n"))\n")
        return 64
    }
    guard let target = targets.first(where: { $0.name == name }) else {
        printError("fencesim-fuzz: unknown target '\(name)' (known: \(targets.map(\.name).joined(separator: ", ")))\n")
        return 64
    }
    selected = target
    setenv("FENCESIM_FUZZ_TARGET", name, 1)
    var count = argc
    var rest: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    if shift {
        // Drop the target name so that libFuzzer sees its usual command line.
        argv[1] = argv[0]
        count = argc - 1
        rest = argv + 1
    }
    return LLVMFuzzerRunDriver(&count, &rest, fuzzOneInput)
}
