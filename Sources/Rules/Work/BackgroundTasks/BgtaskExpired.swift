import Replay

extension Rule {
    static let bgtaskExpired = Rule(
        id: "bgtask-expired",
        category: .missedCompletion, severity: .error,
        summary: "When a BGTask's expiration handler runs, the task must call setTaskCompleted within the expiration grace.",
        source: """
            Apple, 'Starting and Terminating Tasks During Development' (https://developer.apple.com/documentation/backgroundtasks/starting-and-terminating-tasks-during-development): "The system calls the expiration \
            handler for the desired task."; 'Update Your App's Content': "call setTaskCompleted(success:), or \
            the system terminates your app."
            """,
        notes: """
            The grace is the `expiration-grace` budget (5 s, strictly exceeded), from `bgtask.expire`. Reported \
            at the late `bgtask.complete`, or — when none came — at the `suspend` or the launch's end (then \
            instead of bgtask-not-completed). A completion within the grace is fine for this rule; the \
            type's overrun rule still judges the total run time.
            """,
        budget: .expirationGrace, explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":29,"seq":13,"event":"bgtask.expire","task":1}
                {"ts":30,"seq":14,"event":"bgtask.complete","task":1,"success":false}
                {"ts":30.1,"seq":15,"event":"snapshot"}
                {"ts":30.5,"seq":16,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":29,"seq":13,"event":"bgtask.expire","task":1}
                ↓{"ts":35,"seq":14,"event":"bgtask.complete","task":1,"success":false}
                {"ts":35.1,"seq":15,"event":"snapshot"}
                {"ts":35.5,"seq":16,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":29,"seq":12,"event":"bgtask.expire","task":1}
                ↓{"ts":36,"seq":13,"event":"terminate","reason":"watchdog"}
                """),
        ])
}
