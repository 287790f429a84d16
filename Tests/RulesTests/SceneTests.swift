import Replay
import Rules
import Testing
import TraceModel

/// The scene state machine (rules.md "Scenes"): each scene's moves, the app state derived from
/// the scenes, and the app-level notifications of a scene-based launch.
@Suite struct SceneTests {
    /// A user launch whose one scene comes to the foreground and becomes active, announced at app level.
    static let activeScene = """
        {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
        {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
        {"ts":0.2,"seq":2,"event":"scene.willEnterForeground","scene":"S1"}
        {"ts":0.3,"seq":3,"event":"scene.didBecomeActive","scene":"S1"}
        {"ts":0.31,"seq":4,"event":"didBecomeActive"}
        """

    @Test func twoWindowsComeAndGoWhileTheAppStaysActive() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.activeScene)
            {"ts":5,"seq":5,"event":"scene.willConnect","scene":"S2"}
            {"ts":5.1,"seq":6,"event":"scene.willEnterForeground","scene":"S2"}
            {"ts":5.2,"seq":7,"event":"scene.didBecomeActive","scene":"S2"}
            {"ts":9,"seq":8,"event":"scene.willResignActive","scene":"S2"}
            {"ts":9.1,"seq":9,"event":"scene.didEnterBackground","scene":"S2","phase":"begin"}
            {"ts":9.2,"seq":10,"event":"scene.didEnterBackground","scene":"S2","phase":"end"}
            {"ts":9.3,"seq":11,"event":"snapshot","scene":"S2"}
            {"ts":9.5,"seq":12,"event":"scene.didDisconnect","scene":"S2"}
            {"ts":20,"seq":13,"event":"scene.willResignActive","scene":"S1"}
            {"ts":20.01,"seq":14,"event":"willResignActive"}
            {"ts":20.1,"seq":15,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
            {"ts":20.2,"seq":16,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
            {"ts":20.21,"seq":17,"event":"didEnterBackground","phase":"begin"}
            {"ts":20.3,"seq":18,"event":"didEnterBackground","phase":"end"}
            {"ts":20.4,"seq":19,"event":"snapshot","scene":"S1"}
            {"ts":25,"seq":20,"event":"suspend"}
            {"ts":90,"seq":21,"event":"resume","reason":"user"}
            {"ts":90.1,"seq":22,"event":"scene.willEnterForeground","scene":"S1"}
            {"ts":90.11,"seq":23,"event":"willEnterForeground"}
            {"ts":90.2,"seq":24,"event":"scene.didBecomeActive","scene":"S1"}
            {"ts":90.21,"seq":25,"event":"didBecomeActive"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func theAppStateFollowsItsScenes() throws {
        var lifecycle = AppLifecycle(isExtension: false)
        let events = try ExampleTrace(Example(Self.activeScene)).events
        let texts = TextTable()
        var states: [AppState] = []
        for event in events {
            let compact = ReplayEvent(event, launch: 0, texts: texts)
            #expect(lifecycle.apply(compact, kind: compact.kind) == nil)
            states.append(lifecycle.state)
        }
        #expect(states == [.inactive, .inactive, .inactive, .active, .active])
        #expect(lifecycle.scenes.state(of: texts.id("S1")) == .foregroundActive)
        #expect(lifecycle.isSceneBased)
    }

    @Test func anAppLevelNotificationWhileASceneIsInTheForegroundIsIllegal() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.activeScene)
            {"ts":5,"seq":5,"event":"scene.willConnect","scene":"S2"}
            {"ts":5.1,"seq":6,"event":"scene.willEnterForeground","scene":"S2"}
            {"ts":9,"seq":7,"event":"scene.willResignActive","scene":"S1"}
            {"ts":9.1,"seq":8,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
            {"ts":9.2,"seq":9,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
            {"ts":9.3,"seq":10,"event":"didEnterBackground","phase":"begin"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
        #expect(findings.first?.ts == Timestamp(microseconds: 9_300_000))
        #expect(findings.first?.message.contains("scene S2 in the foreground") == true)
    }

    @Test func aDuplicatedAnnouncementIsIllegal() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.activeScene)
            {"ts":0.4,"seq":5,"event":"didBecomeActive"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
    }

    @Test func suspendingWithASceneInTheForegroundIsIllegal() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.activeScene)
            {"ts":9,"seq":5,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["illegal-transition"])
        #expect(findings.first?.message.contains("no scene or window in the foreground") == true)
    }

    @Test func oneBadSceneEventIsOneFinding() throws {
        // didBecomeActive skipped willEnterForeground: reported once, then the scene is active.
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
            {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
            {"ts":0.2,"seq":2,"event":"scene.didBecomeActive","scene":"S1"}
            {"ts":0.21,"seq":3,"event":"didBecomeActive"}
            {"ts":9,"seq":4,"event":"scene.willResignActive","scene":"S1"}
            {"ts":9.01,"seq":5,"event":"willResignActive"}
            """)
        #expect(findings.map(\.rule) == ["scene-illegal-transition"])
        #expect(findings.first?.message.contains("scene S1, which was unattached") == true)
    }

    @Test func aLogThatBeganMidLaunchAcceptsScenesItNeverSawConnect() throws {
        let findings = try LifecycleReplay.own("""
            {"launch":"L1","ts":0,"seq":40,"event":"scene.willResignActive","scene":"S1"}
            {"ts":0.01,"seq":41,"event":"willResignActive"}
            {"ts":0.1,"seq":42,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
            {"ts":0.2,"seq":43,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
            {"ts":0.3,"seq":44,"event":"didEnterBackground","phase":"begin"}
            {"ts":0.4,"seq":45,"event":"didEnterBackground","phase":"end"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }
}

/// `foreground-to-background-sequence` scene by scene.
@Suite struct SceneSequenceTests {
    /// Two active scenes, announced at app level.
    static let twoActiveScenes = """
        \(SceneTests.activeScene)
        {"ts":5,"seq":5,"event":"scene.willConnect","scene":"S2"}
        {"ts":5.1,"seq":6,"event":"scene.willEnterForeground","scene":"S2"}
        {"ts":5.2,"seq":7,"event":"scene.didBecomeActive","scene":"S2"}
        {"ts":20,"seq":8,"event":"scene.willResignActive","scene":"S1"}
        {"ts":20.01,"seq":9,"event":"scene.willResignActive","scene":"S2"}
        {"ts":20.02,"seq":10,"event":"willResignActive"}
        """

    @Test func aSnapshotWithNoSceneIsTheirsWhoEnteredTheBackgroundLast() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.twoActiveScenes)
            {"ts":20.1,"seq":11,"event":"scene.didEnterBackground","scene":"S1"}
            {"ts":20.2,"seq":12,"event":"scene.didEnterBackground","scene":"S2"}
            {"ts":20.3,"seq":13,"event":"didEnterBackground"}
            {"ts":20.4,"seq":14,"event":"snapshot"}
            {"ts":25,"seq":15,"event":"suspend"}
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test func aSuspendBeforeTheSnapshotsIsOneFindingPerScene() throws {
        let findings = try LifecycleReplay.own("""
            \(Self.twoActiveScenes)
            {"ts":20.1,"seq":11,"event":"scene.didEnterBackground","scene":"S1"}
            {"ts":20.2,"seq":12,"event":"scene.didEnterBackground","scene":"S2"}
            {"ts":20.3,"seq":13,"event":"didEnterBackground"}
            {"ts":20.4,"seq":14,"event":"snapshot","scene":"S2"}
            {"ts":25,"seq":15,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["foreground-to-background-sequence"])
        #expect(findings.first?.message.contains("scene S1's snapshot") == true)
    }

    @Test func aSnapshotBeforeTheScenesCallbackReturnedIsOneFinding() throws {
        // The early snapshot is still the snapshot: the suspend after it is not reported again.
        let findings = try LifecycleReplay.own("""
            \(SceneTests.activeScene)
            {"ts":20,"seq":5,"event":"scene.willResignActive","scene":"S1"}
            {"ts":20.01,"seq":6,"event":"willResignActive"}
            {"ts":20.1,"seq":7,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
            {"ts":20.2,"seq":8,"event":"snapshot","scene":"S1"}
            {"ts":20.3,"seq":9,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
            {"ts":20.4,"seq":10,"event":"didEnterBackground"}
            {"ts":25,"seq":11,"event":"suspend"}
            """)
        #expect(findings.map(\.rule) == ["foreground-to-background-sequence"])
        #expect(findings.first?.ts == Timestamp(microseconds: 20_200_000))
    }

    @Test func aScenesDidEnterBackgroundHasTheAppsBudget() throws {
        let findings = try LifecycleReplay.own("""
            \(SceneTests.activeScene)
            {"ts":20,"seq":5,"event":"scene.willResignActive","scene":"S1"}
            {"ts":20.01,"seq":6,"event":"willResignActive"}
            {"ts":20.1,"seq":7,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
            {"ts":26.3,"seq":8,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
            {"ts":26.4,"seq":9,"event":"didEnterBackground"}
            {"ts":26.5,"seq":10,"event":"snapshot","scene":"S1"}
            """)
        #expect(findings.map(\.rule) == ["did-enter-background-overrun"])
        #expect(findings.first?.message.hasPrefix("scene S1's sceneDidEnterBackground took 6.2 s") == true)
        #expect(findings.first?.measured == 6.2)
    }
}
