import Replay
import TraceModel

/// Matches the end of a launch to the finding that explains it (`termination-explained`), or
/// reports a background kill nothing explains (`termination-unexplained`).
///
/// A finding explains a kill when its rule ``Rule/explainsTermination`` and it belongs to the
/// stretch of time the kill ended: for a kill in the background, the current background period
/// (from `didEnterBackground`, or the launch or resume into the background); for a kill while
/// suspended, from the suspension on (work the app still held when it was suspended). Findings of
/// earlier periods did not kill the app: it survived them.
final class TerminationCheck: Check {
    /// The latest `suspend` of the launch.
    private var suspendedAt: ReplayEvent?
    /// The state the `terminate` found the app in.
    private var stateAtTerminate: AppState?

    func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        switch kind {
        case .suspend: suspendedAt = event
        case .terminate: stateAtTerminate = context.launch.stateBefore
        default: break
        }
    }

    func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        let launch = context.launch
        // A state only guessed (the log began mid-launch) cannot tell a background kill.
        guard !launch.stateInferred else { return }
        switch ending {
        case .terminated(let terminate):
            let reason = context.resolved(terminate).reason ?? "unknown"
            // The user swiping the app away and the quiet reclaim of a suspended app are ordinary ends.
            guard reason != "user", reason != "quiet" else { return }
            let state = stateAtTerminate ?? launch.stateBefore
            // A kill on screen (a crash in the foreground) is no background kill.
            guard state == .background || state == .suspended else { return }
            let start = windowStart(state: state, launch: launch)
            let events = [start, terminate].compactMap { $0 }
            if let cause = explanation(since: start, launch: launch) {
                context.report(
                    .terminationExplained, at: terminate, events: events,
                    message: "terminate (\(reason)) at \(terminate.ts), while the app was \(LifecycleText.state(state)), follows from "
                        + "\(cause.rule) at \(cause.ts); fix that finding and these kills should stop.",
                    explainedBy: cause)
            } else {
                context.report(
                    .terminationUnexplained, at: terminate, events: events,
                    message: unexplainedMessage(terminate, reason: reason, state: state, since: start.map(context.resolved)))
            }
        case .superseded(let next):
            // Ended without a word when the next launch began: worth a finding only when the app was
            // running in the background holding work (a suspended app is reclaimed routinely).
            guard launch.state == .background else { return }
            let start = windowStart(state: .background, launch: launch)
            guard let cause = explanation(since: start, launch: launch) else { return }
            context.report(
                .terminationExplained, at: next, events: [start, launch.lastEvent, next].compactMap { $0 },
                message: "launch \(launch.launch) ended without a terminate while running in the background (its last "
                    + "event at \(launch.lastEvent.ts)); it was most likely killed for \(cause.rule) at \(cause.ts) — "
                    + "fix that finding.",
                explainedBy: cause)
        case .endOfLog:
            // The log just stopped: nothing says the process ended.
            return
        }
    }

    /// Where the stretch a kill ended began: the suspension for a suspended app, else the start
    /// of the background period (which the lifecycle check keeps through the `terminate`).
    private func windowStart(state: AppState, launch: LaunchState) -> ReplayEvent? {
        state == .suspended ? suspendedAt : launch.backgroundSince
    }

    /// The latest finding that explains a kill, from `start` on.
    private func explanation(since start: ReplayEvent?, launch: LaunchState) -> Finding? {
        guard let start else { return launch.explanations.last }
        return launch.explanations.last { $0.ts >= start.ts }
    }

    private func unexplainedMessage(_ terminate: ReplayEvent, reason: String, state: AppState, since: ResolvedEvent?) -> String {
        let period = since.map { " since \($0.name) at \($0.ts)" } ?? ""
        let head = "terminate (\(reason)) at \(terminate.ts) came while the app was \(LifecycleText.state(state))\(period), "
            + "with no finding that explains it; "
        switch reason {
        case "memory":
            return head + "reduce the app's memory use in the background — jetsam kills the largest background apps first."
        case "watchdog", "assertion-timeout":
            return head + "the system killed the app for running too long, so the log lacks the task or callback "
                + "that held it — check that every beginBackgroundTask, BGTask and completion handler is logged."
        case "crash":
            return head + "collect the crash report of this launch for the cause."
        default:
            return head + "collect the device's crash or jetsam report for this launch."
        }
    }
}
