import Replay

extension Rule {
    static let bgtaskCompleteTwice = Rule(
        id: "bgtask-complete-twice",
        category: .violation, severity: .warning,
        summary: "Call setTaskCompleted(success:) exactly once per launched task.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Update Your App's Content' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "Complete your work within this time period and call \
            setTaskCompleted(success:)"
            """,
        notes: """
            A second `bgtask.complete` of one task. A warning: the system acts on the first call only, but two \
            paths (the work and the expiration handler, say) each believe they finish the task, so one of them \
            reports the wrong result.
            """,
        passing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":6,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                {"ts":6.1,"seq":13,"event":"snapshot"}
                {"ts":6.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":6,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                ↓{"ts":7.2,"seq":13,"event":"bgtask.complete","task":1,"success":false}
                {"ts":7.3,"seq":14,"event":"snapshot"}
                {"ts":7.5,"seq":15,"event":"suspend"}
                """),
        ])
}
