import Reports

/// The line `check --stdin` ends with on standard error: what was replayed, and every line
/// that was not (rejected, or lost with the byte ranges of the damage).
public enum StreamSummary {
    public static func line(_ totals: Analyzer.StreamTotals) -> String {
        var text = "replayed \(totals.events.counted("event")) of \(totals.devices.counted("device")): "
            + "\(totals.findings.counted("finding")), \(totals.rejects.counted("rejected line")), "
            + "\(totals.lostLines.counted("lost line"))"
        if !totals.damage.isEmpty {
            text += " (" + totals.damage.map { "bytes \($0.from)-\($0.to): \($0.lines)" }.joined(separator: ", ") + ")"
        }
        return text
    }
}
