import Replay
import TraceModel

extension Rule {
    static let didEnterBackgroundOverrun = Rule(
        id: "did-enter-background-overrun",
        category: .overrun, severity: .error,
        summary: "applicationDidEnterBackground(_:) must return within its 5 s budget.",
        source: """
            Apple, 'Extending your app's background execution time' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/extending_your_app_s_background_execution_time): "When your app moves to the background, the \
            system calls your app delegate's applicationDidEnterBackground(_:) method. That method has five seconds \
            to perform any tasks and return."
            """,
        notes: """
            Measured from the `begin` to the `end` of the call (mono when both carry it, else ts); broken only when \
            strictly longer than the budget. A call that never returned is reported at the suspend, the terminate \
            or the end of the launch if the time already spent breaks the budget; a call still running within its \
            budget there is not reported. A finding of this rule explains a later termination of the launch. \
            In a scene-based app each scene's sceneDidEnterBackground(_:) (scene.didEnterBackground begin → end, per \
            scene) has the same budget: Apple documents it for the app delegate, and Lifeline applies it to scenes, \
            whose delegate takes over that work.
            """,
        budget: .didEnterBackground, explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":65.1,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":65.2,"seq":5,"event":"snapshot"}
                {"ts":66,"seq":6,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.sceneResigning)
                {"ts":30.1,"seq":5,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
                ↓{"ts":37.2,"seq":6,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
                {"ts":37.3,"seq":7,"event":"snapshot","scene":"S1"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                ↓{"ts":66.6,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":66.7,"seq":5,"event":"snapshot"}
                {"ts":67,"seq":6,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                ↓{"ts":68.1,"seq":4,"event":"terminate","reason":"watchdog"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
                {"ts":0.3,"seq":1,"event":"didEnterBackground","phase":"begin"}
                ↓{"ts":9,"seq":2,"event":"suspend"}
                """),
        ])
}

extension Obligation {
    /// `didEnterBackground` begin must be followed by its end within the budget.
    static let didEnterBackgroundOverrun = Obligation(
        opens: .didEnterBackground, opensIf: { $0.phase == .begin },
        closes: .didEnterBackground, closesIf: { $0.phase == .end },
        key: .none, deadline: .budget(.didEnterBackground),
        overrun: [
            .didEnterBackground: Report(.didEnterBackgroundOverrun) { overrunMessage($0, callback: "didEnterBackground") },
        ])

    /// Each scene's `scene.didEnterBackground` begin must be followed by its end within the same budget.
    static let sceneDidEnterBackgroundOverrun = Obligation(
        opens: .sceneDidEnterBackground, opensIf: { $0.phase == .begin },
        closes: .sceneDidEnterBackground, closesIf: { $0.phase == .end },
        key: .scene, deadline: .budget(.didEnterBackground),
        overrun: [
            .didEnterBackground: Report(.didEnterBackgroundOverrun) { breach in
                let scene = breach.opening?.scene.map { "scene \($0)'s " } ?? ""
                return overrunMessage(breach, callback: "\(scene)sceneDidEnterBackground")
            },
        ])

    private static func overrunMessage(_ breach: Breach, callback: String) -> String {
        let seconds = breach.seconds.map { SecondsText.seconds($0, decimals: 3, trimmed: true) } ?? "?"
        let budget = breach.budgetSeconds.map { SecondsText.seconds($0, decimals: 3, trimmed: true) } ?? "5 s"
        let began = breach.opening.map { " (begun at \($0.ts))" } ?? ""
        let head = breach.at.kind == breach.opening?.kind
            ? "\(callback) took \(seconds)\(began), over its \(budget) budget"
            : "\(callback)\(began) had not returned after \(seconds) when \(breach.at.name) came at \(breach.at.ts), over its \(budget) budget"
        let delegate = callback == "didEnterBackground" ? "applicationDidEnterBackground(_:)" : "sceneDidEnterBackground(_:)"
        return head + "; return from \(delegate) quickly and move longer work into "
            + "beginBackgroundTask(withName:expirationHandler:) — the system may kill an app that does not return in time."
    }
}
