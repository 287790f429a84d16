import ArgumentParser
import Foundation
import LifelineKit
import Reports

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write one device's timeline for a trace viewer (Perfetto UI, chrome://tracing).",
        discussion: """
            chrome-trace writes the Trace Event Format: the device is a process, each launch a \
            track of the app's states, callbacks logged with begin/end are slices with their \
            durations, and findings are instant events with their messages. Open the file at \
            ui.perfetto.dev or in chrome://tracing. jsonl writes the same events as \
            `lifeline timeline --format jsonl`. The device is replayed whole, as `check` does. \
            --app and --app-version keep only the launches of that app or version (a launch \
            belongs to the app and version of its first event), with their findings.

            Exit codes: 0 written; 2 the database could not be read or the output not written; \
            3 nothing to export: the device (or launch) has no events, or none of the app or \
            version given; 64 the command line is wrong.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case chromeTrace = "chrome-trace"
        case jsonl
    }

    @Argument(help: "The device id (the `device` field of the logs).")
    var device: String

    @Option(help: ArgumentHelp("Only this launch's events.", valueName: "launch-id"))
    var launch: String?

    @Option(help: "Output format: chrome-trace (Trace Event Format JSON) or jsonl.")
    var format: Format = .chromeTrace

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var apps: AppOptions

    @OptionGroup var database: DatabaseOption

    @OptionGroup var budgets: BudgetOptions

    func run() throws {
        try CommandFailure.reporting(nothingTo: "export") {
            try OutputDestination.checkBeforehand([("--output", output)], database: database.path)
            var options = CheckOptions()
            options.configuration = try budgets.configuration()
            options.apps = apps.selection
            let store = try database.open(.readOnly)
            var trace = ChromeTrace(device: device)
            var lines: [String] = []
            var shown = 0
            let count: Analyzer.TimelineCount
            do {
                count = try Analyzer().timeline(store: store, device: device, options: options) { entry in
                    guard launch == nil || entry.event.launch == launch else { return }
                    shown += 1
                    switch format {
                    case .chromeTrace: trace.add(entry)
                    case .jsonl: lines.append(try JSONReport.line(entry))
                    }
                }
            } catch {
                throw CommandFailure.unreadable("\(error)")
            }
            guard shown > 0 else {
                if let launch { throw database.nothingOf(launch: launch, device: device) }
                if options.apps.isSet, count.events > 0 { throw database.nothingOf(options.apps, devices: [device]) }
                throw database.nothingToCheck(devices: [device], inWindow: false)
            }
            let text = format == .chromeTrace ? trace.render() : lines.map { $0 + "\n" }.joined()
            try OutputDestination.write(text, to: output)
        }
    }
}
