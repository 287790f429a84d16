import Foundation
import Replay
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

extension StreamSummary {
    /// The totals of `check --stdin` for a program (`--summary-json FILE`): one JSON object,
    /// keys sorted. Every line is accounted for: `lines` = `decoded` + `rejects` +
    /// `blankLines` + `lostLines` (for keyed input, `lines` counts the files' lines, as
    /// `key-by-device` read them); `events` is what was replayed (`decoded` less `duplicates`,
    /// and less the devices `--device` left out).
    public struct JSON: Codable, Sendable, Hashable {
        public var version: String
        /// The budgets the replay used, in seconds by name.
        public var budgets: [String: Double]
        public var lines: Int
        public var decoded: Int
        public var duplicates: Int
        public var events: Int
        public var devices: Int
        public var findings: Int
        public var findingsByRule: [String: Int]
        public var rejects: Int
        public var rejectsByReason: [String: Int]
        public var blankLines: Int
        public var lostLines: Int
        /// False when `lostLines` is only a lower bound (see ``StreamDamage/exact``).
        public var lostLinesExact: Bool
        /// Where compressed input was damaged or cut (standard input's bytes; for keyed input,
        /// each file's report has its own).
        public var damage: [StreamDamage]
        /// For keyed input: each file's report, as `key-by-device` wrote it.
        public var files: [FileReport]
    }

    public static func json(_ totals: Analyzer.StreamTotals, budgets: Budgets, version: String) throws -> String {
        let value = JSON(
            version: version,
            budgets: Dictionary(budgets.all.map { ($0.name.rawValue, $0.seconds) }, uniquingKeysWith: { $1 }),
            lines: totals.lines, decoded: totals.decoded, duplicates: totals.duplicates, events: totals.events,
            devices: totals.devices, findings: totals.findings, findingsByRule: totals.findingsByRule,
            rejects: totals.rejects, rejectsByReason: totals.rejectsByReason, blankLines: totals.blankLines,
            lostLines: totals.lostLines, lostLinesExact: totals.damage.allSatisfy(\.exact),
            damage: totals.files.isEmpty ? totals.damage : [], files: totals.files)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
