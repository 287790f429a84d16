import Foundation
import Replay
import TraceModel

/// The rule catalogue for people and scripts: `lifeline rules` prints it, and the README's
/// rule table and `docs/rules.md` are generated from it, so documentation cannot drift from
/// what the engine runs.
public enum RuleDocs {
    public static func text(_ rules: [Rule], budgets: Budgets) -> String {
        var rows: [[String]] = []
        for rule in rules {
            rows.append([rule.id, rule.category.rawValue, rule.severity.rawValue, budgetText(rule, budgets), rule.summary])
        }
        return TextReport.table(header: ["rule", "category", "severity", "budget", "summary"], rows: rows)
            .joined(separator: "\n")
    }

    /// Everything about one rule, as `lifeline rules RULE-ID` prints it.
    public static func detail(_ rule: Rule, budgets: Budgets) -> String {
        var lines = [
            rule.id,
            "  category  \(rule.category.rawValue)",
            "  severity  \(rule.severity.rawValue)",
        ]
        if rule.budget != nil { lines.append("  budget    \(budgetText(rule, budgets))") }
        lines += ["", wrap(rule.summary, indent: "  "), "", "  Source:", wrap(rule.source, indent: "    ")]
        if let notes = rule.notes { lines += ["", "  Where the documentation leaves room:", wrap(notes, indent: "    ")] }
        for example in rule.failing.prefix(1) {
            lines += ["", "  Example that triggers it (complete trace lines: pipe them into `lifeline check --stdin`):"]
            lines += example.lines.map { "    " + $0.json }
            lines.append("  The finding lands on " + landing(example))
        }
        return lines.joined(separator: "\n")
    }

    /// The catalogue as a Markdown table (README) or as full Markdown sections (docs/rules.md).
    public static func markdown(_ rules: [Rule], budgets: Budgets, sections: Bool) -> String {
        var lines = [
            "| rule | category | severity | budget | what it checks |",
            "|---|---|---|---|---|",
        ]
        for rule in rules {
            let link = sections ? "[`\(rule.id)`](#\(rule.id))" : "[`\(rule.id)`](docs/rules.md#\(rule.id))"
            lines.append(
                "| \(link) | \(rule.category.rawValue) | \(rule.severity.rawValue) | \(budgetText(rule, budgets)) | \(escape(rule.summary)) |")
        }
        guard sections else { return lines.joined(separator: "\n") }
        for rule in rules {
            lines += [
                "", "## \(rule.id)", "",
                "**\(rule.category.rawValue)**, \(rule.severity.rawValue)"
                    + (rule.budget == nil ? "" : ", budget \(budgetText(rule, budgets))"),
                "", rule.summary, "", "> \(rule.source)",
            ]
            if let notes = rule.notes { lines += ["", "Where the documentation leaves room: \(notes)"] }
            for (passes, examples) in [(true, rule.passing), (false, rule.failing)] {
                for example in examples {
                    lines += ["", passes ? "Passes:" : "Triggers it:", "", "```"]
                    lines += example.lines.map(\.json)
                    lines.append("```")
                    if !passes { lines += ["", "The finding lands on " + landing(example)] }
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    public struct RuleJSON: Codable, Sendable {
        public var id: String
        public var category: String
        public var severity: String
        public var budget: String?
        public var budgetSeconds: Double?
        public var summary: String
        public var source: String
        public var notes: String?
        public var explainsTermination: Bool
    }

    /// The catalogue as a JSON array of ``RuleJSON``.
    public static func json(_ rules: [Rule], budgets: Budgets) throws -> String {
        try encoded(rules.map { value($0, budgets: budgets) })
    }

    /// One rule as a JSON object, an element of ``json(_:budgets:)``'s array.
    public static func json(_ rule: Rule, budgets: Budgets) throws -> String {
        try encoded(value(rule, budgets: budgets))
    }

    /// The budgets and their values in seconds, as `lifeline rules --budgets` lists them.
    public static func budgets(_ budgets: Budgets, format: Format) throws -> String {
        switch format {
        case .text:
            return budgets.all.map { "\($0.name.rawValue)\t\($0.seconds)" }
                .joined(separator: "\n")
        case .json:
            return try encoded(Dictionary(uniqueKeysWithValues: budgets.all.map { ($0.name.rawValue, $0.seconds) }))
        case .markdown:
            return (["| budget | seconds |", "|---|---|"]
                + budgets.all.map { "| `\($0.name.rawValue)` | \($0.seconds) |" })
                .joined(separator: "\n")
        }
    }

    /// The formats `lifeline rules` prints in.
    public enum Format: String, Sendable, CaseIterable { case text, json, markdown }

    private static func value(_ rule: Rule, budgets: Budgets) -> RuleJSON {
        RuleJSON(
            id: rule.id, category: rule.category.rawValue, severity: rule.severity.rawValue,
            budget: rule.budget?.rawValue, budgetSeconds: rule.budget.map { budgets[$0] }, summary: rule.summary,
            source: rule.source, notes: rule.notes, explainsTermination: rule.explainsTermination)
    }

    private static func encoded(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Which lines of an example a finding lands on: `line 14 (suspend).`
    private static func landing(_ example: Example) -> String {
        let marked = example.lines.enumerated().filter(\.element.marked).map { index, line in
            let name = line.json.split(separator: "\"event\":\"").dropFirst().first?.prefix { $0 != "\"" } ?? "?"
            return "line \(index + 1) (\(name))"
        }
        return (marked.isEmpty ? "no line" : marked.joined(separator: " and ")) + "."
    }

    private static func budgetText(_ rule: Rule, _ budgets: Budgets) -> String {
        guard let budget = rule.budget else { return "-" }
        return "\(budget.rawValue) \(TextReport.format(budgets[budget], digits: 0)) s"
    }

    private static func escape(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    private static func wrap(_ text: String, indent: String, width: Int = 96) -> String {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + word.count + 1 > width - indent.count {
                lines.append(indent + current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
        }
        if !current.isEmpty { lines.append(indent + current) }
        return lines.joined(separator: "\n")
    }
}
