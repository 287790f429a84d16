/// An independent reading of rules.md's scene state machine, for the tests: it follows each
/// launch's scenes and the app-level notifications, and lists every event that breaks either.
///
/// The app's derived state is active when a scene is active, inactive when one is in the
/// foreground, background otherwise; after a scene event changes it (after the end of a
/// `scene.didEnterBackground`), the very next event of the launch must be the app-level
/// notification of that change, and at every app-level notification, snapshot and suspension the
/// app-level state must equal the derived one.
struct SceneChecker {
    enum SceneState { case unattached, inactive, active, background, disconnected }
    enum AppState { case inactive, active, background }

    private struct Launch {
        var scenes: [String: SceneState] = [:]
        var app: AppState = .background
        /// A scene event changed the derived state: the next event must be its notification.
        var notificationDue = false

        var derived: AppState {
            if scenes.values.contains(.active) { return .active }
            if scenes.values.contains(.inactive) { return .inactive }
            return .background
        }
        var sceneBased: Bool { !scenes.isEmpty }
    }

    private var launches: [String: Launch] = [:]
    private(set) var problems: [String] = []
    private(set) var sceneEvents = 0

    mutating func check(_ event: [String: Any]) {
        var launch = launches[event.launch] ?? Launch()
        defer { launches[event.launch] = launch }
        let name = event.name
        let where_ = "\(event.launch) \(event["seq"] ?? "") \(name) \(event.scene ?? "")"
        if name.hasPrefix("scene.") {
            sceneEvents += 1
            if launch.notificationDue { problems.append("notification missing before \(where_)") }
            guard let scene = event.scene else { return problems.append("no scene: \(where_)") }
            let state = launch.scenes[scene]
            let next: SceneState? = switch (name, state) {
            case ("scene.willConnect", nil): .unattached
            case ("scene.willEnterForeground", .unattached?), ("scene.willEnterForeground", .background?): .inactive
            case ("scene.didBecomeActive", .inactive?): .active
            case ("scene.willResignActive", .active?): .inactive
            case ("scene.didEnterBackground", .unattached?), ("scene.didEnterBackground", .inactive?):
                event.phase == "begin" ? .background : nil
            case ("scene.didEnterBackground", .background?): event.phase == "end" ? .background : nil
            case ("scene.didDisconnect", .unattached?), ("scene.didDisconnect", .background?): .disconnected
            default: nil
            }
            guard let next else { return problems.append("illegal scene move: \(where_) from \(String(describing: state))") }
            let before = launch.derived
            launch.scenes[scene] = next
            // A `scene.didEnterBackground` is one callback: the notification follows its end.
            launch.notificationDue = switch (name, event.phase) {
            case ("scene.didEnterBackground", "begin"?): false
            case ("scene.didEnterBackground", _): launch.derived != launch.app
            default: launch.derived != before && launch.derived != launch.app
            }
            return
        }
        let appLevel: AppState? = switch name {
        case "didBecomeActive": .active
        case "willResignActive", "willEnterForeground": .inactive
        case "didEnterBackground": event.phase == "begin" ? .background : nil
        default: nil
        }
        switch name {
        case "launch": launch.app = event["reason"] as? String == "user" ? .inactive : .background
        case "resume": launch.app = .background
        default: break
        }
        if launch.notificationDue, appLevel == nil { problems.append("notification missing before \(where_)") }
        launch.notificationDue = false
        if let appLevel { launch.app = appLevel }
        guard launch.sceneBased else { return }
        if appLevel != nil || ["snapshot", "suspend"].contains(name), launch.app != launch.derived {
            problems.append("app-level \(launch.app) but scenes say \(launch.derived) at \(where_)")
        }
        if name == "snapshot", let scene = event.scene, launch.scenes[scene] != .background {
            problems.append("snapshot of a scene not in the background: \(where_)")
        }
    }
}
