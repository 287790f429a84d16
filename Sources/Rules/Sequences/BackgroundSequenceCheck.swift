import Replay
import TraceModel

/// Judges the three ways into the background of seed 004 ("About the background execution
/// sequence"): a launch into the background, a resume into the background for an event, and the
/// move from the foreground. Each is `didEnterBackground` → (the event that caused it) →
/// `snapshot` → maybe `suspend`; the move from the foreground starts at `willResignActive`.
///
/// Only life-cycle events and the cause event are steps; readings, submits and completions between
/// them are passed over. A sequence ends without a finding at its `snapshot`, at `terminate` (cut
/// short), at `willEnterForeground` (a bounce) and at `didBecomeActive` (an interruption). One
/// finding per sequence, at the first out-of-order event; an event the lifecycle check already
/// reported abandons the sequence and starts none.
final class BackgroundSequenceCheck: Check {
    static let interests: Set<EventKind> = [
        .launch, .resume, .willResignActive, .didBecomeActive, .didEnterBackground, .willEnterForeground,
        .snapshot, .suspend, .terminate,
        .bgtaskLaunch, .pushReceive, .fetchPerform, .urlsessionHandleEvents, .locationUpdate,
    ]

    private enum Way {
        /// `launch` with reason `system`.
        case launch
        /// `resume` with a `cause`.
        case resume
        /// `willResignActive` from active.
        case foreground
    }

    private enum Step: Comparable {
        /// Before `didEnterBackground` began.
        case awaitingDidEnterBackground
        /// `didEnterBackground` began and has not returned.
        case inDidEnterBackground
        /// `didEnterBackground` returned; the cause event has not come.
        case awaitingCause
        /// Everything before the snapshot has come.
        case awaitingSnapshot
    }

    private struct Progress {
        var way: Way
        /// The event that started the sequence.
        var start: Event
        /// The event kind the cause maps to, when the sequence waits for one.
        var cause: EventKind?
        var causeSeen = false
        var step: Step
        var didEnterBackground: Event?
    }

    private var progress: Progress?

    func receive(_ event: Event, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        guard !launch.lifecycleBreach else {
            progress = nil
            return
        }
        switch kind {
        case .launch:
            progress = nil
            if event.reason == "system" || (event.reason == nil && event.cause != nil) {
                progress = Progress(
                    way: .launch, start: event, cause: Self.causeKind(event.cause), step: .awaitingDidEnterBackground)
            }
        case .resume:
            progress = nil
            if let cause = event.cause, !cause.isEmpty {
                progress = Progress(
                    way: .resume, start: event, cause: Self.causeKind(cause), step: .awaitingDidEnterBackground)
            }
        case .willResignActive:
            if launch.stateBefore == .active {
                progress = Progress(way: .foreground, start: event, step: .awaitingDidEnterBackground)
            }
        case .didBecomeActive, .willEnterForeground, .terminate:
            progress = nil
        case .didEnterBackground:
            didEnterBackground(event, launch: launch)
        case .snapshot:
            guard let current = progress else { return }
            if current.step == .awaitingSnapshot {
                progress = nil
            } else {
                breach(at: event, current, context: context)
            }
        case .suspend:
            guard let current = progress else { return }
            breach(at: event, current, context: context)
        default:
            guard var current = progress, kind == current.cause else { return }
            switch current.step {
            case .awaitingDidEnterBackground:
                breach(at: event, current, context: context)
            case .inDidEnterBackground:
                // A BGTask launch handler runs on the queue given at registration, not necessarily
                // the main one: the event may come while didEnterBackground is still running.
                current.causeSeen = true
                progress = current
            case .awaitingCause:
                current.causeSeen = true
                current.step = .awaitingSnapshot
                progress = current
            case .awaitingSnapshot:
                break
            }
        }
    }

