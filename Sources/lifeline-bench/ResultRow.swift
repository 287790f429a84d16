import Foundation

/// One measured line of the benchmark's table.
struct ResultRow: Codable {
    var name: String
    var seconds: Double
    var events: Int
    var bytes: Int?
    var peakMB: Double?

    var eventsPerSecond: Double { Double(events) / seconds }

    static func table(_ rows: [ResultRow], reference: ResultRow) -> String {
        var lines = [pad("", 30) + pad("seconds", 10) + pad("events/s", 12) + pad("MB/s", 9) + pad("× ref time", 12) + "peak RSS"]
        for row in rows {
            let megabytes = row.bytes.map { String(format: "%.1f", Double($0) / 1_000_000 / row.seconds) } ?? "-"
            let ratio = String(format: "%.1f", row.seconds / reference.seconds * Double(reference.events) / Double(row.events))
            lines.append(
                pad(row.name, 30) + pad(String(format: "%.2f", row.seconds), 10)
                    + pad(String(format: "%.0f", row.eventsPerSecond), 12) + pad(megabytes, 9) + pad(ratio, 12)
                    + (row.peakMB.map { String(format: "%.0f MB", $0) } ?? "-"))
        }
        return lines.joined(separator: "\n")
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
