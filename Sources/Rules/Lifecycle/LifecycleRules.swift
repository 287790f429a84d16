import Replay

/// The state machine and the documented sequences: the lifecycle check first (every other check
/// reads the state it keeps), then the sequence checks and the `didEnterBackground` budget.
enum LifecycleRules {
    static var blueprints: [CheckBlueprint] {
        [
            CheckBlueprint(
                scope: .launch, interests: nil, runsOnExtensions: true, outlivesLaunch: true,
                rules: [.illegalTransition, .eventAfterTerminate, .eventWhileSuspended],
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
            Obligation.didEnterBackgroundOverrun.blueprint,
        ]
    }
}
