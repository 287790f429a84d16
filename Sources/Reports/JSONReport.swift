import Foundation
import Replay
import TraceModel

/// Findings for scripts: `json` is one object (totals, per-rule summary, every finding);
/// `jsonl` is one finding per line, the shape `check --stdin` writes, for pipelines.
public enum JSONReport {
    /// One finding as JSON: times as RFC 3339 strings with microseconds; events with their
    /// store row id (when replayed from a database), `seq`, name and time.
    public struct FindingJSON: Codable, Hashable, Sendable {
        public var rule: String
        public var category: String
        public var severity: String
        public var device: String
        public var launch: String
        public var ts: String
        public var events: [EventJSON]
        public var budget: String?
        public var budgetSeconds: Double?
        public var measured: Double?
        public var unit: String?
        public var message: String
        public var explainedBy: ExplanationJSON?
        /// What held a request back (`bgtask-never-ran`, `fetch-never-ran`), most of the wait
        /// first; absent when the finding has none.
        public var factors: [FactorJSON]?

        public init(_ finding: Finding) {
            rule = finding.rule
            category = finding.category.rawValue
            severity = finding.severity.rawValue
            device = finding.device
            launch = finding.launch
            ts = finding.ts.description
            events = finding.events.map(EventJSON.init)
            budget = finding.budget
            budgetSeconds = finding.budgetSeconds
            measured = finding.measured.map { SecondsText.rounded($0) }
            unit = finding.unit
            message = finding.message
            explainedBy = finding.explainedBy.map { ExplanationJSON(rule: $0.rule, ts: $0.ts.description) }
            factors = finding.factors.isEmpty ? nil : finding.factors.map(FactorJSON.init)
        }
    }

    /// One factor of a wait: its kind (`low-power-mode`, …), the share of the wait it covered
    /// (0 to 1) and the events that show it, given as a finding's events are.
    public struct FactorJSON: Codable, Hashable, Sendable {
        public var kind: String
        public var share: Double
        public var evidence: [EventJSON]

        init(_ factor: Finding.Factor) {
            kind = factor.kind.rawValue
            share = SecondsText.rounded(factor.share)
            evidence = factor.evidence.map(EventJSON.init)
        }
    }

    public struct EventJSON: Codable, Hashable, Sendable {
        public var id: Int64?
        public var seq: Int64?
        public var event: String
        public var ts: String

        init(_ ref: EventRef) {
            id = ref.rowID
            seq = ref.seq
            event = ref.name
            ts = ref.ts.description
        }
    }

    public struct ExplanationJSON: Codable, Hashable, Sendable {
        public var rule: String
        public var ts: String
    }

    private struct Document<Finding: Encodable>: Encodable {
        var source: String
        var devices: Int
        var events: Int
        var seconds: Double
        var filters: [String]
        var summary: [SummaryJSON]
        var findings: [Finding]
    }

    private struct SummaryJSON: Encodable {
        var rule: String
        var category: String
        var severity: String
        var findings: Int
        var devices: Int
        var launches: Int
        var worst: Double?
        var budget: String?
    }

    public static func render(_ report: CheckReport) throws -> String {
        var bytes: [UInt8] = []
        try write(report) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the report as one JSON document, in pieces of UTF-8, so that findings are read from
    /// their log one at a time rather than all held: the document is encoded with a marker in
    /// place of the findings, and each finding, encoded alone, is written where the marker was,
    /// indented to its depth. The text is the same as encoding the whole document at once.
    ///
    /// Each finding is written into the same buffer, handed over as bytes: made into a `String`
    /// each (its UTF-8 checked again) and printed, 27,702 findings took a third more.
    public static func write(_ report: CheckReport, to output: (UnsafeRawBufferPointer) -> Void) throws {
        func put(_ text: some StringProtocol) {
            var text = String(text)
            text.withUTF8 { output(UnsafeRawBufferPointer($0)) }
        }
        let marker = "\u{1}findings\u{1}"
        let document = Document<String>(
            source: report.source, devices: report.devices, events: report.events,
            seconds: SecondsText.rounded(report.seconds), filters: report.filters,
            summary: report.summaries.map {
                SummaryJSON(rule: $0.rule, category: $0.category.rawValue, severity: $0.severity.rawValue,
                            findings: $0.findings, devices: $0.devices, launches: $0.launches,
                            worst: $0.worst.map { SecondsText.rounded($0) }, budget: $0.budget)
            },
            findings: report.findings.isEmpty ? [] : [marker])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = String(decoding: try encoder.encode(document), as: UTF8.self)
        let placeholder = "    \"\\u0001findings\\u0001\""
        guard !report.findings.isEmpty else { return put(text) }
        guard let found = text.range(of: placeholder) else {
            // Not expected: the encoder wrote the marker some other way. Encode it all at once.
            var findings: [FindingJSON] = []
            try report.findings.forEach { findings.append(FindingJSON($0)) }
            let whole = Document(
                source: document.source, devices: document.devices, events: document.events,
                seconds: document.seconds, filters: document.filters, summary: document.summary, findings: findings)
            return put(String(decoding: try encoder.encode(whole), as: UTF8.self))
        }
        put(text[..<found.lowerBound])
        var json = JSONBytes(pretty: true)
        var first = true
        try report.findings.forEach { finding in
            // At the findings array's depth: its elements' members are indented three levels.
            json.reuse(depth: 2)
            put(first ? "    " : ",\n    ")
            FindingJSON(finding).write(to: &json)
            json.bytes.withUnsafeBytes(output)
            first = false
        }
        put(text[found.upperBound...])
    }

    /// One timeline entry as JSON: the event's fields, the state after it and its findings.
    /// `attrs` is not here: it is spliced in as the JSON object it already is (see `line`).
    private struct TimelineJSON: Encodable {
        var ts: String
        var launch: String
        var seq: Int64?
        var event: String
        var state: String
        var phase, reason, cause, identifier, call, result: String?
        var task: Int64?
        var success: Bool?
        var findings: [FindingJSON]
    }

    public static func line(_ entry: TimelineEntry) throws -> String {
        let event = entry.event
        let value = TimelineJSON(
            ts: event.ts.description, launch: event.launch, seq: event.seq, event: event.name, state: entry.state,
            phase: event.phase, reason: event.reason, cause: event.cause, identifier: event.identifier,
            call: event.call, result: event.result, task: event.task, success: event.success,
            findings: entry.findings.map(FindingJSON.init))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = String(decoding: try encoder.encode(value), as: UTF8.self)
        guard let attrs = event.attrs, isJSONObject(attrs) else { return line }
        // The stored attrs are the object's own text, emitted as is (numbers keep their digits).
        // "attrs" sorts before every other key, so placed first the keys stay sorted.
        return "{\"attrs\":\(attrs),\(line.dropFirst())"
    }

    private static func isJSONObject(_ text: String) -> Bool {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any]
    }

    /// One line of JSON for one finding.
    public static func line(_ finding: Finding) -> String {
        FindingJSON(finding).text(pretty: false)
    }
}
