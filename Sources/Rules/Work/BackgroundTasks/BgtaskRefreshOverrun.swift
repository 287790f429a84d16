import Replay

extension Rule {
    static let bgtaskRefreshOverrun = Rule(
        id: "bgtask-refresh-overrun",
        category: .overrun, severity: .error,
        summary: "A BGAppRefreshTask must call setTaskCompleted within its 30 s budget.",
        source: """
            Apple, 'Choosing Background Strategies for Your App', 'Update Your App's Content' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "The system decides the best time to launch your background \
            task, and provides your app up to 30 seconds of background runtime. Complete your work within this \
            time period and call setTaskCompleted(success:), or the system terminates your app."
            """,
        notes: """
            Measured from `bgtask.launch` to `bgtask.complete` against the `refresh-task` budget (30 s, strictly \
            exceeded; `mono` when both events carry it). A task is a refresh task when the latest \
            `bgtask.submit` of its identifier on the device — in any launch, even one logged while the task \
            runs — has `type` refresh. With no submit of it in the log, it is one only when the launch's \
            `background_modes` has "fetch" and not "processing"; otherwise bgtask-processing-overrun judges it.
            """,
        budget: .refreshTask, explainsTermination: true,
        passing: [
            // Exactly 30.0 s: the budget is not strictly exceeded.
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":31,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":31.1,"seq":14,"event":"snapshot"}
                {"ts":31.5,"seq":15,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.refresh"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                ↓{"ts":42.2,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":42.3,"seq":14,"event":"snapshot"}
                {"ts":42.5,"seq":15,"event":"suspend"}
                """),
            // The type comes from a submit in an earlier launch of the app.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":14,"event":"snapshot"}
                {"ts":10.5,"seq":15,"event":"suspend"}
                {"ts":600,"seq":16,"event":"terminate","reason":"quiet"}
                {"ts":1000,"launch":"L2","seq":0,"event":"launch","reason":"system","cause":"bgtask"}
                {"ts":1000.1,"launch":"L2","seq":1,"event":"willFinishLaunching","phase":"begin"}
                {"ts":1000.2,"launch":"L2","seq":2,"event":"willFinishLaunching","phase":"end"}
                {"ts":1000.3,"launch":"L2","seq":3,"event":"didFinishLaunching","phase":"begin"}
                {"ts":1000.31,"launch":"L2","seq":4,"event":"bgtask.register","identifier":"com.example.refresh"}
                {"ts":1000.4,"launch":"L2","seq":5,"event":"didFinishLaunching","phase":"end"}
                {"ts":1000.5,"launch":"L2","seq":6,"event":"didEnterBackground","phase":"begin"}
                {"ts":1000.6,"launch":"L2","seq":7,"event":"didEnterBackground","phase":"end"}
                {"ts":1001,"launch":"L2","seq":8,"event":"bgtask.launch","identifier":"com.example.refresh","task":1}
                ↓{"ts":1035,"launch":"L2","seq":9,"event":"bgtask.complete","task":1,"success":true}
                {"ts":1035.1,"launch":"L2","seq":10,"event":"snapshot"}
                {"ts":1035.5,"launch":"L2","seq":11,"event":"suspend"}
                """),
        ])
}
