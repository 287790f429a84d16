import Foundation

extension FleetSummary {
    /// The summary for a pull request or a chat post: totals and the change since the run
    /// before, findings by rule with the rule's sentence and examples, terminations, and where
    /// the findings concentrate.
    public func markdown() -> String {
        var lines = ["# Lifeline report", ""]
        lines.append(headline)
        if let filters = windowText { lines += ["", filters] }
        lines.append("")
        lines.append("| severity | findings |")
        lines.append("|---|---|")
        for severity in ["error", "warning", "info"] { lines.append("| \(severity) | \(findingsBySeverity[severity] ?? 0) |") }
        if !rules.isEmpty {
            lines += ["", "## Findings by rule", "", "| rule | category | severity | findings | devices |", "|---|---|---|---|---|"]
            for rule in rules {
                lines.append("| `\(rule.rule)` | \(rule.category) | \(rule.severity) | \(rule.findings) | \(rule.devices) |")
            }
            for rule in rules {
                lines += ["", "### `\(rule.rule)` — \(rule.findings.counted("finding")) on \(rule.devices.counted("device"))", ""]
                lines += [rule.summary, "", "> " + rule.source.replacingOccurrences(of: "\n", with: " "), ""]
                for sample in rule.samples {
                    lines.append("- \(sample.ts), device `\(PrintableText.escaped(sample.device))`: \(PrintableText.markdown(sample.message))")
                }
                if rule.findings > rule.samples.count { lines.append("- … \(rule.findings - rule.samples.count) more") }
            }
        }
        if !terminations.isEmpty {
            lines += ["", "## How processes ended", "", "| reason | terminations | explained by a finding |", "|---|---|---|"]
            for termination in terminations {
                lines.append("| \(PrintableText.markdown(termination.name, inTable: true)) | \(termination.count) | \(termination.detail ?? "0") |")
            }
        }
        for (title, counts) in [("Devices", topDevices), ("App versions", topVersions), ("OS releases", topOSReleases)] where !counts.isEmpty {
            lines += ["", "## \(title) with the most findings", ""]
            lines.append(contentsOf: counts.map { "- `\(PrintableText.escaped($0.name))`: \($0.count)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// "42 findings in 1,234 events; 3 fewer than the run before."
    public var headline: String {
        // A run imported without its totals counted no events: it is not "in 0 events".
        var text = events == 0 && findings > 0
            ? "\(findings.counted("finding")) of a run imported without its count of events"
            : "\(findings.counted("finding")) in \(events.counted("event"))"
        if let latest = latestRun {
            let scope = latest.wholeStore ? "" : ", of \(latest.devices.counted("device")) only"
            text += " (latest check \(latest.finishedAt)\(scope), Lifeline \(latest.version))"
        }
        if let latest = latestRun, let previous = previousRun {
            let change = latest.findings - previous.findings
            text += change == 0 ? "; as many as the run before" : "; \(abs(change)) \(change > 0 ? "more" : "fewer") than the run before (\(previous.findings))"
        }
        return text + "."
    }

    private var windowText: String? {
        let parts = [window.since.map { "since \($0)" }, window.until.map { "until \($0)" },
                     window.app.map { "app \($0)" }, window.appVersion.map { "version \($0)" }].compactMap { $0 }
        return parts.isEmpty ? nil : "Only " + parts.joined(separator: ", ") + "."
    }
}

extension FleetSummary {
    /// The summary as pretty JSON with sorted keys (the shape is this type's, documented in the
    /// README), ending in a newline.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
