import Replay
import TraceModel

/// Reports what the launch's life cycle (``AppLifecycle``, applied by the replay before any check
/// runs) found wrong with an event: `illegal-transition`, `scene-illegal-transition`,
/// `event-after-terminate` and `event-while-suspended`. It reads the breach and writes the
/// sentence; it keeps no state of its own.
final class LifecycleCheck: Check {
    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard let breach = context.launch.breach else { return }
        switch breach {
        case .launchWhileRunning(let state):
            let launch = context.launch
            context.report(
                .illegalTransition, at: event, events: [event],
                message: "launch at \(event.ts) came while launch \(launch.launch) was already running "
                    + "(\(describe(state))); a launch id names one process — check that the logger makes "
                    + "a new id at every process launch.")
        case .illegal(let state, let since):
            let resolved = context.resolved(event)
            let message = kind == .didEnterBackground
                ? didEnterBackgroundMessage(resolved, state: state, since: since)
                : illegalMessage(resolved, kind: kind, state: state, since: since, sceneBased: context.launch.isSceneBased)
            context.report(.illegalTransition, at: event, events: [event], message: message)
        case .announcement(let state):
            context.report(
                .illegalTransition, at: event, events: [event],
                message: announcementMessage(
                    context.resolved(event), state: state, scenes: context.launch.scenes.inForeground, context: context))
        case .whileSuspended:
            let suspendedBy = context.launch.suspendedBy
            let since = suspendedBy.map { " (suspended at \($0.ts))" } ?? ""
            context.report(
                .eventWhileSuspended, at: event, events: suspendedBy.map { [$0, event] } ?? [event],
                message: "\(describe(context.resolved(event))) ran while the app was suspended\(since) with no resume "
                    + "logged; the resume is assumed — make sure the logger records resume before app code runs.")
        case .afterTerminate(let first):
            guard first, let terminate = context.launch.terminated else { return }
            let reason = context.resolved(terminate).reason.map { " (reason \($0))" } ?? ""
            context.report(
                .eventAfterTerminate, at: event, events: [terminate, event],
                message: "\(describe(context.resolved(event))) was logged after this launch's terminate at "
                    + "\(terminate.ts)\(reason); check the logger's clock and the launch ids it writes — later events "
                    + "of this launch are not replayed.")
        case .scene(let sceneBreach):
            context.report(
                .sceneIllegalTransition, at: event, events: [event],
                message: sceneMessage(context.resolved(event), breach: sceneBreach, context: context))
        }
    }
}
