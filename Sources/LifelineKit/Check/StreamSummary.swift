import Reports
import TraceModel

/// The line `check --stdin` ends with on standard error: what was replayed, and every line
/// that was not (rejected, or lost to damage: where, for one stretch; for several, each was
/// reported on its own line before, and this line counts them).
public enum StreamSummary {
    public static func line(_ totals: Analyzer.StreamTotals) -> String {
        "replayed \(totals.events.counted("event")) of \(totals.devices.counted("device")): "
            + "\(totals.findings.counted("finding")), \(totals.rejects.counted("rejected line")), "
            + lost(totals.lostLines, in: totals.damage)
    }

    /// "0 lost lines"; "at least 3 lost lines (bytes 0-812)"; "an unknown number of lost lines
    /// (in 12 stretches of damage, each reported above)".
    private static func lost(_ lines: Int, in damage: [StreamDamage]) -> String {
        var text = lines.counted("lost line")
        if !damage.allSatisfy(\.exact) { text = lines == 0 ? "an unknown number of lost lines" : "at least " + text }
        switch damage.count {
        case 0: return text
        case 1: return text + " (bytes \(damage[0].from)-\(damage[0].to))"
        default: return text + " (in \(damage.count) stretches of damage, each reported above)"
        }
    }
}
