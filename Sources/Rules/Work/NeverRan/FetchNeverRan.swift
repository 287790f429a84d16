import Replay

extension Rule {
    static let fetchNeverRan = Rule(
        id: "fetch-never-ran",
        category: .advisory, severity: .info,
        summary: "An app that set an explicit minimum background fetch interval and got no fetch for more than the "
            + "task-wait budget (24 h) is reported with what the log shows held it back.",
        source: """
            Apple, 'setMinimumBackgroundFetchInterval(_:)' (https://developer.apple.com/documentation/uikit/uiapplication/setminimumbackgroundfetchinterval(_:)): \
            "Specifies the minimum amount of time that must elapse between background fetch operations." — a \
            minimum, not a promise; and WWDC 2020 'Background execution demystified' \
            (https://developer.apple.com/videos/play/wwdc2020/10063/), the factors that affect background \
            execution: "Critically low battery … Low Power Mode … App usage … App switcher … Background App \
            Refresh switch … System budgets … Rate limiting".
            """,
        notes: """
            An explicit interval is one above 0 and below 10⁹ s: 0 is backgroundFetchIntervalMinimum, which \
            leaves the timing wholly to the system, and backgroundFetchIntervalNever is the largest double. The \
            wait runs from the first such `fetch.setMinimumInterval` since the last `fetch.perform`, across \
            launches, until the next `fetch.perform`; a later set of 0 or Never ends it (no explicit interval is \
            in force any more). Budget `task-wait` (24 h, Lifeline's pick), on the device's wall clock; the \
            finding lands on the device's first event after the wait passed it, so a log that ends sooner is no \
            evidence; one finding per wait. Its `factors` are those of bgtask-never-ran that concern the user \
            and the device: low-power-mode, low-battery, refresh-disabled, swiped-away and app-unused.
            """,
        budget: .taskWait,
        passing: [
            // Fetched within the day; the next launch sets the interval again and starts a new wait,
            // which the log does not outlast.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground(legacy: true))
                {"ts":10.2,"seq":12,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":13,"event":"snapshot"}
                {"ts":10.5,"seq":14,"event":"suspend"}
                {"ts":40000,"seq":15,"event":"resume","reason":"system","cause":"fetch"}
                {"ts":40000.1,"seq":16,"event":"didEnterBackground","phase":"begin"}
                {"ts":40000.2,"seq":17,"event":"didEnterBackground","phase":"end"}
                {"ts":40001,"seq":18,"event":"fetch.perform","call":1}
                {"ts":40003,"seq":19,"event":"fetch.complete","call":1,"result":"newData"}
                {"ts":40003.1,"seq":20,"event":"snapshot"}
                {"ts":40003.5,"seq":21,"event":"suspend"}
                {"ts":120000,"seq":22,"event":"terminate","reason":"quiet"}
                """),
            // backgroundFetchIntervalMinimum (0) leaves the timing to the system.
            Example("""
                {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"user"}
                {"ts":0.3,"seq":1,"event":"fetch.setMinimumInterval","interval":0}
                {"ts":0.5,"seq":2,"event":"didBecomeActive"}
                {"ts":100000,"seq":3,"event":"willResignActive"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground(legacy: true))
                {"ts":10.2,"seq":12,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":13,"event":"snapshot"}
                {"ts":10.5,"seq":14,"event":"suspend"}
                {"ts":3600,"seq":15,"event":"terminate","reason":"quiet"}
                ↓{"launch":"L2","ts":90000,"seq":0,"event":"launch","reason":"user"}
                {"launch":"L2","ts":90000.3,"seq":1,"event":"fetch.setMinimumInterval","interval":3600}
                {"launch":"L2","ts":90000.5,"seq":2,"event":"didBecomeActive"}
                """),
        ])
}
