import Replay

extension Rule {
    static let sharedResourceHeldAtSuspension = Rule(
        id: "shared-resource-held-at-suspension",
        category: .violation, severity: .error,
        summary: "Release shared resources (file locks, databases in a shared container, the camera, the microphone) "
            + "before the app is suspended: the system kills an app that still holds one.",
        source: """
            Apple, 'Managing your app's life cycle', 'Preparing Your App to Run in the Background' \
            (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "Release \
            shared system resources. The foreground app has priority for using shared services like the camera or \
            system databases. At the time when an app would be suspended, if the app is holding any shared \
            resources, the system terminates it instead."
            """,
        notes: """
            A `resource.acquire` of any kind but `bonjour` and `socket` (listeners: see \
            listener-open-at-suspension) — a kind that is not logged counts as a shared resource — with no \
            `resource.release` of the same `resource` by the launch's `suspend`, or by a `terminate` with reason \
            `resource` (the kill that replaces the suspension, 0xdead10cc) while the app was in the background or \
            suspended. One finding per resource held, at that suspend or terminate; resources belong to one \
            launch. A hold is one breach: reported at a suspension, it is not reported again at a later suspension \
            or kill of the same launch unless it is released and acquired again (acquiring a held resource again \
            changes nothing). A resource kill is explained by this finding (termination-explained names the \
            resources held, their kinds and since when), also when the hold was reported at an earlier suspension. A \
            `resource.acquire` or `resource.release` without a `resource` id cannot be paired and is passed over. \
            A launch whose log ends (no terminate) while holding a resource is not judged: holding one while the \
            app runs is legal. App extensions are not judged (they have no UIKit life cycle).
            """,
        explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.inBackground)
                {"ts":60.4,"seq":6,"event":"resource.acquire","resource":"group.com.example/articles.sqlite","kind":"database"}
                {"ts":60.9,"seq":7,"event":"resource.release","resource":"group.com.example/articles.sqlite"}
                {"ts":61,"seq":8,"event":"suspend"}
                """),
            // A listener left open is listener-open-at-suspension, not this rule.
            Example("""
                \(ExampleTraces.inBackground)
                {"ts":60.4,"seq":6,"event":"resource.acquire","resource":"_share._tcp","kind":"bonjour"}
                {"ts":61,"seq":7,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.leavingForegroundHolding("group.com.example/reading-list.lock", kind: "file-lock"))
                ↓{"ts":61,"seq":7,"event":"suspend"}
                """),
            // The kill that replaces the suspension.
            Example("""
                \(ExampleTraces.locationUpdateHolding("group.com.example/tracks.sqlite", kind: "database"))
                ↓{"ts":2.5,"seq":6,"event":"terminate","reason":"resource"}
                """),
            // One breach, one finding: the kill after the suspension does not report it again.
            Example("""
                \(ExampleTraces.inBackground)
                {"ts":60.4,"seq":6,"event":"resource.acquire","resource":"group.com.example/articles.sqlite","kind":"database"}
                ↓{"ts":61,"seq":7,"event":"suspend"}
                {"ts":64,"seq":8,"event":"terminate","reason":"resource"}
                """),
        ])
}
