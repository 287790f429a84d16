import Replay

/// The state machine's breaches and the documented sequences: the lifecycle check (it reports
/// what the replay's ``AppLifecycle`` found), then the sequence checks and the
/// `didEnterBackground` budget. Every check reads the state the replay applied before it.
enum LifecycleRules {
    static var blueprints: [CheckBlueprint] {
        [
            CheckBlueprint(
                scope: .launch, interests: nil, runsOnExtensions: true, outlivesLaunch: true,
                rules: [.illegalTransition, .sceneIllegalTransition, .eventAfterTerminate, .eventWhileSuspended],
                make: { _ in LifecycleCheck() }),
            CheckBlueprint(
                scope: .launch,
                interests: [.willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive, .didEnterBackground],
                rules: [.launchSequence],
                make: { _ in LaunchSequenceCheck() }),
            CheckBlueprint(
                scope: .launch, interests: BackgroundSequenceCheck.interests,
                rules: [.backgroundLaunchSequence, .backgroundResumeSequence, .foregroundToBackgroundSequence],
                make: { _ in BackgroundSequenceCheck() }),
            SceneSequenceCheck.blueprint,
            Obligation.didEnterBackgroundOverrun.blueprint,
            Obligation.sceneDidEnterBackgroundOverrun.blueprint,
        ]
    }
}
