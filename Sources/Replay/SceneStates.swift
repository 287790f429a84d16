import TraceModel

/// The scenes of one scene-based launch and the state of each (rules: "Scenes"), in the order
/// they connected. A value: ``AppLifecycle`` applies each scene event to it and derives the
/// app's state from it.
public struct SceneStates: Sendable {
    /// A scene's states (`UIScene.ActivationState`, with the two ends of its life).
    public enum State: String, Sendable, Hashable, BitwiseCopyable {
        /// After `scene.willConnect`, before it moves.
        case unattached
        case foregroundInactive = "foreground-inactive"
        case foregroundActive = "foreground-active"
        case background
        /// After `scene.didDisconnect`: the scene is released.
        case disconnected

        public var isForeground: Bool { self == .foregroundInactive || self == .foregroundActive }
    }

    /// What a scene event asks of its scene (``EventKind/sceneMove``).
    public enum Move: Sendable, Hashable {
        case connect, enterForeground, becomeActive, resignActive, enterBackground, disconnect
    }

    /// Each scene seen, by its `scene` id's number, in the order it connected. A launch has a
    /// handful: a list is quicker than a table.
    private var scenes: [(scene: TextID, state: State)] = []
    /// The state the latest scene event moved its scene from (nil: a scene it connected or
    /// had never seen).
    public private(set) var lastMoveFrom: State?

    public init() {}

    public var isEmpty: Bool { scenes.isEmpty }

    /// The state of `scene` (nil for a scene this launch never connected).
    public func state(of scene: TextID) -> State? {
        scenes.first { $0.scene == scene }?.state
    }

    /// The scenes in the foreground, in the order they connected.
    public var inForeground: [TextID] { scenes.filter { $0.state.isForeground }.map(\.scene) }

    public var anyInForeground: Bool { scenes.contains { $0.state.isForeground } }

    /// The app state its scenes imply, from the app's state `current`: active when a scene is
    /// active, inactive when a scene is in the foreground and none is active, and otherwise in
    /// the background — or still suspended, not running or in the background, as it was.
    public func derivedState(from current: AppState) -> AppState {
        if scenes.contains(where: { $0.state == .foregroundActive }) { return .active }
        if scenes.contains(where: { $0.state == .foregroundInactive }) { return .inactive }
        return current.isForeground ? .background : current
    }

    /// Applies a scene event: the scene moves to the state the event implies, and the breach is
    /// returned when that is not a legal move from where the scene was. `lenient` accepts a
    /// scene never connected (the log began after its `scene.willConnect`).
    mutating func apply(_ event: ReplayEvent, kind: EventKind, lenient: Bool) -> SceneBreach? {
        guard let move = kind.sceneMove else { return nil }
        let scene = event.scene ?? .empty
        let index = scenes.lastIndex { $0.scene == scene }
        let from = index.map { scenes[$0].state }
        lastMoveFrom = move == .connect ? nil : from
        let to: State
        let legalFrom: Set<State>
        switch move {
        case .connect:
            // A released scene's session may connect again with the same id.
            guard let index, from != .disconnected else {
                scenes.append((scene, .unattached))
                return nil
            }
            scenes[index].state = .unattached
            return SceneBreach(scene: scene, state: from)
        case .enterForeground: (to, legalFrom) = (.foregroundInactive, [.unattached, .background])
        case .becomeActive: (to, legalFrom) = (.foregroundActive, [.foregroundInactive])
        case .resignActive: (to, legalFrom) = (.foregroundInactive, [.foregroundActive])
        case .enterBackground:
            // Its `end` only says the call returned.
            if event.phase == .end, from == .background { return nil }
            (to, legalFrom) = (.background, [.unattached, .foregroundInactive])
        case .disconnect: (to, legalFrom) = (.disconnected, [.unattached, .background])
        }
        guard let index else {
            scenes.append((scene, to))
            return lenient ? nil : SceneBreach(scene: scene, state: nil)
        }
        scenes[index].state = to
        guard let from, legalFrom.contains(from) else { return SceneBreach(scene: scene, state: from) }
        return nil
    }
}

/// A scene event that is not a legal move of its scene: the scene, and the state it was in (nil
/// when this launch never connected it).
public struct SceneBreach: Sendable, Hashable, BitwiseCopyable {
    public var scene: TextID
    public var state: SceneStates.State?
}
