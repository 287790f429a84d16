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
}
