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
            """
                + HelpExamples.text(
                    "fencesim inspect traces/demo-drive.gpx traces/demo-fences.geojson",
                    "fencesim replay traces/demo-drive.gpx --fences traces/demo-fences.geojson --format table",
                    "fencesim run scenarios/demo.yaml --format table",
                    "fencesim report scenarios/demo-degraded.yaml --html demo-report.html"),
        version: FencesimVersion.string,
        subcommands: [
            Inspect.self, Run.self, Replay.self, Synth.self, RulesCommand.self, LintCommand.self, CheckCommand.self, MergeCommand.self,
            Report.self, ScoreCommand.self, CalibrateCommand.self, View.self, SweepCommand.self,
        ]
    )

    static func main() {
        Allocator.keepFreedMemory()
        Terminal.prepare()
        var command: ParsableCommand
        do {
            command = try parseAsRoot(nil)
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
            // Done: ended at once, as every path ends (``Terminal/exitNow(_:)``).
            Terminal.exitNow(0)
        } catch let error as ValidationError {
            // A value refused once parsing is over (--crs, --columns, ...) is a usage error of
            // the command at hand, said as one refused while parsing is: with its usage line,
            // not the top-level one.
            Terminal.err("Error: \(error.message)")
            sayUsage(of: type(of: command))
            Terminal.exitNow(ExitCode.validationFailure.rawValue)
        } catch let code as ExitCode where code == .validationFailure {
            // A located usage error (`--vary:1:1: error: ...`), already said: its usage line.
            sayUsage(of: type(of: command))
            Terminal.exitNow(code.rawValue)
        } catch {
            // Said as the argument parser says it, then ended at once (``Terminal/exitNow(_:)``):
            // a run that failed may have PROJ's frames still open.
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success { Terminal.write(message + "\n", to: 1) } else { Terminal.err(message) }
            }
            Terminal.exitNow(code.rawValue)
        }
    }

    /// The usage line of `command` and where its help is, on standard error.
    static func sayUsage(of command: ParsableCommand.Type) {
        let usage = usageString(for: command)
        let name = usage.split(separator: " ").prefix { !"[<-".contains($0.first ?? "[") }.joined(separator: " ")
        Terminal.err("Usage: \(usage)")
        Terminal.err("  See '\(name) --help' for more information.")
    }
}

/// The version printed by `fencesim --version` and written into reports (and into shard parts'
/// run digests), as tagged in git and headed in CHANGELOG.md; the next one with `-dev` after it.
enum FencesimVersion {
    static let string = "0.3.0-dev"
}
