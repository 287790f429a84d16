import Replay

extension Rule {
    static let launchSequence = Rule(
        id: "launch-sequence",
        category: .violation, severity: .error,
        summary: "The launch steps come in order — willFinishLaunching, state restoration, didFinishLaunching — "
            + "all before the app first becomes active or enters the background.",
        source: """
            Apple, 'About the app launch sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/responding_to_the_launch_of_your_app/about_the_app_launch_sequence): "UIKit calls the application(_:willFinishLaunchingWithOptions:) \
            method in your app delegate. UIKit performs state restoration … UIKit calls your app delegate's \
            application(_:didFinishLaunchingWithOptions:) method. After the launch sequence completes, the system uses \
            your app or scene delegates to display your app's user interface and to manage its life cycle."
            """,
        notes: """
            A missing step is not a breach: both launch delegate methods are optional and restoreState runs only \
            for apps that restore state, so an absent step may simply not be implemented (or the log began \
            mid-launch); only the order of the steps logged is judged. A step is out of order when it begins before \
            the previous one returned, comes after a later step, or comes after the first didBecomeActive or \
            didEnterBackground; so is a didBecomeActive or didEnterBackground while a step has not returned. An \
            event without `phase` counts as its begin and end. One finding per launch, at the first out-of-order \
            event; a step the lifecycle check already reported (run while suspended) is not judged again.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"restoreState","phase":"begin"}
                {"ts":0.4,"seq":4,"event":"restoreState","phase":"end"}
                {"ts":0.5,"seq":5,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.6,"seq":6,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.7,"seq":7,"event":"didBecomeActive"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"fetch"}
                {"ts":0.5,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.6,"seq":2,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.7,"seq":3,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.8,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":0.9,"seq":5,"event":"fetch.perform","call":1}
                """),
        ],
        failing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"end"}
                ↓{"ts":0.3,"seq":3,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.4,"seq":4,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.5,"seq":5,"event":"didBecomeActive"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"begin"}
                ↓{"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.3,"seq":3,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.4,"seq":4,"event":"didFinishLaunching","phase":"end"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"willFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"willFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"didFinishLaunching","phase":"begin"}
                ↓{"ts":0.4,"seq":4,"event":"didBecomeActive"}
                {"ts":0.5,"seq":5,"event":"didFinishLaunching","phase":"end"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"didBecomeActive"}
                ↓{"ts":0.4,"seq":4,"event":"restoreState","phase":"begin"}
                {"ts":0.5,"seq":5,"event":"restoreState","phase":"end"}
                """),
        ])
}
