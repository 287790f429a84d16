import Replay

/// The postmortem of each launch's end; runs last, so that it sees every finding the end itself
/// caused (a task never ended, a BGTask never completed, a `didEnterBackground` never returned).
enum TerminationRules {
    static var blueprint: CheckBlueprint {
        CheckBlueprint(
            scope: .launch, interests: [.terminate, .suspend],
            rules: [.terminationExplained, .terminationUnexplained],
            make: { _ in TerminationCheck() })
    }
}
