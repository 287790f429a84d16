import Foundation
import Reports
import TraceModel

extension IngestSummary {
    /// The summary a person reads at the end of an ingest: totals first, then one line for
    /// each file that needs attention (truncated, damaged, with rejects, ignored, left to another
    /// ingest), then what to do next. Failures are not repeated here: they go to standard error.
    public func text() -> String {
        var lines: [String] = []
        let seconds = String(format: "%.2f", wallSeconds)
        lines.append("Ingested into \(database) in \(seconds) s")
        lines.append(
            "  files     \(count(.ingested)) ingested, \(count(.resumed)) resumed, \(count(.skipped)) skipped"
                + " (already stored), \(truncatedFiles) truncated, \(damagedFiles) damaged, \(count(.failed)) failed"
                + (count(.ignored) > 0 ? ", \(count(.ignored)) ignored (why: below)" : "")
                + (count(.elsewhere) > 0 ? ", \(count(.elsewhere)) left to another running ingest" : ""))
        lines.append(
            "  events    \(events) stored, \(duplicates) duplicates ignored"
                + " (\(Self.rate(eventsPerSecond)) lines/s, \(String(format: "%.1f", Double(bytes) / 1_000_000 / max(wallSeconds, 1e-9))) MB/s)")
        if rejects > 0 {
            let reasons = rejectsByReason.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            lines.append("  rejects   \(rejects.counted("line")) kept aside: \(reasons)")
        } else {
            lines.append("  rejects   none")
        }
        lines.append(
            lostLines > 0 || truncatedFiles > 0 || damagedFiles > 0
                ? "  lost      \(StreamDamage.linesText(lostLines, exact: !files.contains { $0.damage.contains { !$0.exact } }))"
                    + " in damaged or cut-short compressed input (where: below)"
                : "  lost      none")
        let attention = files.filter {
            $0.outcome == .ignored || $0.outcome == .elsewhere || !$0.damage.isEmpty || $0.truncated || $0.rejectCount > 0
        }
        if !attention.isEmpty {
            lines.append("")
            for file in attention { lines.append("  " + Self.describe(file)) }
        }
        switch status {
        case .clean: break
        case .badInput where rejects > 0:
            lines.append("")
            lines.append("Some input was bad; every good line was stored. See the bad lines with:")
            lines.append("  sqlite3 \(ShellWord.database(database)) \"SELECT f.path, r.line, r.reason, r.message FROM rejects r JOIN files f ON f.id = r.file_id\"")
        case .badInput:
            lines.append("")
            lines.append("Some compressed input was damaged or cut short (where: above); every line that could be read was stored.")
        case .failed:
            lines.append("")
            lines.append("Some paths could not be ingested (see standard error); fix them and run the same command again:")
            lines.append("what was stored is kept and nothing is stored twice.")
        }
        return lines.joined(separator: "\n")
    }

    /// One file's line; its path (and a message naming another) escaped, as a name from an
    /// upload may hold a newline or a terminal's escape sequence.
    private static func describe(_ file: FileReport) -> String {
        PrintableText.escaped(Self.line(file))
    }

    private static func line(_ file: FileReport) -> String {
        if file.outcome == .ignored { return "\(file.path): ignored: \(file.message ?? "not a regular file")" }
        if file.outcome == .elsewhere { return "\(file.path): left to another ingest: \(file.message ?? "it is being read")" }
        var parts: [String] = []
        for damage in file.damage where damage.kind == .corrupt { parts.append("damaged: \(damage)") }
        if file.truncated { parts.append("cut short: \(file.cut ?? "stream ended early")") }
        if file.rejectCount > 0 {
            let reasons = file.rejects.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            parts.append("\(file.rejectCount.counted("rejected line")) (\(reasons.joined(separator: ", ")))")
        }
        return "\(file.path): " + parts.joined(separator: "; ")
    }

    static func rate(_ value: Double) -> String {
        value >= 1000 ? "\(Int((value / 1000).rounded()))k" : "\(Int(value.rounded()))"
    }
}
