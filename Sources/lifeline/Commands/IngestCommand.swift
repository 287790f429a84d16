import ArgumentParser
import Foundation
import LifelineKit
import TraceStore

struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Read event logs into the database, idempotently.",
        discussion: """
            Reads files, directories (recursively: files named *.jsonl, *.jsonl.zst, *.jsonl.gz, \
            *.ndjson…, in any case; a directory with files but none named so is an error) and - \
            for standard input. A file named on its own is read whatever its name. The format is \
            told by the first bytes: zstd \
            (several frames allowed), gzip, or plain JSON lines. A file already ingested is \
            skipped; an event already stored (same device, launch and seq) is not stored again; \
            a bad line is kept in the `rejects` table with its reason; an ingest that was \
            interrupted resumes where it stopped when run again.

            Exit codes: 0 everything was stored; 1 some input was bad (rejected lines or a file \
            cut short) but every good line was stored; 2 a path could not be read or the \
            database failed; 64 the command line is wrong.
            """)

    @Argument(help: "Files, directories, or - for standard input.")
    var paths: [String]

    @OptionGroup var database: DatabaseOption

    @Flag(help: "Print the summary as one JSON object on standard output.")
    var json = false

    @Flag(help: "No progress line, even on a terminal.")
    var quiet = false

    func run() throws {
        try CommandFailure.reporting { try refuseToCreateForNothing() }
        let store = try CommandFailure.reporting { try database.open(.create) }
        let progress = ProgressLine(enabled: !quiet && Terminal.isInteractive(.standardError))
        let summary = Ingestor(store: store).ingest(paths) { progress.show(ingest: $0) }
        progress.clear()
        summary.printFailures()
        summary.printBadInput()
        summary.printNothingFound(in: paths)
        if json {
            try JSONOutput.write(summary, elements: summary.files, marker: IngestSummary.filesMarker) {
                print($0, terminator: "")
            }
            print()
        } else {
            print(summary.text())
        }
        throw ExitCode(summary.status.exitCode)
    }
}

extension IngestCommand {
    /// A mistyped path used to leave a new, empty database behind (exit 2): when no path given
    /// exists, a database that does not exist yet is not created.
    func refuseToCreateForNothing() throws {
        let manager = FileManager.default
        guard !manager.fileExists(atPath: database.path), !paths.isEmpty,
              paths.allSatisfy({ $0 != "-" && !manager.fileExists(atPath: $0) })
        else { return }
        let names = paths.map(ShellWord.quoted).joined(separator: ", ")
        throw CommandFailure.unreadable(
            "\(names): no such file or directory; nothing was read, and \(database.path) was not created")
    }
}

extension IngestStatus {
    var exitCode: Int32 {
        switch self {
        case .clean: 0
        case .badInput: 1
        case .failed: 2
        }
    }
}
