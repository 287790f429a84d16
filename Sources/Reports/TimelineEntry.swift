import Replay
import TraceModel

/// One line of a device's timeline: an event, the app's state after it, and the findings that
/// became evident at it.
public struct TimelineEntry: Sendable, Hashable {
    public var event: Event
    /// The app state after the event (`not running`, `inactive`, `active`, `background`,
    /// `suspended`).
    public var state: String
    public var findings: [Finding]
    /// When the event's launch began: its first event, even when a time window hides it, so
    /// that "seconds since launch" does not depend on the window.
    public var launchStart: Timestamp

    public init(event: Event, state: String, findings: [Finding], launchStart: Timestamp) {
        self.event = event
        self.state = state
        self.findings = findings
        self.launchStart = launchStart
    }

    /// Seconds from the launch's first event to this one; negative when the clock ran backwards.
    public var secondsSinceLaunch: Double {
        Double(event.ts.microseconds) / 1_000_000 - Double(launchStart.microseconds) / 1_000_000
    }
}

/// The timeline as text: a header per launch, then one line per event with its time, the
/// seconds since the launch began, the state after it and what it carried, and under it any
/// finding that landed there.
public struct TimelineText {
    private var launch: String?

    public init() {}

    public mutating func render(_ entry: TimelineEntry) -> String {
        var lines: [String] = []
        let event = entry.event
        if event.launch != launch {
            launch = event.launch
            let context = [event.app, event.appVersion, event.os.map { "iOS \($0)" }, event.model, event.process]
                .compactMap { $0 }.joined(separator: ", ")
            lines.append("")
            lines.append(PrintableText.escaped("launch \(event.launch)" + (context.isEmpty ? "" : " (\(context))")))
        }
        let offset = entry.secondsSinceLaunch
        // Signed either way, so a clock that ran backwards reads "-3599.900s", not "+-3599.900s".
        let since = (offset < 0 ? "-" : "+") + TextReport.format(abs(offset), digits: 3) + "s"
        let details = [
            Self.scene(of: event), event.phase, event.reason, event.cause, event.identifier, event.task.map { "task \($0)" },
            event.call.map { "call \($0)" }, event.success.map { $0 ? "success" : "failure" }, event.result,
        ].compactMap { $0 }.joined(separator: " ")
        let seq = event.seq.map { "#\($0)" } ?? "-"
        // Widths that keep the columns of a launch of a few days aligned ("+259200.000s", "#100000",
        // "not running"); a longer value still leaves a space after it.
        lines.append(
            "  \(event.ts)  \(since.rightAligned(12))  \(seq.padding(7))"
                + PrintableText.escaped("\(entry.state.padding(13))\(event.name)\(details.isEmpty ? "" : "  \(details)")"))
        for finding in entry.findings {
            lines.append("      ▲ \(finding.rule) (\(finding.severity.rawValue)): \(PrintableText.escaped(finding.message))")
        }
        return lines.joined(separator: "\n")
    }

    /// "scene S1" for a scene's event (trace format v1.1 keeps the scene id in `attrs`).
    private static func scene(of event: Event) -> String? {
        guard let attrs = event.attrs, attrs.contains("\"scene\"") else { return nil }
        return AttributeReader(attrs).string("scene").map { "scene \($0)" }
    }
}

extension String {
    fileprivate func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }

    fileprivate func rightAligned(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
