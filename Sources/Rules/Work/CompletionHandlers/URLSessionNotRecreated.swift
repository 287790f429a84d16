import Replay

extension Rule {
    static let urlsessionNotRecreated = Rule(
        id: "urlsession-not-recreated",
        category: .violation, severity: .error,
        summary: "A launch must recreate a background URLSession, with the same identifier, before it handles the session's events.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background URLSession (https://developer.apple.com/videos/play/wwdc2019/707/): "If the system terminated the app while it was suspended, the \
            system relaunches the app in the background. As part of your launch time setup, recreate the \
            background session (see Listing 1), using the same session identifier as before, to allow the \
            system to reassociate the background download task with your session."
            """,
        notes: """
            An `urlsession.handleEvents` for an identifier with no `urlsession.create` earlier in the same \
            launch. The typical case is a relaunch for URL session events (`cause` urlsession), but any launch \
            that has not created the session cannot receive its delegate calls, so every launch is judged — \
            provided it was replayed from its `launch` event, so that no `create` can have been missed. One \
            finding per identifier and launch.
            """,
        passing: [
            Example(ExampleTraces.urlSessionEventsCompleted),
        ],
        failing: [
            Example("""
                {"ts":0,"launch":"L1","seq":0,"event":"launch","reason":"system","cause":"urlsession"}
                {"ts":0.01,"seq":1,"event":"config","permitted_identifiers":["com.example.refresh"],"background_modes":["fetch"]}
                {"ts":0.1,"seq":2,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":3,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":4,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.31,"seq":5,"event":"bgtask.register","identifier":"com.example.refresh"}
                {"ts":0.4,"seq":6,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.5,"seq":7,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.6,"seq":8,"event":"didEnterBackground","phase":"end"}
                ↓{"ts":1,"seq":9,"event":"urlsession.handleEvents","identifier":"com.example.download","call":1}
                {"ts":1.2,"seq":10,"event":"urlsession.create","identifier":"com.example.download"}
                {"ts":3,"seq":11,"event":"urlsession.didFinishEvents","identifier":"com.example.download"}
                {"ts":3.05,"seq":12,"event":"urlsession.complete","call":1}
                {"ts":3.2,"seq":13,"event":"snapshot"}
                {"ts":3.5,"seq":14,"event":"suspend"}
                """),
        ])
}
