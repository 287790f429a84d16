import Foundation
import Replay
import Reports
import TraceModel

/// The line `check --stdin` ends with on standard error: what was replayed, and every line
/// that was not (rejected, or lost to damage: where, for one stretch; for several, each was
/// reported on its own line before, and this line counts them).
public enum StreamSummary {
    public static func line(_ totals: Analyzer.StreamTotals) -> String {
        "replayed \(totals.events.counted("event")) of \(totals.devices.counted("device"))"
            + (totals.duplicates > 0 ? " (\(totals.duplicates.counted("duplicate")) dropped)" : "") + ": "
            + "\(totals.findings.counted("finding")), \(totals.rejects.counted("rejected line")), "
            + lost(totals.lostLines, in: totals.damage)
            + (totals.fileCounts.failed > 0 ? ", \(totals.fileCounts.failed.counted("file")) not read (each reported above)" : "")
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
        /// each file's report in `damagedFiles` has its own).
        public var damage: [StreamDamage]
        /// For keyed input: how many files the records came from, by what became of them (all
        /// zero for standard input).
        public var files: FileCounts
        /// For keyed input: the report of each file that could not be read, was cut short or had
        /// damaged frames (files with only rejected lines are counted in `rejectsByReason`).
        public var damagedFiles: [FileReport]
    }

    /// Files by what became of them; a file can be both truncated and damaged.
    public struct FileCounts: Codable, Sendable, Hashable {
        public var read = 0
        public var failed = 0
        public var truncated = 0
        public var damaged = 0
        /// Files with at least one rejected line.
        public var withRejects = 0

        public init() {}

        public mutating func add(_ file: FileReport) {
            if file.outcome == .failed { failed += 1 } else { read += 1 }
            if file.truncated { truncated += 1 }
            if file.corrupt { damaged += 1 }
            if file.rejectCount > 0 { withRejects += 1 }
        }
    }

    public static func json(_ totals: Analyzer.StreamTotals, budgets: Budgets, version: String) throws -> String {
        let value = JSON(
            version: version,
            budgets: Dictionary(budgets.all.map { ($0.name.rawValue, $0.seconds) }, uniquingKeysWith: { $1 }),
            lines: totals.lines, decoded: totals.decoded, duplicates: totals.duplicates, events: totals.events,
            devices: totals.devices, findings: totals.findings, findingsByRule: totals.findingsByRule,
            rejects: totals.rejects, rejectsByReason: totals.rejectsByReason, blankLines: totals.blankLines,
            lostLines: totals.lostLines, lostLinesExact: totals.damage.allSatisfy(\.exact),
            damage: totals.files.isEmpty ? totals.damage : [], files: totals.fileCounts,
            damagedFiles: totals.files.filter { $0.outcome == .failed || $0.truncated || !$0.damage.isEmpty })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
