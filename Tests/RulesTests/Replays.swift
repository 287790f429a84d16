import Replay
import Rules
import TraceModel

/// Replays tiny inline traces (example syntax: `device` defaults to D, `launch` to L1) through the
/// whole catalog, for the tests of the lifecycle, sequence and termination rules.
enum LifecycleReplay {
    static func findings(_ trace: String) throws -> [Finding] {
        let events = try ExampleTrace(Example(trace)).events
        return Replayer.findings(in: events, book: RuleCatalog.standard)
    }

    /// The findings of the rules this suite is about (the state machine, sequences, terminations).
    static func own(_ trace: String) throws -> [Finding] {
        try findings(trace).filter { ownRules.contains($0.rule) }
    }

    static let ownRules: Set<String> = [
        "illegal-transition", "scene-illegal-transition", "event-after-terminate", "event-while-suspended", "launch-sequence",
        "background-launch-sequence", "background-resume-sequence", "foreground-to-background-sequence",
        "did-enter-background-overrun", "termination-explained", "termination-unexplained",
    ]
}

/// The findings of the work rules (all rules with `everyRule`) on `trace`, replayed through the
/// whole catalog with `budgets`.
func workFindings(
    _ trace: String, budgets: Budgets = Budgets(), everyRule: Bool = false
) throws -> [Finding] {
    let events = try ExampleTrace(Example(trace)).events
    let work = Set(WorkRules.blueprints.flatMap(\.rules).map(\.id))
    return Replayer.findings(
        in: events, book: RuleCatalog.standard, configuration: ReplayConfiguration(budgets: budgets)
    ).filter { everyRule || work.contains($0.rule) }
}
