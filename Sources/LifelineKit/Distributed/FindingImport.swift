import Foundation
import Replay
import Reports
import Rules
import TraceDecode
import TraceModel
import TraceStore

/// Loads findings written as JSON lines (`check --stdin`, the Spark job's `findings.jsonl/`)
/// into a store as one run, so that `query` and `report` answer on them as after a `check`.
///
/// The run replaces every finding the store held (as a `check` of all devices does). A finding
/// that explains another must come before it, as a replay writes them; its link is then kept
/// in `explained_by`. Events are referred to by `seq` only: findings from a stream have no
/// store row ids.
public struct FindingImport {
    /// What the run was, from the job's `summary.json` when there is one.
    public struct RunTotals: Sendable {
        public var devices = 0
        public var events = 0
        public var startedAt = Date()
        public var finishedAt = Date()
        /// The budgets as JSON (`{"refresh-task":30,…}`); defaults when unknown.
        public var budgets: String?
        public var version: String?

        public init() {}
    }

    /// A line that is not a finding, with where it is.
    public struct LineError: Error, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var message: String
        public var description: String { "\(path):\(line): \(message)" }
    }

    /// Input that holds no run: no finding file, or files with no finding and no `summary.json`
    /// saying that events were replayed. Loading it would replace the store's findings with
    /// none, so nothing is loaded.
    public struct NothingToImport: Error, CustomStringConvertible {
        public var description: String

        /// No file of findings at all (checked before the store is opened, so none is created).
        public static let noFindingsFile = NothingToImport(description: "no findings file (no findings.jsonl, part-* or .jsonl file)")
    }

    public init() {}

    /// The finding files under `path`: `path` itself if it is a file; for a directory, the
    /// Spark job's output (`findings.jsonl`, a file or a directory of part files), or else
    /// the `.jsonl` and `part-*` files directly in it, in name order.
    public static func findingFiles(at path: String) throws -> [String] {
        if path == "-" { return [path] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LineError(path: path, line: 0, message: "no such file or directory")
        }
        guard isDirectory.boolValue else { return [path] }
        let jobOutput = (path as NSString).appendingPathComponent("findings.jsonl")
        if FileManager.default.fileExists(atPath: jobOutput) { return try findingFiles(at: jobOutput) }
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        return names.filter { ($0.hasSuffix(".jsonl") || $0.hasPrefix("part-")) && !$0.hasPrefix(".") }
            .map { (path as NSString).appendingPathComponent($0) }
    }

    /// The run's totals from a `summary.json` beside the findings (the Spark job's), if any.
    public static func runTotals(at path: String) -> RunTotals {
        var totals = RunTotals()
        let summary = (path as NSString).appendingPathComponent("summary.json")
        guard let data = FileManager.default.contents(atPath: summary),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return totals }
        totals.devices = (object["devices"] as? Int) ?? 0
        totals.events = (object["events"] as? Int) ?? 0
        let dates = ISO8601DateFormatter()
        dates.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let text = object["startedAt"] as? String, let date = dates.date(from: text) { totals.startedAt = date }
        if let text = object["finishedAt"] as? String, let date = dates.date(from: text) { totals.finishedAt = date }
        if let budgets = object["budgets"] as? [String: Any],
           let data = try? JSONSerialization.data(withJSONObject: budgets, options: [.sortedKeys])
        {
            totals.budgets = String(decoding: data, as: UTF8.self)
        }
        totals.version = object["version"] as? String
        return totals
    }

    /// Reads every finding of `files` and records them in `store` as one run; returns how many.
    @discardableResult
    public func load(files: [String], into store: Store, totals: RunTotals, version: String) throws -> Int {
        let findings = FindingLog()
        for file in files {
            // `-` is standard input (`check --stdin | lifeline import-findings -`).
            let path = file == "-" ? "stdin" : file
            guard let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : FileManager.default.contents(atPath: file) else {
                throw LineError(path: path, line: 0, message: "cannot be read")
            }
            var number = 0
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
                number += 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
                try findings.append(try Self.finding(Data(line), path: path, line: number))
            }
        }
        guard !files.isEmpty else { throw NothingToImport.noFindingsFile }
        // No finding is a run's answer only when the run is known to have replayed something.
        guard findings.count > 0 || totals.events > 0 else {
            throw NothingToImport(
                description: "no finding in \(files == ["-"] ? "standard input" : files.count == 1 ? files[0] : "\(files.count) files"), and no summary.json "
                    + "saying that events were replayed")
        }
        let run = RunInfo(
            startedAt: totals.startedAt, finishedAt: totals.finishedAt, version: totals.version ?? version,
            budgets: totals.budgets ?? Analyzer.json(Budgets()), scope: nil, devices: totals.devices,
            events: totals.events)
        try store.saveRun(run, devices: .all, count: findings.count, findings: findings.forEach)
        return findings.count
    }

    /// What is wrong with a line, in the words of the finding's fields (`rule` should be text),
    /// rather than the decoder's dump.
    static func reason(_ error: any Error) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
        }
        switch error as? DecodingError {
        case .typeMismatch(_, let context)? where context.codingPath.isEmpty:
            return "not a JSON object"
        case .typeMismatch(let type, let context)?:
            let expected = type == String.self ? "text" : type == Bool.self ? "true or false"
                : [Int.self, Int64.self, Double.self].contains { $0 == type } ? "a number" : "\(type)"
            return "`\(field(context.codingPath))` should be \(expected)"
        case .keyNotFound(let key, let context)?:
            return "`\(field(context.codingPath + [key]))` is missing"
        case .valueNotFound(_, let context)?:
            return "`\(field(context.codingPath))` is null"
        case .dataCorrupted(let context)?:
            // Foundation says no more of a line it cannot parse, a number beyond a double's range included.
            return context.codingPath.isEmpty
                ? "not valid JSON (or a number in it beyond the range of a double)"
                : "`\(field(context.codingPath))`: \(context.debugDescription)"
        case nil, .some:
            return "\(error)"
        }
    }

    /// One finding from its JSON line (the shape `JSONReport.line` writes).
    static func finding(_ line: Data, path: String, line number: Int) throws -> Finding {
        func fail(_ message: String) -> LineError { LineError(path: path, line: number, message: message) }
        let json: JSONReport.FindingJSON
        do {
            json = try JSONDecoder().decode(JSONReport.FindingJSON.self, from: line)
        } catch {
            throw fail("not a finding: \(Self.reason(error))")
        }
        func time(_ text: String) throws -> Timestamp {
            guard let ts = TimestampParser.parse(text) else { throw fail("'\(text)' is not a time") }
            return ts
        }
        func refs(_ events: [JSONReport.EventJSON]) throws -> [EventRef] {
            try events.map { EventRef(rowID: nil, seq: $0.seq, name: $0.event, ts: try time($0.ts)) }
        }
        guard let rule = RuleCatalog.rule(id: json.rule) else {
            throw fail("unknown rule \(ShownValue.shown(json.rule)): not one of this Lifeline's rules "
                + "(`lifeline rules` lists them); were the findings written by another version?")
        }
        guard let category = RuleCategory(rawValue: json.category) else { throw fail("unknown category '\(json.category)'") }
        if let explainer = json.explainedBy?.rule, RuleCatalog.rule(id: explainer) == nil {
            throw fail("unknown rule \(ShownValue.shown(explainer)) in explainedBy: not one of this Lifeline's rules")
        }
        guard category == rule.category else {
            throw fail("rule \(rule.id) is in category \(rule.category.rawValue), not \(ShownValue.shown(json.category))")
        }
        guard let severity = Severity(rawValue: json.severity) else { throw fail("unknown severity '\(json.severity)'") }
        let factors = try (json.factors ?? []).map { factor in
            guard let kind = Finding.FactorKind(rawValue: factor.kind) else { throw fail("unknown factor '\(factor.kind)'") }
            return Finding.Factor(kind: kind, share: factor.share, evidence: try refs(factor.evidence))
        }
        var finding = Finding(
            rule: json.rule, category: category, severity: severity, device: json.device, launch: json.launch,
            ts: try time(json.ts), events: try refs(json.events), budget: json.budget, budgetSeconds: json.budgetSeconds,
            measured: json.measured, message: json.message,
            explainedBy: try json.explainedBy.map { FindingRef(rule: $0.rule, ts: try time($0.ts)) }, factors: factors)
        finding.unit = json.unit
        return finding
    }
}
