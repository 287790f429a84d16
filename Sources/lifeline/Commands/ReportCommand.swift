import ArgumentParser
import Foundation
import LifelineKit
import Reports
import Rules

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Summarise the latest check for a scheduled job: HTML, markdown, JUnit XML or JSON.",
        discussion: """
            Reads the findings of the latest `lifeline check` (run it first) and the events of the \
            store, without writing: totals and the change since the run before, findings by rule \
            with the rule's documentation and examples, findings per rule per day, how processes \
            ended and how many background kills a finding explains, and the devices, app versions \
            and OS releases with the most findings.

            html is one self-contained page with charts (no network, no scripts) to mail or \
            forward; markdown is for a pull request or a chat post; junit is JUnit XML for CI dashboards \
            (one test case per rule, each finding a failure); json is the same content for \
            programs (its keys are listed in the README, under `lifeline report`).

            --app and --app-version count the findings of the launches of that app or version \
            (a finding belongs to the launch it landed on; a launch's app and version are those of \
            its first event) and the events and terminations logged by that app or version. A \
            version alone means that version of whichever app logs it.

            Exit codes: 0 written; 2 the database could not be read or the output not written; \
            3 nothing to report: no check has been run, or the window holds no events (of the \
            --app or --app-version given); 64 the command line is wrong.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html, markdown, junit, json
    }

    @Option(help: "Output format: html, markdown, junit or json.")
    var format: Format = .markdown

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var time: TimeWindowOptions

    @OptionGroup var apps: AppOptions

    @OptionGroup var database: DatabaseOption

    func run() throws {
        try CommandFailure.reporting(nothingTo: "report") {
            try OutputDestination.checkBeforehand([("--output", output)], database: database.path)
            let window = try time.window()
            let store = try database.open(.readOnly)
            let summary: FleetSummary
            do {
                summary = try FleetSummaryBuilder().summary(
                    of: store, window: FleetSummary.Window(since: time.since, until: time.until, app: apps.app, appVersion: apps.appVersion),
                    since: window.since, until: window.until)
            } catch {
                throw CommandFailure.unreadable("\(error)")
            }
            guard summary.latestRun != nil else {
                if try CommandFailure.reading({ try !store.holdsEvents(device: nil) }) {
                    throw CommandFailure.nothingToCheck(
                        "\(database.path) holds no events: ingest logs first with `lifeline ingest\(database.argument) PATH…`, then run `lifeline check\(database.argument)`")
                }
                throw CommandFailure.nothingToCheck("no check has been run on \(database.path): run `lifeline check\(database.argument)` first")
            }
            // --app and --app-version pick launches by their events: a store without the app's (or
            // without any: a run imported with its totals but not its events) has nothing to
            // report for them, and said "0 findings in N events", exit 0.
            if apps.selection.isSet {
                if try CommandFailure.reading({ try !store.holdsEvents(device: nil) }) {
                    throw CommandFailure.nothingToCheck(
                        "--app and --app-version select launches by their events, and \(database.path) holds none "
                            + "(its run was imported with import-findings): report without them, or ingest the logs and run `lifeline check`")
                }
                if try CommandFailure.reading({ try !store.holdsEvents(app: apps.app, appVersion: apps.appVersion) }) {
                    throw database.nothingOf(apps.selection)
                }
            }
            // A run imported without its totals (a file of `check --stdin`) counted no events:
            // its findings are still the answer.
            guard summary.events > 0 || summary.findings > 0 else {
                let narrowed = time.since != nil || time.until != nil || apps.selection.isSet
                throw CommandFailure.nothingToCheck(narrowed
                    ? "no events or findings in \(database.path) match the window and filters given"
                    : "the latest run in \(database.path) replayed no events and found nothing")
            }
            // A nightly job that ingests and reports without a check between reported the old run
            // as the answer ("0 findings in N events", the new events counted but never replayed).
            let unchecked = try CommandFailure.reading { try store.filesIngestedAfterLatestRun() }
            if unchecked > 0 {
                Terminal.printError(
                    "note: \(unchecked.counted("file")) with events \(unchecked == 1 ? "was" : "were") ingested into \(database.path) after its latest check, "
                        + "so this report's findings leave their events out: run `lifeline check\(database.argument)` first")
            }
            let text: String
            switch format {
            case .html: text = summary.html()
            case .markdown: text = summary.markdown()
            case .junit: text = summary.junit(rules: RuleCatalog.rules.map { ($0.id, $0.category.rawValue) })
            case .json: text = try summary.json()
            }
            try OutputDestination.write(text, to: output)
        }
    }
}
