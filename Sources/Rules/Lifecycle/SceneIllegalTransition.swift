import Replay

extension Rule {
    static let sceneIllegalTransition = Rule(
        id: "scene-illegal-transition",
        category: .violation, severity: .error,
        summary: "Every scene callback must be a legal move of that scene: connected first, through the foreground "
            + "and the background, disconnected last.",
        source: """
            Apple, 'About the app launch sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/responding_to_the_launch_of_your_app/about_the_app_launch_sequence): \
            "After the launch sequence completes, the system uses your app or scene delegates to display your app's \
            user interface and to manage its life cycle."
            """,
        notes: """
            A scene's states: unattached (after scene.willConnect), foreground-inactive, foreground-active, background, \
            disconnected. Legal moves: unattached → foreground-inactive (scene.willEnterForeground) or → background \
            (scene.didEnterBackground: a scene the system connected for an event in the background); foreground-inactive \
            ↔ foreground-active (scene.didBecomeActive, scene.willResignActive); foreground-inactive → background; \
            background → foreground-inactive; unattached or background → disconnected (scene.didDisconnect). A scene \
            event for a scene never connected in the launch, or already disconnected, is reported too (a disconnected \
            scene may connect again with the same id). After a bad event the scene is in the state the event implies, \
            so one bad event is one finding. The app's own state follows from its scenes: active when a scene is \
            active, inactive when one is in the foreground and none is active, in the background otherwise; the \
            app-level notifications of a scene-based launch, and a suspend while a scene is in the foreground, are \
            judged by illegal-transition. A log that began mid-launch may name scenes it never saw connect: not \
            reported there.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1","role":"window"}
                {"ts":0.2,"seq":2,"event":"scene.willEnterForeground","scene":"S1"}
                {"ts":0.3,"seq":3,"event":"scene.didBecomeActive","scene":"S1"}
                {"ts":0.31,"seq":4,"event":"didBecomeActive"}
                {"ts":30,"seq":5,"event":"scene.willResignActive","scene":"S1"}
                {"ts":30.01,"seq":6,"event":"willResignActive"}
                {"ts":30.1,"seq":7,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
                {"ts":30.2,"seq":8,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
                {"ts":30.21,"seq":9,"event":"didEnterBackground","phase":"begin"}
                {"ts":30.3,"seq":10,"event":"didEnterBackground","phase":"end"}
                {"ts":30.4,"seq":11,"event":"snapshot","scene":"S1"}
                {"ts":32,"seq":12,"event":"scene.didDisconnect","scene":"S1"}
                {"ts":35,"seq":13,"event":"suspend"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
                {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
                {"ts":0.2,"seq":2,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
                {"ts":0.3,"seq":3,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
                {"ts":0.4,"seq":4,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.5,"seq":5,"event":"didEnterBackground","phase":"end"}
                {"ts":0.6,"seq":6,"event":"push.receive","call":"c1","content_available":1,"priority":5,"push_type":"background"}
                {"ts":1.5,"seq":7,"event":"push.complete","call":"c1","result":"newData"}
                {"ts":1.6,"seq":8,"event":"snapshot"}
                {"ts":2,"seq":9,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
                ↓{"ts":0.2,"seq":2,"event":"scene.didBecomeActive","scene":"S1"}
                {"ts":0.3,"seq":3,"event":"didBecomeActive"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
                {"ts":0.2,"seq":2,"event":"scene.willEnterForeground","scene":"S1"}
                {"ts":0.3,"seq":3,"event":"scene.didBecomeActive","scene":"S1"}
                {"ts":0.31,"seq":4,"event":"didBecomeActive"}
                ↓{"ts":5,"seq":5,"event":"scene.didBecomeActive","scene":"S2"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"fetch"}
                {"ts":0.1,"seq":1,"event":"scene.willConnect","scene":"S1"}
                {"ts":0.2,"seq":2,"event":"scene.didEnterBackground","scene":"S1","phase":"begin"}
                {"ts":0.3,"seq":3,"event":"scene.didEnterBackground","scene":"S1","phase":"end"}
                {"ts":4,"seq":4,"event":"scene.didDisconnect","scene":"S1"}
                ↓{"ts":4.1,"seq":5,"event":"scene.didDisconnect","scene":"S1"}
                """),
        ])
}
