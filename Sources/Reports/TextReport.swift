import Replay
import TraceModel

/// The report a person reads at a terminal: a table per category and rule, then a few
/// example findings of each rule with their sentence, then where to read more.
public enum TextReport {
    /// How many findings of each rule are printed in full.
    public static let examplesPerRule = 3

    /// `listCommand` is the command that lists every finding of a rule, printed when a rule has
    /// more findings than are shown; it must carry the options that name the same database
    /// (`lifeline check --db FILE`). Nil when there is none to give (a stream has no database).
    public static func render(_ report: CheckReport, listCommand: String? = "lifeline check") -> String {
        var lines: [String] = []
        let filters = report.filters.isEmpty ? "" : " (\(report.filters.joined(separator: ", ")))"
        lines.append(
            "Replayed \(report.events.counted("event")) of \(report.devices.counted("device")) from \(report.source)"
                + " in \(format(report.seconds, digits: 2)) s\(filters)")
        guard !report.findings.isEmpty else {
            lines.append(report.filters.isEmpty
                ? "No findings: every replayed sequence follows the documented rules."
                : "No findings match the filters (every event was replayed; the filters select what is reported).")
            return lines.joined(separator: "\n")
        }
        lines.append("\(report.findings.count.counted("finding"))\n")
        let summaries = report.summaries
        let header = [
            "category", "rule", "severity", "findings", "devices", "launches", "worst (budget)",
        ]
        var rows: [[String]] = []
        for summary in summaries {
            let worst = summary.worst.map { value -> String in
                let budget = summary.budgetSeconds.map { " (\(format($0)) s)" } ?? ""
                let unit = summary.unit ?? "s"
                return unit == "s" ? "\(format(value)) s\(budget)" : "\(format(value, digits: 0)) \(unit)"
            } ?? "-"
            rows.append([
                summary.category.rawValue, summary.rule, summary.severity.rawValue, String(summary.findings),
                String(summary.devices), String(summary.launches), worst,
            ])
        }
        lines += table(header: header, rows: rows)
        for summary in summaries {
            lines.append("")
            lines.append("\(summary.rule) — \(summary.findings.counted("finding"))")
            let examples = report.findings.tally.examples(of: summary.rule)
            for finding in examples {
                lines.append("  \(finding.ts) device \(PrintableText.escaped(finding.device)) launch \(PrintableText.escaped(finding.launch))")
                lines.append("    \(PrintableText.escaped(finding.message))")
                if let cause = finding.explainedBy { lines.append("    explained by \(cause.rule) at \(cause.ts)") }
            }
            if summary.findings > examples.count {
                let more = "  … \(summary.findings - examples.count) more"
                lines.append(listCommand.map { "\(more): \($0) --rule \(summary.rule) --format jsonl" } ?? "\(more) (--format jsonl lists them all)")
            }
        }
        lines.append("")
        lines.append("What each rule means and the documentation it rests on: lifeline rules RULE-ID (or docs/rules.md).")
        return lines.joined(separator: "\n")
    }

    static func table(header: [String], rows: [[String]]) -> [String] {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
        return [line(header)] + rows.map(line)
    }

    /// A number of the report, rounded to `digits` places; total over all doubles.
    static func format(_ value: Double, digits: Int = 1) -> String {
        SecondsText.number(value, decimals: digits)
    }
}
