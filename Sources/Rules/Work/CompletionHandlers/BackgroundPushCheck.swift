import Replay
import TraceModel

/// Judges the background (content-available) pushes a device receives, across launches: their
/// APNs headers, and their rate.
final class BackgroundPushCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device, interests: [.pushReceive], rules: [.pushNotBackground, .pushRateLimited],
        make: { _ in BackgroundPushCheck() })

    /// The window of the rate limit: "three times per hour".
    static let window: Double = 3600
    static let allowedPerWindow = 3

    /// The latest background pushes, oldest first: no more than the window allows, which is
    /// all it takes to know whether the next one is one too many.
    private var recent: [ReplayEvent] = []

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard case .push(contentAvailable: true?, let priority, _) = event.details else { return }
        checkHeaders(event, priority: priority, pushType: context.resolved(event).pushType, context: context)
        checkRate(event, context: context)
    }

    private func checkHeaders(_ event: ReplayEvent, priority: Int?, pushType: String?, context: ReplayContext) {
        var wrong: [String] = []
        if let priority, priority != 5 { wrong.append("apns-priority \(priority)") }
        if let pushType, pushType != "background" { wrong.append("apns-push-type \(pushType)") }
        guard !wrong.isEmpty else { return }
        context.report(
            .pushNotBackground, at: event, events: [event],
            message: "Background push call \(context.resolved(event).call ?? "?") was sent with \(wrong.joined(separator: " and ")); "
                + "send content-available pushes with apns-priority 5 and apns-push-type background so that the "
                + "system launches the app for them.")
    }

    private func checkRate(_ event: ReplayEvent, context: ReplayContext) {
        defer {
            recent.append(event)
            if recent.count > Self.allowedPerWindow { recent.removeFirst() }
        }
        guard recent.count == Self.allowedPerWindow, let first = recent.first else { return }
        let span = context.seconds(from: first, to: event)
        guard span < Self.window else { return }
        context.report(
            .pushRateLimited, at: event, events: recent + [event],
            message: "Background push call \(context.resolved(event).call ?? "?") is the \(Self.allowedPerWindow + 1)th to this "
                + "device within \(SecondsText.seconds(span, against: Self.window).measured); more than \(Self.allowedPerWindow) an hour are "
                + "rate-limited, so later ones may be delayed or dropped. Send fewer, or coalesce them.",
            measured: span)
    }
}
