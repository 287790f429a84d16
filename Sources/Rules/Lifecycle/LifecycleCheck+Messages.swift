import Replay
import TraceModel

/// The sentences of the lifecycle findings.
extension LifecycleCheck {
    func describe(_ state: AppState) -> String { LifecycleText.state(state) }

    func describe(_ event: ResolvedEvent) -> String {
        let phase = event.phase.map { " (\($0))" } ?? ""
        return "\(event.name)\(phase) at \(event.ts)"
    }

    private func since(_ move: LifecycleMove?) -> String {
        move.map { " since \($0.kind.rawValue) at \($0.ts)" } ?? ""
    }

    func didEnterBackgroundMessage(_ event: ResolvedEvent, state: AppState, since move: LifecycleMove?) -> String {
        if state == .active {
            return "didEnterBackground at \(event.ts) came while the app was active\(since(move)), without willResignActive; "
                + "UIKit deactivates an app (applicationWillResignActive(_:)) before it moves it to the background — "
                + "check that both callbacks are logged."
        }
        return "didEnterBackground at \(event.ts) came while the app was already in the background\(since(move)); "
            + "it is called once per move to the background — look for a missing willEnterForeground or a duplicated call."
    }

    func illegalMessage(
        _ event: ResolvedEvent, kind: EventKind, state: AppState, since move: LifecycleMove?, sceneBased: Bool
    ) -> String {
        let head = "\(event.name) at \(event.ts) came while the app was \(describe(state))\(since(move))"
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
        case (.suspend, _) where sceneBased && state.isForeground:
            return head + "; the system suspends only an app with no scene or window in the foreground — look for "
                + "a missing willResignActive or didEnterBackground (of the app or of a scene)."
        case (.suspend, _):
            return head + "; the system suspends only a background app — look for a missing willResignActive or didEnterBackground."
        case (.resume, _):
            return head + ", not suspended; only a suspended app is resumed — look for a missing suspend."
        default:
            return head + "; this move is not in UIKit's state machine."
        }
    }

    /// An app-level notification of a scene-based launch that announces no change of its scenes.
    func announcementMessage(_ event: ResolvedEvent, state: AppState, scenes: [TextID], context: ReplayContext) -> String {
        let names = scenes.map { context.device.texts[$0] }
        let inForeground = names.isEmpty
            ? "no scene in the foreground"
            : "scene\(names.count == 1 ? "" : "s") \(names.joined(separator: ", ")) in the foreground"
        return "\(event.name) at \(event.ts) came while the app was \(describe(state)) with \(inForeground); in a "
            + "scene-based app UIKit posts it right after the scene event that changes the app's state (the last "
            + "scene leaving the foreground, the first entering it) — look for a missing or out-of-order scene event."
    }

    /// A scene event that is not a legal move of its scene.
    func sceneMessage(_ event: ResolvedEvent, breach: SceneBreach, context: ReplayContext) -> String {
        let scene = breach.scene == .empty ? "a scene with no id" : "scene \(context.device.texts[breach.scene])"
        let head = "\(event.name) at \(event.ts) for \(scene)"
        guard let state = breach.state else {
            return head + ", which this launch never connected; every scene begins with scene.willConnect — check "
                + "that the logger records scene(_:willConnectTo:options:) and the scene's id."
        }
        if state == .disconnected {
            return head + ", which was already disconnected; a released scene gets no more callbacks until it "
                + "connects again — look for a duplicated sceneDidDisconnect(_:) or a reused scene id."
        }
        return head + ", which was \(state.rawValue); a scene moves unattached → foreground-inactive ↔ "
            + "foreground-active → background → disconnected, entering the foreground again only from the background — "
            + "look for a missing or duplicated scene callback."
    }
}
