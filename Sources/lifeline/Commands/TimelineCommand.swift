import ArgumentParser
import Foundation
import LifelineKit
import Reports

struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show one device's events in order, with the app's state and the findings on each.",
        discussion: """
            For postmortems: every event of the device (optionally of one time window), grouped by \
            launch, with the seconds since the launch began, the app's state after the event \
            (not running, inactive, active, background, suspended) and, under it, any finding \
            that became evident there. The device is replayed whole, so findings and states are \
            the same as `check` finds; budgets and severities take the same options.

            --app and --app-version show only the launches of that app or version (a launch's app \
            and version are those of its first event), with their findings: a finding of theirs \
            that became evident at an event not shown lands on the last event shown. The device \
            is still replayed whole.

            --launch shows only that launch's events (the device is still replayed whole).

            Reads the database without writing to it, so it works on a read-only file.

            Exit codes: 0 the timeline was printed; 2 the database or the configuration could not \
            be read; 3 nothing to check: the device has no events (of the --launch, --app or \
            --app-version given, in that window); 64 the command line is wrong.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, jsonl
    }

    @Argument(help: "The device id (the `device` field of the logs).")
    var device: String

    @OptionGroup var database: DatabaseOption

    @OptionGroup var time: TimeWindowOptions

    @OptionGroup var apps: AppOptions

    @Option(help: ArgumentHelp("Only this launch's events.", valueName: "launch-id"))
    var launch: String?

    @Option(help: "Output format: text, or jsonl (one event per line with its state and findings).")
    var format: Format = .text

    @OptionGroup var budgets: BudgetOptions

    func run() throws {
        try CommandFailure.reporting {
            let window = try time.window()
            var options = CheckOptions()
            options.configuration = try budgets.configuration()
            options.since = window.since
            options.until = window.until
            options.apps = apps.selection
            let store = try database.open(.readOnly)
            var text = TimelineText()
            var shown = 0
            let count: Analyzer.TimelineCount
            do {
                count = try Analyzer().timeline(store: store, device: device, options: options) { entry in
                    guard launch == nil || entry.event.launch == launch else { return }
                    shown += 1
                    switch format {
                    case .text: print(text.render(entry))
                    case .jsonl: print(try JSONReport.line(entry))
                    }
                }
            } catch {
                throw CommandFailure.unreadable("\(error)")
            }
            guard shown == 0 else { return }
            if let launch, count.shown > 0 {
                throw database.nothingOf(launch: launch, device: device, narrowed: time.isSet || options.apps.isSet)
            }
            if options.apps.isSet, count.events > 0 {
                throw database.nothingOf(options.apps, devices: [device], inWindow: count.appLaunches > 0)
            }
            throw database.nothingToCheck(devices: [device], inWindow: time.isSet)
        }
    }
}
