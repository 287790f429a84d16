import Replay
import TraceModel

/// The sentences of the lifecycle findings.
extension LifecycleCheck {
    func describe(_ state: AppState) -> String { LifecycleText.state(state) }

    func describe(_ event: ResolvedEvent) -> String {
        let phase = event.phase.map { " (\($0))" } ?? ""
        return "\(event.name)\(phase) at \(event.ts)"
    }

    func since() -> String {
        lastMove.map { " since \($0.kind.rawValue) at \($0.ts)" } ?? ""
    }

    func didEnterBackgroundMessage(_ event: ResolvedEvent, state: AppState) -> String {
        if state == .active {
            return "didEnterBackground at \(event.ts) came while the app was active\(since()), without willResignActive; "
                + "UIKit deactivates an app (applicationWillResignActive(_:)) before it moves it to the background — "
                + "check that both callbacks are logged."
        }
        return "didEnterBackground at \(event.ts) came while the app was already in the background\(since()); "
            + "it is called once per move to the background — look for a missing willEnterForeground or a duplicated call."
    }

    func illegalMessage(_ event: ResolvedEvent, kind: EventKind, state: AppState) -> String {
        let head = "\(event.name) at \(event.ts) came while the app was \(describe(state))\(since())"
        switch (kind, state) {
        case (.didBecomeActive, .background):
            return head + ", without willEnterForeground; UIKit calls applicationWillEnterForeground(_:) before "
                + "applicationDidBecomeActive(_:) when an app returns from the background — check that it is logged."
        case (.didBecomeActive, _):
            return head + "; an app becomes active only from inactive — look for a missing willResignActive or a duplicated call."
        case (.willResignActive, _):
            return head + "; only an active app resigns active — look for a missing didBecomeActive or a duplicated call."
        case (.willEnterForeground, _):
            return head + "; only a background app enters the foreground — look for a missing didEnterBackground."
        case (.suspend, .suspended):
            return head + "; a suspended app cannot be suspended again — look for a missing resume."
        case (.suspend, _):
            return head + "; the system suspends only a background app — look for a missing willResignActive or didEnterBackground."
        case (.resume, _):
            return head + ", not suspended; only a suspended app is resumed — look for a missing suspend."
        default:
            return head + "; this move is not in UIKit's state machine."
        }
    }
}
