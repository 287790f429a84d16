import TraceModel

/// One line of a device's timeline: an event, the app's state after it, and the findings that
/// became evident at it.
public struct TimelineEntry: Sendable, Hashable {
    public var event: Event
    /// The app state after the event (`not running`, `inactive`, `active`, `background`,
    /// `suspended`).
    public var state: String
    public var findings: [Finding]

    public init(event: Event, state: String, findings: [Finding]) {
        self.event = event
        self.state = state
        self.findings = findings
    }
}

/// The timeline as text: a header per launch, then one line per event with its time, the
/// seconds since the launch began, the state after it and what it carried, and under it any
/// finding that landed there.
public struct TimelineText {
    private var launch: String?
    private var launchStart: Timestamp?

    public init() {}

    public mutating func render(_ entry: TimelineEntry) -> String {
        var lines: [String] = []
        let event = entry.event
        if event.launch != launch {
            launch = event.launch
            launchStart = event.ts
            let context = [event.app, event.appVersion, event.os.map { "iOS \($0)" }, event.model, event.process]
                .compactMap { $0 }.joined(separator: ", ")
            lines.append("")
            lines.append("launch \(event.launch)" + (context.isEmpty ? "" : " (\(context))"))
        }
        let offset = event.ts.seconds(since: launchStart ?? event.ts)
        let details = [
            event.phase, event.reason, event.cause, event.identifier, event.task.map { "task \($0)" },
            event.call.map { "call \($0)" }, event.success.map { $0 ? "success" : "failure" }, event.result,
        ].compactMap { $0 }.joined(separator: " ")
        let seq = event.seq.map { "#\($0)" } ?? "-"
        lines.append(
            "  \(event.ts)  +\(TextReport.format(offset, digits: 3))s  \(seq.padding(5))"
                + "\(entry.state.padding(12))\(event.name)\(details.isEmpty ? "" : "  \(details)")")
        for finding in entry.findings {
            lines.append("      ▲ \(finding.rule) (\(finding.severity.rawValue)): \(finding.message)")
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
