import ArgumentParser
import Support

/// The `fencesim` command: a thin layer over the libraries that parses arguments, reads files,
/// prints results and maps errors to the exit codes of SPEC §7.
@main
struct Fencesim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fencesim",
        abstract: "Trace-driven geofence simulator: replays GPS tracks through geofences, check-ins, Places and rules.",
        discussion: """
            Exit codes: 0 success, 1 a check failed, 64 usage error, 65 bad input data, \
            66 input missing, 74 I/O error. Errors are printed as file:line:col: error: message.
            """,
        version: FencesimVersion.string,
        subcommands: [Inspect.self, Run.self, Replay.self, Synth.self, RulesCommand.self, LintCommand.self, CheckCommand.self, MergeCommand.self, Report.self, SweepCommand.self]
    )

    static func main() {
        Terminal.prepare()
        main(nil)
    }
}

/// The version printed by `fencesim --version` and written into reports.
enum FencesimVersion {
    static let string = "0.1.0"
}
