import ArgumentParser
import Foundation
import LifelineKit
import Reports
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
            --until filter what is reported. A window in which no event falls is nothing to check \
            (exit 3), not a clean run.

            --app and --app-version report the findings of the launches of that app or version \
            only (a launch is one process: its app and version are those of its first event; a \
            version is per app, and alone it means that version of whichever app logs it). The \
            devices replayed are those that ran such a launch, each whole, since what a device \
            did before decides what is wrong later; every finding of those devices is recorded, \
            as with --rule, so that the store's findings and derived tables stay whole per device. \
            What is printed, and what --fail-on judges, is the findings of the selected launches. \
            No such launch in the database is nothing to check (exit 3). With --stdin every \
            device is replayed (a stream is read once; --keyed leaves out the devices without \
            such a launch) and the findings are filtered the same way.

            With --stdin, JSON lines are read from standard input \
            and findings written to standard output (as JSON lines unless --format says \
            otherwise), with no database. --summary-json FILE writes the stream's totals there as \
            one JSON object. --keyed reads the records `lifeline key-by-device` writes, each \
            device's records together, and replays each device as from a database: in the \
            store's order, duplicates dropped, cut files' launches as cut (the Spark job's \
            second pass). --grouped says that each device's lines come together, device after \
            device (as `cat` of files whose names begin with the device gives): each device is \
            finished, its end-of-log findings written and its state freed, when the next one \
            begins, so memory does not grow with the devices; a device that comes back after \
            another is an error (exit 2). Without --grouped, any device may log again until the \
            stream ends, so each is held until then: the first --devices-in-memory (default \
            \(Analyzer.devicesInMemory), some 20 kB each) are replayed as their lines come, and \
            the events of the devices after them wait in a temporary file (in TMPDIR, about \
            two thirds of their lines' size uncompressed) and are replayed device after \
            device once the stream ends. The findings are the same; memory stays bounded however \
            many devices the stream holds.

            Without PATHs the database must exist; one that cannot be written (a read-only file or \
            directory) is replayed and reported without recording the findings.

            Devices are replayed on one thread below four cores and on one per two cores from \
            four (at most 8), each device whole on one; LIFELINE_REPLAY_THREADS=N (1 to 64) sets \
            the number. The output is the same for any number.

            Exit codes: 0 no finding reached --fail-on; 1 at least one finding reached --fail-on, \
            or with --stdin, lines were rejected or compressed input was damaged or cut short; \
            2 the database, a file or the configuration could not be read; 3 nothing to check (no \
            events in the database, for the --device given, in the --since/--until window, or on \
            standard input, or no launch of the --app or --app-version given); 64 the command \
            line is wrong.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, jsonl
    }

    @Argument(help: "Files or directories to ingest first (as `lifeline ingest` would).")
    var paths: [String] = []

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Read events from standard input and write findings (JSON lines unless --format is given); no database.")
    var stdin = false

    @Flag(help: "With --stdin: standard input holds `lifeline key-by-device` records, each device's together.")
    var keyed = false

    @Flag(help: "With --stdin: standard input holds each device's lines together, device after device; each device is finished when the next begins, so memory holds one device's state.")
    var grouped = false

    @Option(help: ArgumentHelp("With --stdin, in any order: replay at most this many devices as their lines come (default \(Analyzer.devicesInMemory)); the events of devices after them wait in a temporary file and are replayed after the stream ends.", valueName: "n"))
    var devicesInMemory: Int?

    @Option(help: ArgumentHelp("With --stdin: write the totals (lines, events, duplicates, rejects by reason, lost lines, findings by rule) to this file as JSON.", valueName: "file"))
    var summaryJson: String?

    @Option(help: ArgumentHelp("With --stdin: also write each launch's row of the launches table (how it started and ended, its time in each state) to this file as JSON lines.", valueName: "file"))
    var launches: String?

    @Option(help: "Output format: text, json or jsonl (default: text; jsonl with --stdin).")
    var format: Format?

    /// The format asked for, or the default: text for a person, JSON lines for a stream.
    var outputFormat: Format { format ?? (stdin ? .jsonl : .text) }

    @Option(help: ArgumentHelp("Replay only this device (repeatable).", valueName: "id"))
    var device: [String] = []

    @Option(help: ArgumentHelp("Report only this rule (repeatable); `lifeline rules` lists them.", valueName: "rule-id"))
    var rule: [String] = []

    @OptionGroup var time: TimeWindowOptions

    @OptionGroup var apps: AppOptions

    @Option(help: ArgumentHelp("Exit 1 when a reported finding has at least this severity: info, warning or error.", valueName: "severity"))
    var failOn: Severity?

    @OptionGroup var budgets: BudgetOptions

    @Flag(help: "No progress line, even on a terminal.")
    var quiet = false

    func validate() throws {
        try CommandFailure.reporting { try checkArguments() }
    }

    func run() throws {
        try CommandFailure.reporting {
            try OutputDestination.checkBeforehand(
                [("--summary-json", summaryJson), ("--launches", launches)], standardOutputCarries: "the findings")
            let window = try time.window()
            var options = CheckOptions()
            options.configuration = try budgets.configuration()
            options.devices = device.isEmpty ? .all : .only(device)
            options.rules = rule.isEmpty ? nil : Set(rule)
            options.since = window.since
            options.until = window.until
            options.apps = apps.selection
            let threads = try ReplayThreadsSetting.parse()
            var streamWasBad = false
            let worst = stdin
                ? try streamStandardInput(options, replayThreads: threads, bad: &streamWasBad)
                : try checkStore(options, replayThreads: threads)
            if let failOn, let worst, worst >= failOn { throw ExitCode(ExitStatus.findingsOrBadInput.rawValue) }
            // Findings of a stream with damaged, cut or rejected input stand on part of the data.
            if streamWasBad { throw ExitCode(ExitStatus.findingsOrBadInput.rawValue) }
        }
    }

    /// Ingests PATHs, replays the store and prints the report; returns the worst severity.
    /// Without PATHs the database must exist; one that cannot be written is replayed and
    /// reported without recording the findings, and says so.
    private func checkStore(_ options: CheckOptions, replayThreads: Int?) throws -> Severity? {
        var options = options
        options.record = !paths.isEmpty || database.isWritable
        let store = try database.open(!paths.isEmpty ? .create : options.record ? .existing : .readOnly)
        if !paths.isEmpty { try ingest(into: store) }
        let report: CheckReport
        // The findings of the same devices, launches and window, so the list is the one counted.
        let listCommand = "lifeline check" + database.argument + device.map { " --device \(ShellWord.quoted($0))" }.joined()
            + apps.arguments + (time.since.map { " --since \(ShellWord.quoted($0))" } ?? "")
            + (time.until.map { " --until \(ShellWord.quoted($0))" } ?? "")
        // Written while the run is saved, printed once it is (see ``ReportSpool``).
        let spool = options.record ? ReportSpool() : nil
        let format = outputFormat
        do {
            let progress = ProgressLine(enabled: !quiet && Terminal.isInteractive(.standardError))
            report = try Analyzer().check(
                store: store, options: options, version: LifelineVersion.current, replayWorkers: replayThreads,
                progress: { progress.show(replay: $0) },
                whileRecording: { report in
                    guard let spool, report.events > 0 else { return }
                    // A spool that fails is dropped, and the report printed as it comes.
                    do { try Self.write(report, format: format, listCommand: listCommand, to: spool.write) } catch {
                        spool.abandon(because: error)
                    }
                })
            progress.clear()
        } catch {
            throw CommandFailure.unreadable("\(error)")
        }
        guard report.events > 0 else {
            // With --app, devices that hold events but no launch of the app are the reason.
            let holdsEvents = try CommandFailure.reading { () throws -> Bool in
                guard options.apps.isSet else { return false }
                if device.isEmpty { return try store.holdsEvents(device: nil) }
                return try device.contains { try store.holdsEvents(device: $0) }
            }
            throw holdsEvents ? database.nothingOf(options.apps, devices: device) : database.nothingToCheck(devices: device, inWindow: false)
        }
        // Some devices had events: a mistyped one among them is said, not passed over.
        if device.count > 1 {
            for name in device where try !CommandFailure.reading({ try store.holdsEvents(device: name) }) {
                Terminal.printError(
                    "note: no events for device \(ShownValue.shown(name)) in \(database.path); the others were replayed;"
                        + " `sqlite3 \(ShellWord.database(database.path)) 'SELECT name FROM devices'` lists the devices")
            }
        }
        // Findings are filtered by the window, the replay is not: a window no event falls in
        // reports none, which must not read as a clean run (a mistyped date in a nightly job).
        if report.findings.isEmpty, options.hasWindow {
            let inWindow = try CommandFailure.reading { () throws -> Bool in
                try (device.isEmpty ? [nil] : device.map(Optional.some)).contains {
                    try store.holdsEvents(device: $0, since: options.since, until: options.until)
                }
            }
            if !inWindow { throw database.nothingInWindow(options, devices: device) }
        }
        let output = StandardOutputBytes()
        if let spool, (try? spool.finish()) != nil {
            try spool.copy(to: output)
        } else {
            try Self.write(report, format: format, listCommand: listCommand, to: output.write)
        }
        try output.finish()
        if !options.record {
            Terminal.printError("note: \(store.path) is read-only: the findings were reported, not recorded in its findings table")
        }
        return report.worstSeverity
    }

    private func ingest(into store: Store) throws {
        let progress = ProgressLine(enabled: !quiet && Terminal.isInteractive(.standardError))
        let summary = Ingestor(store: store).ingest(paths) { progress.show(ingest: $0) }
        progress.clear()
        summary.printFailures()
        summary.printBadInput()
        summary.printNothingFound(in: paths)
        // The ingest summary goes to standard error when standard output carries JSON.
        let ingestText = summary.text()
        if outputFormat == .text { print(ingestText + "\n") } else { Terminal.printError(ingestText) }
        if summary.status == .failed { throw ExitCode(ExitStatus.unreadable.rawValue) }
    }

    /// Prints the report in the chosen format; `listCommand` lists every finding of a rule.
    private func render(_ report: CheckReport, listCommand: String?) throws {
        let output = StandardOutputBytes()
        try Self.write(report, format: outputFormat, listCommand: listCommand, to: output.write)
        try output.finish()
    }

    /// Writes the report in `format` as UTF-8, in pieces, to `output`.
    private static func write(
        _ report: CheckReport, format: Format, listCommand: String?, to output: (UnsafeRawBufferPointer) -> Void
    ) throws {
        func line(_ text: String) {
            var text = text + "\n"
            text.withUTF8 { output(UnsafeRawBufferPointer($0)) }
        }
        switch format {
        case .text: line(TextReport.render(report, listCommand: listCommand))
        case .json:
            try JSONReport.write(report, to: output)
            line("")
        case .jsonl: try report.findings.forEach { line(JSONReport.line($0)) }
        }
    }

    /// Streams standard input to findings, printed as they come (JSON lines) or as one report
    /// at the end (text, json); returns the worst severity, and sets `streamWasBad` when lines
    /// were rejected or compressed input was damaged or cut.
    private func streamStandardInput(
        _ options: CheckOptions, replayThreads: Int?, bad streamWasBad: inout Bool
    ) throws -> Severity? {
        var worst: Severity?
        // Findings printed as one report at the end are kept in a log that spills to disk.
        let collected = FindingLog()
        let started = Date()
        let format = outputFormat
        let totals: Analyzer.StreamTotals
        let launchesFile = try launches.map(OutputDestination.Staged.init)
        // Whatever stops the run before the file is whole leaves the name as it was.
        var launchesDone = false
        defer { if !launchesDone { launchesFile?.discard() } }
        let launchLines = launchesFile.map { LaunchLines(handle: $0.handle, apps: options.apps) }
        do {
            let keep: (Finding) throws -> Void = { finding in
                worst = max(worst ?? finding.severity, finding.severity)
                if format == .jsonl { print(JSONReport.line(finding)) } else { try collected.append(finding) }
            }
            if keyed {
                totals = try KeyedReplay().run(path: "-", options: options, records: launchLines, emit: keep)
                for file in totals.files where file.rejectCount > 0 || !file.damage.isEmpty || file.outcome == .failed {
                    Terminal.printError(Self.describe(file))
                }
            } else {
                // On a terminal, a progress line on standard error, cleared before anything else is
                // written there; not while findings stream to the same terminal as JSON lines.
                let progress = ProgressLine(
                    enabled: !quiet && Terminal.isInteractive(.standardError)
                        && !(format == .jsonl && Terminal.isInteractive(.standardOutput)))
                defer { progress.clear() }
                totals = try Analyzer().stream(
                    path: "-", options: options, records: launchLines, replayWorkers: replayThreads, grouped: grouped,
                    devicesInMemory: devicesInMemory ?? Analyzer.devicesInMemory, progress: { progress.show(stream: $0) },
                    emit: keep
                ) { line, issue in
                    progress.clear()
                    Terminal.printError("stdin:\(line): \(issue.reason.rawValue): \(issue.message)")
                }
                progress.clear()
                for damage in totals.damage {
                    Terminal.printError("stdin: bytes \(damage.from)-\(damage.to): \(damage.linesText) lost: \(damage.reason)")
                }
            }
        } catch {
            throw CommandFailure.unreadable("standard input: \(error)")
        }
        if let launchLines, let launchesFile, let launches {
            do {
                try launchLines.finish()
            } catch {
                throw CommandFailure.unreadable("cannot write \(launches): \(error.localizedDescription)")
            }
            try launchesFile.commit()
            launchesDone = true
        }
        if let summaryJson {
            let text = try StreamSummary.json(totals, budgets: options.configuration.budgets, version: LifelineVersion.current)
            try OutputDestination.write(text + "\n", to: summaryJson)
        }
        if !quiet || totals.inputWasBad { Terminal.printError(StreamSummary.line(totals)) }
        if totals.inputWasBad { streamWasBad = true }
        // A stream that was damaged or had bad lines is bad input (exit 1) even when nothing in it
        // could be replayed; "nothing to check" (exit 3) is for input that was read whole.
        guard totals.events > 0 || totals.inputWasBad || keyed else {
            let which = device.isEmpty ? "no events" : "no events of device \(device.joined(separator: ", "))"
            throw CommandFailure.nothingToCheck(
                "standard input held \(which) (\(totals.lines.counted("line")) read, \(totals.rejects.counted("bad line")))")
        }
        guard totals.eventsInWindow > 0 || totals.inputWasBad || keyed else {
            throw CommandFailure.nothingToCheck(
                "none of the \(totals.events.counted("event")) on standard input falls \(options.windowDescription), so no "
                    + "finding could be reported; \(CommandFailure.checkTheDates)")
        }
        guard !options.apps.isSet || totals.appLaunches > 0 || totals.inputWasBad || keyed else {
            throw CommandFailure.nothingToCheck(
                "standard input held no launch of \(options.apps) (\(totals.events.counted("event")) of "
                    + "\(totals.devices.counted("device")) replayed, none reported)")
        }
        if format != .jsonl {
            try render(
                CheckReport(
                    source: "standard input", devices: totals.devices, events: totals.events,
                    seconds: Date().timeIntervalSince(started), findings: collected, filters: options.filterDescriptions),
                listCommand: nil)
        }
        return worst
    }
}

extension CheckCommand {
    /// One line on what went wrong in a file that `key-by-device` read.
    static func describe(_ file: FileReport) -> String {
        if file.outcome == .failed { return "\(file.path): not read: \(file.message ?? "failed")" }
        var parts: [String] = []
        if file.rejectCount > 0 {
            let reasons = file.rejects.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            parts.append("\(file.rejectCount.counted("rejected line")) (\(reasons))")
        }
        for damage in file.damage { parts.append("\(damage.kind == .cut ? "cut short" : "damaged"): \(damage)") }
        return "\(file.path): " + parts.joined(separator: "; ")
    }
}

extension Severity: ExpressibleByArgument {}
