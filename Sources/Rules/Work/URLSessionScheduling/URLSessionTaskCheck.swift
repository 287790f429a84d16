import Replay
import TraceModel

/// Judges how a task is created on a background URL session: its byte counts when it asks for a
/// delayed start, and a non-discretionary transfer enqueued from the background.
final class URLSessionTaskCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [.urlsessionTaskCreate],
        rules: [.urlsessionByteCountsMissing, .urlsessionBackgroundEnqueueDiscretionary],
        make: { _ in URLSessionTaskCheck() })

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard case .urlSessionTask(let earliestBegin, let discretionary, let statesSend, let statesReceive) = event.details
        else { return }
        if let earliestBegin, !statesSend || !statesReceive {
            reportByteCounts(event, earliestBegin: earliestBegin, send: statesSend, receive: statesReceive, context: context)
        }
        let launch = context.launch
        // A state only guessed (the log began mid-launch) cannot tell the background.
        if discretionary == false, !launch.stateInferred, launch.state == .background || launch.state == .suspended {
            let since = launch.backgroundSince.map { " (since \(context.resolved($0).name) at \($0.ts))" } ?? ""
            context.report(
                .urlsessionBackgroundEnqueueDiscretionary, at: event, events: [launch.backgroundSince, event].compactMap { $0 },
                message: "\(Self.capitalized(URLSessionText.task(context.resolved(event)))) was created at \(event.ts) "
                    + "with discretionary false while the app was in the background\(since); the system ignores "
                    + "isDiscretionary for a transfer enqueued from the background and treats it as discretionary, so "
                    + "it may wait for Wi-Fi and power and start much later. Create transfers that must start soon "
                    + "while the app is in the foreground, or expect a late start.")
        }
    }

    /// Nothing is kept between events.
    override func clearForNextLaunch() -> Bool { true }

    private func reportByteCounts(
        _ event: ReplayEvent, earliestBegin: Timestamp, send: Bool, receive: Bool, context: ReplayContext
    ) {
        let missing = [
            send ? nil : "expected_send (countOfBytesClientExpectsToSend)",
            receive ? nil : "expected_receive (countOfBytesClientExpectsToReceive)",
        ].compactMap { $0 }
        context.report(
            .urlsessionByteCountsMissing, at: event, events: [event],
            message: "\(Self.capitalized(URLSessionText.task(context.resolved(event)))) was created at \(event.ts) with an "
                + "earliest begin date (\(earliestBegin)) but without \(missing.joined(separator: " or ")); set "
                + (missing.count == 1 ? "it" : "both") + " to an approximate upper bound or the exact byte count, "
                + "so that the system can schedule the transfer, rather than leave the default (unknown).")
    }

    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
