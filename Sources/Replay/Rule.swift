import TraceDecode
import TraceModel

/// One documented fact, declared once: its stable id, category and default severity, the
/// sentence of Apple's documentation it rests on, the budget it measures against, and
/// examples that are run as tests. Checks report findings through it.
public struct Rule: Sendable, Hashable, Identifiable {
    /// Stable kebab-case public name, never reused: reports, exit codes and SQL use it.
    public let id: String
    public let category: RuleCategory
    public let severity: Severity
    /// One sentence: what the rule wants.
    public let summary: String
    /// Where it comes from: Apple's page (title and link) and the sentence, quoted.
    public let source: String
    /// Where the documentation leaves room: what we picked, and why.
    public let notes: String?
    public let budget: BudgetName?
    /// True when a finding of this rule is a reason the system kills an app (held work, an
    /// overrun): a later termination of the same launch is then reported as explained by it.
    public let explainsTermination: Bool
    /// Traces that must not trigger the rule.
    public let passing: [Example]
    /// Traces that must trigger it, with `↓` before each line where a finding lands.
    public let failing: [Example]

    public init(
        id: String, category: RuleCategory, severity: Severity, summary: String, source: String,
        notes: String? = nil, budget: BudgetName? = nil, explainsTermination: Bool = false,
        passing: [Example], failing: [Example]
    ) {
        self.id = id
        self.category = category
        self.severity = severity
        self.summary = summary
        self.source = source
        self.notes = notes
        self.budget = budget
        self.explainsTermination = explainsTermination
        self.passing = passing
        self.failing = failing
    }

    public static func == (lhs: Rule, rhs: Rule) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// A tiny trace in JSON lines. Lines may omit `device` and `launch` (they default to `"D"` and
/// `"L1"`), and `ts` may be plain seconds from the start of the example, so examples stay short
/// enough to read. In a failing example, `↓` before a line marks an event at which the rule must
/// report. ``lines`` spells every line out as a complete trace line.
public struct Example: Sendable, Hashable {
    public let trace: String

    public init(_ trace: String) {
        self.trace = trace
    }

    /// One line of an example, spelled out.
    public struct Line: Sendable, Hashable {
        /// A complete trace line: `device`, `launch` and an RFC 3339 `ts` first, then the rest.
        public let json: String
        /// True where a finding of the rule must land (the line was marked `↓`).
        public let marked: Bool
    }

    /// Where an example's clock starts: its `"ts":0` is this moment (the Unix epoch, so that an
    /// example's `"ts":60` and its finding's time read the same in tests).
    public static let epoch = Timestamp(microseconds: 0)

    /// The example as complete trace lines, which `check --stdin` reads as they are.
    public var lines: [Line] {
        trace.split(separator: "\n").compactMap { raw in
            var text = raw.drop { $0 == " " || $0 == "\t" }
            guard !text.isEmpty else { return nil }
            let marked = text.hasPrefix("↓")
            if marked { text = text.dropFirst().drop { $0 == " " } }
            while text.last == " " || text.last == "\t" { text = text.dropLast() }
            return Line(json: Self.complete(String(text)), marked: marked)
        }
    }

    /// `line` with `device`, `launch` and an RFC 3339 `ts` as its first members. Examples are
    /// the catalogue's own text, written by hand: a line they cannot complete is kept as it is.
    private static func complete(_ line: String) -> String {
        guard line.hasPrefix("{") else { return line }
        var members = String(line.dropFirst())
        var head: [String] = []
        for (name, fallback) in [("device", "\"D\""), ("launch", "\"L1\"")] {
            head.append("\"\(name)\":" + (take(name, from: &members) ?? fallback))
        }
        if let ts = take("ts", from: &members) {
            let time: String
            if ts.hasPrefix("\""), ts.hasSuffix("\"") {
                time = ts
            } else if let seconds = TimestampParser.parse(ts) {
                time = "\"\(Timestamp(microseconds: epoch.microseconds &+ seconds.microseconds))\""
            } else {
                time = ts
            }
            head.append("\"ts\":" + time)
        }
        let rest = members.hasPrefix("}") ? members : "," + members
        return "{" + head.joined(separator: ",") + rest
    }

    /// Removes the member `name` (a scalar value: no nested object, no comma in a string) from
    /// `members` (an object's text after its `{`) and returns its value's text.
    private static func take(_ name: String, from members: inout String) -> String? {
        let key = "\"\(name)\":"
        guard let found = members.indices.first(where: { members[$0...].hasPrefix(key) }) else { return nil }
        let keyRange = found ..< members.index(found, offsetBy: key.count)
        var end = keyRange.upperBound
        var inString = false
        while end < members.endIndex {
            let character = members[end]
            if character == "\"" { inString.toggle() }
            if !inString, character == "," || character == "}" { break }
            end = members.index(after: end)
        }
        let value = String(members[keyRange.upperBound ..< end])
        var start = keyRange.lowerBound
        if end < members.endIndex, members[end] == "," {
            end = members.index(after: end)
        } else if start > members.startIndex, members[members.index(before: start)] == "," {
            start = members.index(before: start)
        }
        members.removeSubrange(start ..< end)
        return value
    }
}
