import Replay

extension Rule {
    static let bgtaskNeverRan = Rule(
        id: "bgtask-never-ran",
        category: .advisory, severity: .info,
        summary: "A task request that stays pending for more than the task-wait budget (24 h) is reported with what "
            + "the log shows held it back.",
        source: """
            Apple, WWDC 2020 'Background execution demystified' (https://developer.apple.com/videos/play/wwdc2020/10063/), \
            the factors that affect background execution: "Critically low battery … Low Power Mode … App usage … \
            App switcher … Background App Refresh switch … System budgets … Rate limiting"; and \
            'BGTaskRequest.earliestBeginDate' (https://developer.apple.com/documentation/backgroundtasks/bgtaskrequest/earliestbegindate): \
            "the system doesn't guarantee launching the task at the specified date, but only that it won't begin sooner."
            """,
        notes: """
            A request's pending period runs across launches and replacing submits, from the first submit that \
            scheduled it (one without an `error`, within the pending limit) until a `bgtask.launch` of its \
            identifier or a `bgtask.cancel` (of it, or of all). The wait is measured on the device's wall clock \
            (`ts`) from the earliest begin date of the period's first request, or its submit when it gave none \
            (or gave one before it: a request cannot wait before it exists); a later submit does not restart it. \
            Budget `task-wait`, 24 h: Lifeline's pick, as Apple promises no time. The finding lands on the \
            device's first event (of any launch, an extension's too) after the wait passed the budget: a log that \
            ends sooner is no evidence, and a run or cancel that comes after the budget passed still finds the \
            wait too long. One finding per identifier and pending period. It carries `factors`, each with its \
            evidence and the share of the wait it covered: low-power-mode, low-battery (at most 20% and not \
            charging) and refresh-disabled (`denied` or `restricted`) from readings, each taken to hold until \
            the next reading; swiped-away from a `terminate` with reason user until the user opens the app \
            again; app-unused when no user launch, user resume or return to the foreground came during the \
            wait; power-required and network-required when the pending request required them and no reading \
            during the wait saw the device charging or the network reachable; not-registered from a launch \
            that did not register the identifier by the end of its launch sequence until one that did; \
            rescheduled while a later submit's earliest begin date, later than the one it replaced, kept the \
            request from being eligible. A wait with none of them is still reported, with no factors: system \
            budgets and rate limits do not show in a log. Info: most long waits are the user's and the device's \
            doing; the factors say which, and not-registered, rescheduled and the requirements are the app's.
            """,
        budget: .taskWait,
        passing: [
            // The refresh runs 5 h after its earliest begin date, and the log goes on for days.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh","earliest_begin":"1970-01-01T01:00:00Z"}
                {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":14,"event":"snapshot"}
                {"ts":10.5,"seq":15,"event":"suspend"}
                {"ts":21600,"seq":16,"event":"resume","reason":"system","cause":"bgtask"}
                {"ts":21600.1,"seq":17,"event":"didEnterBackground","phase":"begin"}
                {"ts":21600.2,"seq":18,"event":"didEnterBackground","phase":"end"}
                {"ts":21601,"seq":19,"event":"bgtask.launch","identifier":"com.example.refresh","task":1}
                {"ts":21605,"seq":20,"event":"bgtask.complete","task":1,"success":true}
                {"ts":21605.1,"seq":21,"event":"snapshot"}
                {"ts":21605.5,"seq":22,"event":"suspend"}
                {"ts":200000,"seq":23,"event":"terminate","reason":"quiet"}
                """),
            // Cancelled before the budget passed; and a log that ends before it passes is no evidence.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":10.12,"seq":13,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true}
                {"ts":10.13,"seq":14,"event":"bgtask.cancel","identifier":"com.example.refresh"}
                {"ts":10.2,"seq":15,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":16,"event":"snapshot"}
                {"ts":10.5,"seq":17,"event":"suspend"}
                {"ts":86000,"seq":18,"event":"terminate","reason":"quiet"}
                """),
        ],
        failing: [
            // Pending from its earliest begin date (1 h after the submit) for more than 24 h: the
            // finding lands on the device's first event after the budget passed.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh","earliest_begin":"1970-01-01T01:00:00Z"}
                {"ts":10.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":14,"event":"snapshot"}
                {"ts":10.5,"seq":15,"event":"suspend"}
                {"ts":50000,"seq":16,"event":"terminate","reason":"quiet"}
                ↓{"launch":"L2","ts":91000,"seq":0,"event":"launch","reason":"system","cause":"push"}
                {"launch":"L2","ts":91000.1,"seq":1,"event":"didEnterBackground","phase":"begin"}
                {"launch":"L2","ts":91000.2,"seq":2,"event":"didEnterBackground","phase":"end"}
                {"launch":"L2","ts":91001,"seq":3,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"launch":"L2","ts":91002,"seq":4,"event":"push.complete","call":1,"result":"newData"}
                """),
            // Low Power Mode from 1 h into the wait, and the user swiped the app away: factors
            // low-power-mode, swiped-away and app-unused. The first event past the budget is an
            // extension's.
            Example("""
                \(ExampleTraces.userLaunch)
                {"ts":2,"seq":10,"event":"power","low_power_mode":false,"battery":0.8,"charging":false}
                {"ts":10,"seq":11,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":3600,"seq":12,"event":"power","low_power_mode":true,"battery":0.6,"charging":false}
                {"ts":7200,"seq":13,"event":"willResignActive"}
                {"ts":7200.1,"seq":14,"event":"didEnterBackground","phase":"begin"}
                {"ts":7200.2,"seq":15,"event":"didEnterBackground","phase":"end"}
                {"ts":7200.3,"seq":16,"event":"snapshot"}
                {"ts":7260,"seq":17,"event":"terminate","reason":"user"}
                {"launch":"X1","ts":50000,"seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
                {"launch":"X1","ts":50000.2,"seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
                {"launch":"X1","ts":50001,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                ↓{"launch":"X2","ts":90000,"seq":0,"event":"launch","reason":"system","cause":"nse","process":"extension:nse"}
                {"launch":"X2","ts":90000.2,"seq":1,"event":"nse.receive","call":1,"process":"extension:nse"}
                {"launch":"X2","ts":90001,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                """),
        ])
}