    private func didEnterBackground(_ event: Event, launch: LaunchState) {
        let returned = event.phase != "begin"
        guard var current = progress else {
            // From the foreground without willResignActive is an illegal transition (reported, and
            // passed over above); from inactive after a user launch it starts the move here.
            if event.phase != "end", launch.stateBefore.isForeground {
                progress = Progress(
                    way: .foreground, start: event, step: returned ? .awaitingSnapshot : .inDidEnterBackground,
                    didEnterBackground: event)
            }
            return
        }
        if event.phase == "end" {
            guard current.step == .inDidEnterBackground else { return }
        } else {
            guard current.step == .awaitingDidEnterBackground else { return }
            current.didEnterBackground = event
        }
        current.step = !returned ? .inDidEnterBackground
            : (current.cause == nil || current.causeSeen) ? .awaitingSnapshot : .awaitingCause
        progress = current
    }

    private func breach(at event: Event, _ current: Progress, context: ReplayContext) {
        progress = nil
        let rule: Rule = switch current.way {
        case .launch: .backgroundLaunchSequence
        case .resume: .backgroundResumeSequence
        case .foreground: .foregroundToBackgroundSequence
        }
        let events = [current.start, current.didEnterBackground].compactMap { $0 } + [event]
        context.report(rule, at: event, events: events, message: message(event, current))
    }

    // MARK: Messages

    private func message(_ event: Event, _ current: Progress) -> String {
        let came = "\(event.name) at \(event.ts)"
        let after = switch current.way {
        case .launch: "the launch into the background at \(current.start.ts)"
        case .resume: "the resume at \(current.start.ts)"
        case .foreground: "willResignActive at \(current.start.ts)"
        }
        let forWhat = current.way == .launch ? "launched" : "resumed"
        let causeName = current.cause?.rawValue ?? "the event"
        let kind = EventKind(name: event.name)
        switch (current.step, kind) {
        case (.awaitingDidEnterBackground, .snapshot):
            return "\(came) came before didEnterBackground after \(after); hide sensitive UI in "
                + "applicationDidEnterBackground(_:) — UIKit calls it before the system snapshots the app, so "
                + "check that it is called and logged."
        case (.inDidEnterBackground, .snapshot):
            return "\(came) came before didEnterBackground (begun at \(current.didEnterBackground?.ts.description ?? "?")) "
                + "returned; finish UI cleanup in applicationDidEnterBackground(_:) and return promptly — the "
                + "system snapshots the app right after it returns."
        case (.awaitingCause, .snapshot):
            return "\(came) came before \(causeName), the event the app was \(forWhat) for at \(current.start.ts); "
                + "UIKit delivers that event before the snapshot — check that the app handles and logs the delivery."
        case (.awaitingDidEnterBackground, .suspend):
            return "\(came) came before didEnterBackground after \(after); the app never got "
                + "applicationDidEnterBackground(_:) to save its state — check that the callback is logged."
        case (.inDidEnterBackground, .suspend):
            return "\(came) came while didEnterBackground (begun at \(current.didEnterBackground?.ts.description ?? "?")) "
                + "had not returned; return from applicationDidEnterBackground(_:) promptly and move longer work "
                + "into a background task."
        case (.awaitingCause, .suspend):
            return "\(came) came before \(causeName), the event the app was \(forWhat) for at \(current.start.ts); "
                + "the app was suspended without handling it — check that the delivery is handled and logged."
        case (_, .suspend):
            return "\(came) came before the snapshot after \(after); the system snapshots an app after "
                + "didEnterBackground returns and before suspending it — check that the logger records snapshots."
        default:
            return "\(came) came before didEnterBackground after \(after); UIKit calls "
                + "applicationDidEnterBackground(_:) before it delivers the event the app was \(forWhat) for — "
                + "don't handle that event from application(_:didFinishLaunchingWithOptions:) yourself."
        }
    }

    /// The event a launch or resume `cause` must deliver, or nil when none is required (`nse`,
    /// `audio`, other and unknown causes: their delivery is not an event of trace format v1, or
    /// not a single one).
    static func causeKind(_ cause: String?) -> EventKind? {
        switch cause {
        case "bgtask"?: .bgtaskLaunch
        case "push"?: .pushReceive
        case "fetch"?: .fetchPerform
        case "urlsession"?: .urlsessionHandleEvents
        case "location"?: .locationUpdate
        default: nil
        }
    }
}
