import Replay

extension Rule {
    static let eventAfterTerminate = Rule(
        id: "event-after-terminate",
        category: .data, severity: .warning,
        summary: "A launch logs nothing after its terminate: a process that ended runs no code.",
        source: """
            Apple, 'Managing your app's life cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "At its discretion, the system may quietly terminate a \
            suspended app, returning it to the not running state." A `launch` id names one process lifetime (trace \
            format v1: "new at every process launch, the same until that process ends"), so nothing follows its end.
            """,
        notes: """
            Reported once per launch, at the first event after the terminate; the later ones are passed over \
            (one inconsistency, not a cascade) and are not replayed by any launch rule. Events of a launch that \
            ended without a terminate, because a newer launch of the same process began, are passed over silently: \
            which process ran them cannot be told. Applies to extension processes too.
            """,
        passing: [
            Example("""
                \(ExampleTraces.active)
                {"ts":60,"seq":2,"event":"terminate","reason":"crash"}
                {"ts":70,"launch":"L2","seq":0,"event":"launch","reason":"user"}
                {"ts":70.3,"launch":"L2","seq":1,"event":"didBecomeActive"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.active)
                {"ts":60,"seq":2,"event":"terminate","reason":"crash"}
                ↓{"ts":61,"seq":3,"event":"network","reachable":true,"wifi":false}
                {"ts":62,"seq":4,"event":"willResignActive"}
                """),
            Example("""
                \(ExampleTraces.notificationReceived)
                {"ts":0.9,"seq":2,"event":"nse.contentHandler","call":1,"process":"extension:nse"}
                {"ts":5,"seq":3,"event":"terminate","reason":"quiet","process":"extension:nse"}
                ↓{"ts":6,"seq":4,"event":"nse.receive","call":2,"process":"extension:nse"}
                """),
        ])
}
