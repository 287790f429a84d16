import Replay
import TraceModel

/// Counts the device's pending BGTask requests across launches (submits, replacements, runs,
/// cancels) and reports the submit that would exceed "1 refresh task and 10 processing tasks".
///
/// Runs on extensions too ("An extension can schedule a task"), to keep the count right, but
/// judges only the app's submits.
///
/// Its state is not checked for exclusivity at run time, for the reason given at ``LaunchState``.
final class PendingRequestsCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .device, interests: [.bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch], runsOnExtensions: true,
        rules: [.bgtaskTooManyPending], make: { _ in PendingRequestsCheck() })

    @exclusivity(unchecked) private var requests: TaskRequestStore?

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let store = requests ?? context.device.store(TaskRequestStore.self)
        requests = store
        switch kind {
        case .bgtaskSubmit: submitted(event, store: store, context: context)
        case .bgtaskCancel: store.cancel(event.identifier)
        case .bgtaskLaunch: if let identifier = event.identifier { store.consume(identifier) }
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive,
             .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning,
             .snapshot, .suspend, .resume, .terminate, .beginBackgroundTask, .endBackgroundTask,
             .backgroundTaskExpired, .backgroundTimeRemaining, .expiringActivity, .config, .bgtaskRegister,
             .bgtaskExpire, .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform, .fetchComplete, .pushReceive,
             .pushComplete, .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents,
             .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .power,
             .refreshStatus, .network, .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive,
             .sceneWillResignActive, .sceneDidEnterBackground, .sceneDidDisconnect, .resourceAcquire,
             .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other: break
        }
    }

    private func submitted(_ event: ReplayEvent, store: TaskRequestStore, context: ReplayContext) {
        guard let id = event.identifier else { return }
        let submit = context.resolved(event)
        let kind = submit.requestType.flatMap(TaskRequestStore.Kind.init(rawValue:))
        if let kind { store.noteKind(kind, of: id) }
        let judged = !context.launch.isExtension
        let error = submit.requestError
        if error == "tooManyPendingTaskRequests" {
            // The system's own word that the limit was reached: a finding even when this log
            // shows fewer pending requests (some were submitted before it begins).
            guard judged else { return }
            let others = kind.map { store.pending($0, besides: id) } ?? []
            let limit = kind.map { "at most \($0.limit) \($0.rawValue) request\($0.limit == 1 ? "" : "s") may be pending" }
                ?? "at most 1 refresh and 10 processing requests may be pending"
            context.report(
                .bgtaskTooManyPending, at: event, events: others.map(\.submit) + [event],
                message: "BGTaskScheduler refused the \(kind?.rawValue ?? "task") request \(submit.identifier ?? "") with "
                    + "tooManyPendingTaskRequests, so it will not run: \(limit); resubmit an identifier to "
                    + "replace its request, or cancel requests you no longer need.",
                measured: Double(others.count + 1), unit: "requests")
            return
        }
        guard error == nil, let kind else { return }  // a submit that threw scheduled nothing
        guard store.pendingCount(kind, besides: id) + 1 > kind.limit else {
            store.schedule(id, .init(kind: kind, submit: event, number: context.device.eventNumber))
            return
        }
        let others = store.pending(kind, besides: id)
        // Over the limit the system refuses the request, so it is not counted as pending.
        guard judged else { return }
        let names = others.map { context.resolved($0.submit).identifier ?? "?" }.joined(separator: ", ")
        context.report(
            .bgtaskTooManyPending, at: event, events: others.map(\.submit) + [event],
            message: "Submitting the \(kind.rawValue) request \(submit.identifier ?? "") makes \(others.count + 1) pending "
                + "\(kind.rawValue) requests on this device (already pending: \(names)); at most \(kind.limit) "
                + "may be pending, so the system refuses it. Reuse one identifier (a resubmit replaces its "
                + "request) or cancel one first.",
            measured: Double(others.count + 1), unit: "requests")
    }
}
