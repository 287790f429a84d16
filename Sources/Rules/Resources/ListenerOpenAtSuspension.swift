import Replay

extension Rule {
    static let listenerOpenAtSuspension = Rule(
        id: "listener-open-at-suspension",
        category: .advisory, severity: .warning,
        summary: "Unregister Bonjour services and close listening sockets before the app is suspended.",
        source: """
            Apple, 'Managing your app's life cycle', 'Preparing Your App to Run in the Background' \
            (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "Cancel \
            Bonjour–related services. Unregister from Bonjour and close any listening sockets that you use for \
            your services. If your app becomes suspended, it cannot respond to requests anyway."
            """,
        notes: """
            A `resource.acquire` of kind `bonjour` or `socket` with no `resource.release` of the same `resource` \
            by the launch's `suspend`. One finding per listener, at the suspend; a listener still open at a later \
            suspension of the same launch is not reported again unless it was closed and opened anew. A warning: \
            the system does not kill the app for it, but peers find a service that never answers. A kill for a \
            held resource (terminate with reason resource) is not judged here: it is about shared resources.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.3,"seq":1,"event":"didBecomeActive"}
                {"ts":5,"seq":2,"event":"resource.acquire","resource":"_share._tcp","kind":"bonjour"}
                {"ts":60,"seq":3,"event":"willResignActive"}
                {"ts":60.1,"seq":4,"event":"didEnterBackground","phase":"begin"}
                {"ts":60.15,"seq":5,"event":"resource.release","resource":"_share._tcp"}
                {"ts":60.2,"seq":6,"event":"didEnterBackground","phase":"end"}
                {"ts":60.3,"seq":7,"event":"snapshot"}
                {"ts":61,"seq":8,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.leavingForegroundHolding("_share._tcp", kind: "bonjour"))
                ↓{"ts":61,"seq":7,"event":"suspend"}
                """),
            // Still open at the next suspension: the same breach, reported once.
            Example("""
                \(ExampleTraces.leavingForegroundHolding("tcp:0.0.0.0:8631", kind: "socket"))
                ↓{"ts":61,"seq":7,"event":"suspend"}
                {"ts":300,"seq":8,"event":"resume","reason":"user"}
                {"ts":300.1,"seq":9,"event":"willEnterForeground"}
                {"ts":300.2,"seq":10,"event":"didBecomeActive"}
                {"ts":360,"seq":11,"event":"willResignActive"}
                {"ts":360.1,"seq":12,"event":"didEnterBackground","phase":"begin"}
                {"ts":360.2,"seq":13,"event":"didEnterBackground","phase":"end"}
                {"ts":360.3,"seq":14,"event":"snapshot"}
                {"ts":361,"seq":15,"event":"suspend"}
                """),
        ])
}
