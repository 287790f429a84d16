import ArgumentParser
import Foundation
import LifelineKit
import Reports

struct ImportFindingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-findings",
        abstract: "Load findings written as JSON lines (the Spark job's output, or check --stdin's) into the database as one run.",
        discussion: """
            PATH is a file of findings as JSON lines (- for standard input), or a directory: the Spark job's output \
            (its findings.jsonl/ part files, and summary.json for the run's events, devices, \
            times and budgets), or a directory of .jsonl files. The findings replace those the \
            database held, as a `check` of every device does, so `query` and `report` answer \
            on them. The database is created if it does not exist; it need not hold the events \
            (then `report` counts no terminations or durations, and findings show no app \
            version or OS).

            Input with no finding file, or with no finding and no summary.json saying that \
            events were replayed, is refused: loading it would replace the database's findings \
            with none.

            Exit codes: 0 the findings were loaded; 2 a file or the database could not be read \
            or written, or a line is not a finding (nothing is loaded); 3 nothing to import (the \
            database is left as it was); 64 the command line is wrong.
            """)

    @Argument(help: "A file of findings as JSON lines (- for standard input), or a directory (the Spark job's output).")
    var path: String

    @OptionGroup var database: DatabaseOption

    func run() throws {
        try CommandFailure.reporting {
            let files: [String]
            do {
                files = try FindingImport.findingFiles(at: path)
            } catch {
                throw CommandFailure.unreadable("\(error)")
            }
            func refused(_ nothing: FindingImport.NothingToImport) -> CommandFailure {
                CommandFailure(
                    status: .nothingToCheck,
                    message: "nothing to import from \(path): \(nothing); the findings in \(database.path) are kept")
            }
            // Before the store is opened: a wrong path creates no database.
            if files.isEmpty { throw refused(.noFindingsFile) }
            var isDirectory: ObjCBool = false
            let isADirectory = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            let totals = isADirectory ? FindingImport.runTotals(at: path) : FindingImport.RunTotals()
            let store = try database.open(.create)
            let count: Int
            do {
                count = try FindingImport().load(files: files, into: store, totals: totals, version: LifelineVersion.current)
            } catch let nothing as FindingImport.NothingToImport {
                throw refused(nothing)
            } catch {
                throw CommandFailure.unreadable("\(error)")
            }
            print("Imported \(count.counted("finding")) from \(files == ["-"] ? "standard input" : files.count.counted("file")) into \(store.path) (\(totals.events.counted("event")) of \(totals.devices.counted("device")) replayed)")
            // The derived tables of a check before are not of these findings: they were emptied,
            // and the canned queries that read them answer nothing until a check derives them.
            if try CommandFailure.reading({ try store.holdsEvents(device: nil) }) {
                Terminal.printError(
                    "note: the derived tables (launches, intervals, tasks, requests) of \(store.path) were emptied, as they are not of "
                        + "these findings; `lifeline check\(database.argument)` derives them again, and replaces these findings with its own")
            }
        }
    }
}
