import Replay
import TraceModel

/// Matches the end of a launch to the finding that explains it (`termination-explained`), or
/// reports a background kill nothing explains (`termination-unexplained`).
///
/// A finding explains a kill when its rule ``Rule/explainsTermination`` and it belongs to the
/// stretch of time the kill ended: for a kill in the background, the current background period
/// (from `didEnterBackground`, or the launch or resume into the background); for a kill while
/// suspended, from the suspension on (work the app still held when it was suspended). Findings of
/// earlier periods did not kill the app: it survived them — unless the check that reported one
/// said the breach still stood later (a resource still held: ``ReplayContext/stillExplains(_:at:detail:)``).
/// A kill with reason `resource` is explained only by `shared-resource-held-at-suspension`, and its
/// sentence names every resource held.
final class TerminationCheck: Check {
    /// How many causes a kill's sentence names at most.
    static let detailsNamed = 5
    /// The latest `suspend` of the launch.
    private var suspendedAt: ReplayEvent?
    /// The state the `terminate` found the app in.
    private var stateAtTerminate: AppState?

    override func clearForNextLaunch() -> Bool {
        suspendedAt = nil
        stateAtTerminate = nil
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        switch kind {
        case .suspend: suspendedAt = event
        case .terminate: stateAtTerminate = context.launch.stateBefore
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive,
             .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning,
             .snapshot, .resume, .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired,
             .backgroundTimeRemaining, .expiringActivity, .config, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel,
             .bgtaskLaunch, .bgtaskExpire, .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform,
             .fetchComplete, .pushReceive, .pushComplete, .urlsessionCreate, .urlsessionHandleEvents,
             .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler,
             .locationUpdate, .power, .refreshStatus, .network, .sceneWillConnect, .sceneWillEnterForeground,
             .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .sceneDidDisconnect,
             .resourceAcquire, .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other: break
        }
    }

    override func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
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
            // A kill for a held resource is explained only by a resource held (rules.md).
            let only: Rule? = terminate.reason == .resource ? .sharedResourceHeldAtSuspension : nil
            if let (cause, detail) = explanation(since: start, launch: launch, only: only) {
                context.report(
                    .terminationExplained, at: terminate, events: events,
                    message: "terminate (\(reason)) at \(terminate.ts), while the app was \(LifecycleText.state(state)), follows from "
                        + "\(cause.rule) at \(cause.ts)\(detail.map { " (\($0))" } ?? ""); fix that finding and these kills should stop.",
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
            guard let (cause, _) = explanation(since: start, launch: launch, only: nil) else { return }
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

    /// The latest finding that explains a kill, from `start` on (of the rule `only`, if given),
    /// with the details of every such finding of the same rule in that stretch (all the resources
    /// a kill found held), each named once.
    private func explanation(since start: ReplayEvent?, launch: LaunchState, only: Rule?) -> (Finding, String?)? {
        let candidates = launch.explanations.filter { explanation in
            (start.map { explanation.at >= $0.ts } ?? true) && (only.map { explanation.finding.rule == $0.id } ?? true)
        }
        guard let latest = candidates.last else { return nil }
        var details: [String] = []
        var seen: Set<Finding> = []
        // Latest first, so that a finding said to still stand is described as it was last seen.
        for explanation in candidates.reversed() where explanation.finding.rule == latest.finding.rule {
            guard seen.insert(explanation.finding).inserted, let detail = explanation.detail else { continue }
            details.append(detail)
        }
        details.reverse()
        // A sentence, not a dump: a log can hold thousands.
        if details.count > Self.detailsNamed {
            details = details.prefix(Self.detailsNamed) + ["and \(details.count - Self.detailsNamed) more"]
        }
        return (latest.finding, details.isEmpty ? nil : details.joined(separator: "; "))
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
        case "resource":
            return head + "the system killed the app for holding a shared resource (a file lock, a database in a "
                + "shared container: 0xdead10cc) when it would have suspended it, but the log shows none held — log "
                + "every resource.acquire and resource.release, and release such resources before the app is suspended."
        default:
            return head + "collect the device's crash or jetsam report for this launch."
        }
    }
}
