import LifelineKit
import Reports

extension IngestSummary {
    /// Each path that could not be ingested, as an error line on standard error (the summary,
    /// on standard output, counts them too).
    func printFailures() {
        for file in files where file.outcome == .failed {
            Terminal.printError("error: " + PrintableText.escaped(file.message ?? "\(file.path) could not be ingested"))
        }
    }

    /// Says so when the paths held no file at all (an upload directory a failed sync left empty):
    /// the run is clean, but a job should not read it as a day of logs stored.
    func printNothingFound(in paths: [String]) {
        guard files.isEmpty, !paths.isEmpty else { return }
        let names = paths.map { PrintableText.escaped(ShellWord.quoted($0)) }.joined(separator: ", ")
        Terminal.printError("note: \(names) held no files: nothing was ingested")
    }

    /// Each stretch of damaged or cut compressed input, and each file's first bad lines, as a line
    /// on standard error naming the file and where (as `check --stdin` names them); past
    /// ``FileReport/rejectsShown`` of a file, one line says how many more the `rejects` table holds.
    func printBadInput() {
        for file in files {
            // Standard input named as `check --stdin` names it.
            let path = file.path == "-" ? "stdin" : PrintableText.escaped(file.path)
            for damage in file.damage {
                Terminal.printError("\(path): bytes \(damage.from)-\(damage.to): \(damage.linesText) lost: \(damage.reason)")
            }
            for rejected in file.firstRejects {
                Terminal.printError(
                    "\(path):\(rejected.line): \(rejected.issue.reason.rawValue): \(PrintableText.escaped(rejected.issue.message))")
            }
            let more = file.rejectCount - file.firstRejects.count
            if more > 0 {
                Terminal.printError("\(path): \(more.counted("more rejected line")), in the rejects table of \(PrintableText.escaped(database))")
            }
        }
    }
}
