import Replay
import TraceModel

/// Judges the app's calls into BGTaskScheduler against its Info.plist and launch sequence:
/// registration before the launch sequence ends, permitted identifiers only, no task launched
/// without a handler, and no legacy background fetch once BGTaskScheduler is adopted.
final class TaskSchedulerCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch,
        interests: [.bgtaskRegister, .bgtaskSubmit, .bgtaskLaunch, .fetchSetMinimumInterval, .fetchPerform],
        rules: [.bgtaskRegisterLate, .bgtaskNotPermitted, .bgtaskLaunchUnregistered, .legacyFetchDisabled],
        make: { _ in TaskSchedulerCheck() })

    /// Nothing is kept between events.
    override func clearForNextLaunch() -> Bool { true }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        switch kind {
        case .bgtaskRegister:
            if launch.launchSequenceEnded {
                context.report(
                    .bgtaskRegisterLate, at: event, events: [event],
                    message: "Task \(context.resolved(event).identifier ?? "?") was registered after didFinishLaunching returned; "
                        + "register every task before the end of the launch sequence, or a launch for the task "
                        + "finds no handler.")
            }
            checkPermitted(event, call: "registered", context: context)
        case .bgtaskSubmit:
            checkPermitted(event, call: "submitted", context: context)
        case .bgtaskLaunch:
            // Only a launch replayed from its start shows every registration.
            guard let identifier = event.identifier, launch.firstEvent.kind == .launch,
                  !launch.registered.contains(identifier)
            else { return }
            context.report(
                .bgtaskLaunchUnregistered, at: event, events: [event],
                message: "The system launched task \(context.resolved(event).identifier ?? ""), but this launch registered no handler for it; "
                    + "call BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:) for it in "
                    + "application(_:didFinishLaunchingWithOptions:).")
        case .fetchSetMinimumInterval, .fetchPerform:
            guard let permitted = launch.permittedIdentifiers, !permitted.isEmpty else { return }
            let call = kind == .fetchPerform
                ? "application(_:performFetchWithCompletionHandler:) was called"
                : "setMinimumBackgroundFetchInterval(_:) was called"
            context.report(
                .legacyFetchDisabled, at: event, events: [event],
                message: "\(call) although the app's Info.plist has BGTaskSchedulerPermittedIdentifiers "
                    + "(\(permitted.count)), which disables background fetch; move the work to a "
                    + "BGAppRefreshTask.")
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive,
             .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning,
             .snapshot, .suspend, .resume, .terminate, .beginBackgroundTask, .endBackgroundTask,
             .backgroundTaskExpired, .backgroundTimeRemaining, .expiringActivity, .config, .bgtaskCancel,
             .bgtaskExpire, .bgtaskComplete, .fetchComplete, .pushReceive, .pushComplete, .urlsessionCreate,
             .urlsessionHandleEvents, .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive,
             .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .power, .refreshStatus, .network,
             .sceneWillConnect, .sceneWillEnterForeground, .sceneDidBecomeActive, .sceneWillResignActive,
             .sceneDidEnterBackground, .sceneDidDisconnect, .resourceAcquire, .resourceRelease,
             .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest, .urlsessionDelayedRequestComplete,
             .urlsessionTaskComplete, .other:
            break
        }
    }

    /// Reports a register or submit of an identifier the Info.plist does not permit; without a
    /// `config` in the launch there is nothing to judge by.
    private func checkPermitted(_ event: ReplayEvent, call: String, context: ReplayContext) {
        guard let permitted = context.launch.permittedIdentifiers, let identifier = context.text(event.identifier),
              !permitted.contains(identifier)
        else { return }
        context.report(
            .bgtaskNotPermitted, at: event, events: [event],
            message: "Task \(identifier) was \(call) but is not in BGTaskSchedulerPermittedIdentifiers; add it "
                + "to the Info.plist, or the scheduler refuses it (notPermitted).")
    }
}
