import Replay
import TraceModel

extension Rule {
    static let simulatedLaunch = Rule(
        id: "simulated-launch",
        category: .data, severity: .info,
        summary: "A launch run from the debugger is not field behaviour: a BGTask launched or expired by hand, or "
            + "a debugger attached at launch.",
        source: """
            Apple, 'Starting and Terminating Tasks During Development' (https://developer.apple.com/documentation/backgroundtasks/starting-and-terminating-tasks-during-development): \
            "Use the debugger during development to start tasks and to terminate them before completion. … While \
            developing your app, you can use two private functions to start a task and to force early termination \
            of the task according to your selected timeline."
            """,
        notes: """
            Evidence is a `bgtask.launch` or `bgtask.expire` with `simulated: true` (the run was forced with \
            _simulateLaunchForTaskWithIdentifier: or _simulateExpirationForTaskWithIdentifier:), or a `config` \
            with `debugger: true`. One finding per launch, at the first such event, so that reports and queries \
            can leave the launch out; the launch is still replayed and its other findings stand.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"bgtask"}
                {"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["r"],"background_modes":["fetch"],"build":"release","debugger":false}
                {"ts":0.02,"seq":2,"event":"bgtask.register","identifier":"r"}
                {"ts":0.1,"seq":3,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.2,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":0.3,"seq":5,"event":"bgtask.launch","identifier":"r","task":1,"simulated":false}
                {"ts":5,"seq":6,"event":"bgtask.complete","task":1,"success":true}
                """),
        ],
        failing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"bgtask"}
                {"ts":0.02,"seq":1,"event":"bgtask.register","identifier":"r"}
                {"ts":0.1,"seq":2,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.2,"seq":3,"event":"didEnterBackground","phase":"end"}
                ↓{"ts":0.3,"seq":4,"event":"bgtask.launch","identifier":"r","task":1,"simulated":true}
                {"ts":4,"seq":5,"event":"bgtask.expire","task":1,"simulated":true}
                {"ts":4.5,"seq":6,"event":"bgtask.complete","task":1,"success":false}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                ↓{"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["r"],"build":"debug","debugger":true}
                {"ts":0.3,"seq":2,"event":"didBecomeActive"}
                """),
        ])
}

/// Reports a launch run from the debugger, once, at its first evidence.
final class SimulatedLaunchCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [.bgtaskLaunch, .bgtaskExpire, .config], rules: [.simulatedLaunch]
    ) { _ in SimulatedLaunchCheck() }

    private var reported = false

    override func clearForNextLaunch() -> Bool {
        reported = false
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard !reported else { return }
        let evidence: String
        if event.isSimulated {
            evidence = "\(kind.rawValue) at \(event.ts) was forced from the debugger (simulated: true)"
        } else if kind == .config, context.launch.debuggerAttached == true {
            evidence = "a debugger was attached when the app launched (config at \(event.ts))"
        } else {
            return
        }
        reported = true
        context.report(
            .simulatedLaunch, at: event, events: [event],
            message: "This launch ran under the debugger: \(evidence). Leave it out of field figures "
                + "(its other findings describe a development run, not what iOS does on its own).")
    }
}
