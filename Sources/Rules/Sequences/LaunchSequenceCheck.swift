import Replay
import TraceModel

/// Judges the order of the launch steps (seed 000, "About the app launch sequence"):
/// `willFinishLaunching` → (`restoreState`) → `didFinishLaunching`, each begun after the previous
/// returned, all before the first `didBecomeActive` or `didEnterBackground`.
///
/// Steps are positions: begin and end of each step in order (`willFinishLaunching` 0 and 1,
/// `restoreState` 2 and 3, `didFinishLaunching` 4 and 5). A step may be missing (the app may not
/// implement the optional delegate method, or the log began mid-launch); one that comes at or
/// before the position reached, or while another step has not returned, is out of order. One
/// finding per launch: after it the sequence is no longer judged.
///
/// Its state is read for every event it receives: not checked for exclusivity at run time, for the
/// reason given at ``LaunchState`` (a check belongs to one device's replay, on one thread).
final class LaunchSequenceCheck: Check {
    /// The highest position reached; -1 before any step. Even: a step began and has not returned.
    @exclusivity(unchecked) private var position = -1
    @exclusivity(unchecked) private var lastStep: ReplayEvent?
    /// The first `didBecomeActive` or `didEnterBackground`: the launch sequence is over.
    @exclusivity(unchecked) private var over: ReplayEvent?
    @exclusivity(unchecked) private var reported = false

    override func clearForNextLaunch() -> Bool {
        position = -1
        lastStep = nil
        over = nil
        reported = false
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard !reported else { return }
        let breach = context.launch.lifecycleBreach
        func label(_ event: ReplayEvent) -> String { Self.label(context.resolved(event)) }
        switch kind {
        case .willFinishLaunching, .restoreState, .didFinishLaunching:
            let base = kind == .willFinishLaunching ? 0 : kind == .restoreState ? 2 : 4
            let begin = event.phase == .end ? base + 1 : base
            let end = event.phase == .begin ? base : base + 1
            defer {
                position = max(position, end)
                lastStep = event
            }
            // A step the lifecycle check reported (run while suspended) is not judged again.
            guard !breach else { return }
            if let over {
                report(event, "\(label(event)) came after the launch sequence was over (\(label(over))); "
                       + "all launch steps run before the app first becomes active or enters the background — "
                       + "move this work into application(_:didFinishLaunchingWithOptions:) or a later callback.",
                       context: context)
            } else if position >= 0, position % 2 == 0, begin != position + 1 {
                report(event, "\(label(event)) came before \(lastStep.map(label) ?? "the previous step") returned; "
                       + "UIKit runs willFinishLaunching, state restoration and didFinishLaunching one after the "
                       + "other — check that each step's end is logged when the delegate method returns.",
                       context: context)
            } else if begin <= position {
                report(event, "\(label(event)) came after \(lastStep.map(label) ?? "a later step"); the launch "
                       + "sequence is willFinishLaunching → restoreState → didFinishLaunching — check that the "
                       + "app does not call these delegate methods itself.", context: context)
            }
        case .didBecomeActive, .didEnterBackground:
            guard over == nil, event.phase != .end else { return }
            over = event
            guard !breach, position >= 0, position % 2 == 0, let open = lastStep else { return }
            report(event, "\(label(event)) came before \(label(open)) returned; UIKit activates the app or moves "
                   + "it to the background only after the launch sequence — return from the launch delegate "
                   + "methods before expecting life-cycle callbacks.", context: context)
        case .launch, .willResignActive, .willEnterForeground, .willTerminate, .memoryWarning, .snapshot, .suspend,
             .resume, .terminate, .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired,
             .backgroundTimeRemaining, .expiringActivity, .config, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel,
             .bgtaskLaunch, .bgtaskExpire, .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform,
             .fetchComplete, .pushReceive, .pushComplete, .urlsessionCreate, .urlsessionHandleEvents,
             .urlsessionDidFinishEvents, .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler,
             .locationUpdate, .power, .refreshStatus, .network, .sceneWillConnect, .sceneWillEnterForeground,
             .sceneDidBecomeActive, .sceneWillResignActive, .sceneDidEnterBackground, .sceneDidDisconnect,
             .resourceAcquire, .resourceRelease, .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest,
             .urlsessionDelayedRequestComplete, .urlsessionTaskComplete, .other:
            break
        }
    }

    private func report(_ event: ReplayEvent, _ message: String, context: ReplayContext) {
        reported = true
        let events = [lastStep, over].compactMap { $0 }.filter { $0.ts <= event.ts } + [event]
        context.report(.launchSequence, at: event, events: events.sorted { $0.ts < $1.ts }, message: message)
    }

    private static func label(_ event: ResolvedEvent) -> String {
        let phase = event.phase.map { " \($0)" } ?? ""
        return "\(event.name)\(phase) at \(event.ts)"
    }
}
