import Replay

extension Rule {
    static let bgtaskNotCompleted = Rule(
        id: "bgtask-not-completed",
        category: .missedCompletion, severity: .error,
        summary: "A launched BGTask must call setTaskCompleted(success:) before the app is suspended or ends.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Update Your App's Content' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "Complete your work within this time period and call \
            setTaskCompleted(success:), or the system terminates your app."
            """,
        notes: """
            Due at the first `suspend` after `bgtask.launch`, else at the launch's end (`terminate`). A log \
            that ends first, with no terminate, is log-ended-with-open-work. A task whose expiration handler ran is reported as \
            bgtask-expired instead.
            """,
        explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":9,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                {"ts":9.1,"seq":13,"event":"snapshot"}
                {"ts":9.5,"seq":14,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":9.1,"seq":12,"event":"snapshot"}
                ↓{"ts":9.5,"seq":13,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                ↓{"ts":29,"seq":13,"event":"terminate","reason":"watchdog"}
                """),
        ])
}
