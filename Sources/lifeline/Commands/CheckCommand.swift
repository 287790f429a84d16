import ArgumentParser
import Foundation
import LifelineKit
import Replay
import Reports
import Rules
import TraceDecode
import TraceModel
import TraceStore

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Replay every device's events against the documented sequences and report what broke.",
        discussion: """
            Replays the whole database (ingesting PATHs first if given), records the run in the \
            `runs` table and its findings in `findings` (replacing the previous run's findings for \
            the same devices), and prints a summary grouped by category and rule.

            --device limits what is replayed (each device is replayed whole); --rule, --since and \
            --until filter what is reported. With --stdin, JSON lines are read from standard input \
            and findings written to standard output as JSON lines, with no database.

            Exit codes: 0 no finding reached --fail-on; 1 at least one finding reached --fail-on, \
            or with --stdin, lines were rejected or compressed input was damaged or cut short; \
            2 the database, a file or the configuration could not be read; 64 the command line is wrong.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, jsonl
    }

    @Argument(help: "Files or directories to ingest first (as `lifeline ingest` would).")
    var paths: [String] = []

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Read events from standard input and write findings as JSON lines; no database.")
    var stdin = false

    @Option(help: "Output format: text, json or jsonl.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Replay only this device (repeatable).", valueName: "id"))
    var device: [String] = []

    @Option(help: ArgumentHelp("Report only this rule (repeatable); `lifeline rules` lists them.", valueName: "rule-id"))
    var rule: [String] = []

    @Option(help: ArgumentHelp("Report only findings at or after this time (RFC 3339 or epoch seconds).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Report only findings before this time.", valueName: "time"))
    var until: String?

    @Option(help: ArgumentHelp("Exit 1 when a reported finding has at least this severity: info, warning or error.", valueName: "severity"))
    var failOn: Severity?

    @OptionGroup var budgets: BudgetOptions

    @Flag(help: "No progress line, even on a terminal.")
    var quiet = false

    func validate() throws {
        if stdin && !paths.isEmpty { throw ValidationError("--stdin reads standard input: give no PATH with it") }
        let known = Set(RuleCatalog.rules.map(\.id))
        for id in rule where !known.contains(id) {
            throw ValidationError("unknown rule '\(id)'; `lifeline rules` lists them")
        }
        if let since, TimestampParser.parse(since) == nil { throw ValidationError("--since: cannot read '\(since)' as a time") }
        if let until, TimestampParser.parse(until) == nil { throw ValidationError("--until: cannot read '\(until)' as a time") }
    }

    func run() throws {
        var options = CheckOptions()
        options.configuration = try budgets.configuration()
        options.devices = device.isEmpty ? .all : .only(device)
        options.rules = rule.isEmpty ? nil : Set(rule)
        options.since = since.flatMap(TimestampParser.parse)
        options.until = until.flatMap(TimestampParser.parse)
        var streamWasBad = false
        let worst = stdin ? try streamStandardInput(options, bad: &streamWasBad) : try checkStore(options)
        if let failOn, let worst, worst >= failOn { throw ExitCode(1) }
        // Findings of a stream with damaged, cut or rejected input stand on part of the data.
        if streamWasBad { throw ExitCode(1) }
    }

    /// Ingests PATHs, replays the store and prints the report; returns the worst severity.
    private func checkStore(_ options: CheckOptions) throws -> Severity? {
        let store = try database.open()
        if !paths.isEmpty {
            let progress = ProgressLine(enabled: !quiet && Terminal.isInteractive(.standardError))
            let summary = Ingestor(store: store).ingest(paths) { progress.show(ingest: $0) }
            progress.clear()
            // The ingest summary goes to standard error when standard output carries JSON.
            let ingestText = summary.text()
            if format == .text { print(ingestText + "\n") } else { Terminal.printError(ingestText) }
            if summary.status == .failed { throw ExitCode(2) }
        }
        let report: CheckReport
        do {
            let progress = ProgressLine(enabled: !quiet && Terminal.isInteractive(.standardError))
            report = try Analyzer().check(store: store, options: options, version: LifelineVersion.current) {
                progress.show(replay: $0)
            }
            progress.clear()
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        switch format {
        case .text: print(TextReport.render(report))
        case .json: print(try JSONReport.render(report))
        case .jsonl: for finding in report.findings { print(try JSONReport.line(finding)) }
        }
        return report.worstSeverity
    }

    /// Streams standard input to findings as JSON lines; returns the worst severity, and sets
    /// `streamWasBad` when lines were rejected or compressed input was damaged or cut.
    private func streamStandardInput(_ options: CheckOptions, bad streamWasBad: inout Bool) throws -> Severity? {
        var worst: Severity?
        do {
            let totals = try Analyzer().stream(path: "-", options: options) { finding in
                worst = max(worst ?? finding.severity, finding.severity)
                print(try JSONReport.line(finding))
            } reject: { line, issue in
                Terminal.printError("stdin:\(line): \(issue.reason.rawValue): \(issue.message)")
            }
            for damage in totals.damage {
                Terminal.printError("stdin: bytes \(damage.from)-\(damage.to): \(damage.lines) lines lost: \(damage.reason)")
            }
            if !quiet || totals.inputWasBad { Terminal.printError(StreamSummary.line(totals)) }
            if totals.inputWasBad { streamWasBad = true }
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
        return worst
    }
}

extension Severity: ExpressibleByArgument {}
