/// The UI life cycle, through the app delegate (v1) or, on a scene-based device, through each
/// scene's delegate with the app-level notification logged right after the scene event that
/// changed the app's derived state (rules.md, Scenes): active when a scene is active, inactive
/// when a scene is in the foreground and none is active, in the background otherwise.
///
/// The v1 branch of each step draws and writes exactly what the generator did before scenes.
extension DaySimulator {
    /// The app comes to the foreground and becomes active: after a user launch (`enterDelay`
    /// nil: launching already made it inactive), a user resume or a bounce back.
    mutating func comeToForeground(enterDelay: Int64?, activeDelay: Int64) {
        guard sceneLayout != nil else {
            if let enterDelay { emit("willEnterForeground", after: enterDelay) }
            return emit("didBecomeActive", after: activeDelay)
        }
        if !scenes.contains(where: { $0.state == .background }) { connectScene(role: true) }
        if sceneLayout!.multiwindow, scenes.count == 1, rng.chance(0.35) { connectScene(role: false) }
        for index in scenes.indices where scenes[index].state != .foregroundActive {
            sceneEvent("scene.willEnterForeground", index, to: .foregroundInactive, after: enterDelay ?? rng.int(5...40))
            if enterDelay != nil, index == scenes.startIndex { emit("willEnterForeground") }
        }
        activateScenes(after: activeDelay)
    }

    /// An interruption (an alert, a call): the app resigns active and comes straight back.
    mutating func interruption() {
        resignActive()
        guard sceneLayout != nil else { return emit("didBecomeActive", after: rng.millis(1.5, 40)) }
        activateScenes(after: rng.millis(1.5, 40))
    }

    /// `willResignActive`: every active scene resigns, the app once the last one has.
    mutating func resignActive() {
        guard sceneLayout != nil else { return emit("willResignActive") }
        for index in scenes.indices where scenes[index].state == .foregroundActive {
            sceneEvent("scene.willResignActive", index, to: .foregroundInactive, after: rng.int(1...4))
        }
        emit("willResignActive")
    }

    /// Every scene in the foreground enters the background; the app-level `didEnterBackground`
    /// (which the caller writes next) follows the last one.
    mutating func scenesEnterBackground() {
        guard sceneLayout != nil else { return }
        for index in scenes.indices where scenes[index].state == .foregroundInactive {
            sceneDidEnterBackground(index)
        }
    }

    /// The snapshot after `didEnterBackground`: one per scene, v1's single one otherwise.
    mutating func snapshots() {
        guard sceneLayout != nil, !scenes.isEmpty else { return snapshot() }
        for scene in scenes { snapshot(scene: scene.id) }
    }

    /// In the background: the system sometimes connects a scene for the event it woke the app for.
    mutating func maybeConnectSceneInBackground() {
        guard sceneLayout != nil, scenes.isEmpty, rng.chance(0.3) else { return }
        connectScene(role: true)
        sceneDidEnterBackground(scenes.count - 1)
    }

    /// Before suspension the system sometimes releases a background scene to save memory.
    /// `twice` logs its `scene.didDisconnect` a second time (the `sceneIllegalTransition` breach).
    mutating func maybeDisconnectScene(twice: Bool = false) {
        guard sceneLayout != nil, let index = scenes.lastIndex(where: { $0.state == .background }),
            twice || rng.chance(0.15)
        else { return }
        let scene = scenes.remove(at: index).id
        emit("scene.didDisconnect", after: rng.int(5...200)) { $0.field("scene", string: scene) }
        if twice {
            emit("scene.didDisconnect", after: rng.int(1...30)) { $0.field("scene", string: scene) }
            record(.sceneIllegalTransition, launch: app!.launch)
        }
    }

    /// Whether a breach that disconnects a scene twice has a scene to do it with (the scenes of
    /// a process that has ended are cleared only at the next launch).
    var hasBackgroundScene: Bool { app != nil && scenes.contains { $0.state == .background } }

    /// On a multi-window device, in the foreground: the user opens a second window, or closes one
    /// (it goes through the background and is released while the app stays active).
    mutating func toggleSecondWindow() {
        if scenes.count == 1 {
            connectScene(role: false)
            let index = scenes.count - 1
            sceneEvent("scene.willEnterForeground", index, to: .foregroundInactive, after: rng.int(5...40))
            sceneEvent("scene.didBecomeActive", index, to: .foregroundActive, after: rng.int(5...120))
        } else {
            let index = scenes.count - 1
            sceneEvent("scene.willResignActive", index, to: .foregroundInactive, after: rng.int(1...4))
            sceneDidEnterBackground(index)
            snapshot(scene: scenes[index].id)
            let scene = scenes.remove(at: index).id
            emit("scene.didDisconnect", after: rng.int(5...200)) { $0.field("scene", string: scene) }
        }
    }

    // MARK: Steps

    private mutating func activateScenes(after delay: Int64) {
        var first = true
        for index in scenes.indices where scenes[index].state == .foregroundInactive {
            sceneEvent("scene.didBecomeActive", index, to: .foregroundActive, after: first ? delay : rng.int(1...30))
            if first { emit("didBecomeActive") }
            first = false
        }
    }

    /// `scene.willConnect` of a new scene; `role` says whether to log the optional `role`.
    private mutating func connectScene(role: Bool) {
        lastSceneNumber += 1
        let scene = "S\(lastSceneNumber)"
        scenes.append(LiveScene(id: scene, state: .unattached))
        emit("scene.willConnect", after: rng.int(2...20)) { line in
            line.field("scene", string: scene)
            if role { line.field("role", "window") }
        }
    }

    private mutating func sceneDidEnterBackground(_ index: Int) {
        let scene = scenes[index].id
        emit("scene.didEnterBackground", after: rng.int(5...50)) { line in
            line.field("scene", string: scene)
            line.field("phase", "begin")
        }
        emit("scene.didEnterBackground", after: rng.int(2...120)) { line in
            line.field("scene", string: scene)
            line.field("phase", "end")
        }
        scenes[index].state = .background
    }

    private mutating func sceneEvent(_ event: StaticString, _ index: Int, to state: LiveScene.State, after delay: Int64) {
        let scene = scenes[index].id
        emit(event, after: delay) { $0.field("scene", string: scene) }
        scenes[index].state = state
    }

    private mutating func snapshot(scene: String) {
        emit("snapshot", after: rng.int(15...150)) { $0.field("scene", string: scene) }
    }
}
