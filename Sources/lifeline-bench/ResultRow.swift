import Foundation

/// One measured line of the benchmark's table.
struct ResultRow: Codable {
    var corpus: String
    var name: String
    var seconds: Double
    var events: Int
    var bytes: Int?
    var peakMB: Double?

    var eventsPerSecond: Double { Double(events) / seconds }

    /// The rows as a table, each timed against the references measured in the same run on the
    /// same files: `× zstd -dc` and `× DuckDB` are ratios of time per event (above 1 is slower).
    static func table(_ rows: [ResultRow], zstd: ResultRow, duckDB: ResultRow?) -> String {
        var lines = [pad("", 38) + pad("seconds", 9) + pad("events/s", 11) + pad("MB/s", 8) + pad("× zstd -dc", 12)
            + pad("× DuckDB", 10) + "peak RSS"]
        for row in rows {
            let megabytes = row.bytes.map { String(format: "%.1f", Double($0) / 1_000_000 / row.seconds) } ?? "-"
            lines.append(
                pad(row.name, 38) + pad(String(format: "%.2f", row.seconds), 9)
                    + pad(String(format: "%.0f", row.eventsPerSecond), 11) + pad(megabytes, 8)
                    + pad(ratio(row, zstd), 12) + pad(duckDB.map { ratio(row, $0) } ?? "-", 10)
                    + (row.peakMB.map { String(format: "%.0f MB", $0) } ?? "-"))
        }
        return lines.joined(separator: "\n")
    }

    /// How much faster each path ran on every core than held to one: the rows named
    /// "X, 1 core" against the row named X. Nil when no path was measured on one core.
    static func scaling(_ rows: [ResultRow], cores: Int) -> String? {
        let suffix = ", 1 core"
        let pairs = rows.filter { $0.name.hasSuffix(suffix) }.compactMap { single -> String? in
            let name = String(single.name.dropLast(suffix.count))
            guard let all = rows.first(where: { $0.name == name }) else { return nil }
            return String(format: "%@ %.2f×", name, single.seconds / all.seconds)
        }
        guard !pairs.isEmpty else { return nil }
        return "speed-up on \(cores) cores against 1: " + pairs.joined(separator: ", ")
    }

    private static func ratio(_ row: ResultRow, _ reference: ResultRow) -> String {
        String(format: "%.2f", reference.eventsPerSecond / row.eventsPerSecond)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}

/// The figures the benchmark reads back from `lifeline ingest --json`.
struct IngestFigures: Decodable {
    var events: Int
    var duplicates: Int
    var rejects: Int

    /// Lines that became events, whether newly stored or found stored already.
    var lines: Int { events + duplicates }

    init(json: String) throws {
        self = try JSONDecoder().decode(IngestFigures.self, from: Data(json.utf8))
    }
}

enum Machine {
    static func describe() -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)"
    }
}
