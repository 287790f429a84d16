import Replay

extension Rule {
    static let illegalTransition = Rule(
        id: "illegal-transition",
        category: .violation, severity: .error,
        summary: "Every life-cycle callback and system event must be a legal move of UIKit's five-state machine.",
        source: """
            Apple, 'Managing your app's life cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "UIKit apps are always in one of five states … Apps start \
            off not running. When the user explicitly launches the app, the app moves briefly to the inactive state \
            before entering the active state. … Quitting an active app moves it offscreen and into the background \
            state, where it stays until the system suspends it a short time later." and "If your app was already \
            running in the background, UIKit calls the applicationWillEnterForeground() method before calling the \
            applicationDidBecomeActive() method."
            """,
        notes: """
            Legal moves: not running → inactive (launch reason user) or background (reason system, or a cause); \
            inactive ↔ active; inactive → background; background → inactive (willEnterForeground); background → \
            suspended; suspended → background (resume); any state → not running (terminate, whatever its reason). \
            didEnterBackground is legal from inactive, and from the background once per background period (after a \
            launch or resume into the background). willTerminate, memoryWarning, snapshot and the launch steps move \
            nothing. After an illegal event the replay continues in the state the event implies, so one bad event \
            yields one finding. An event while suspended is event-while-suspended, not this rule. A prewarm launch \
            (iOS runs it only up to UIApplicationMain) and a log whose first event for a launch is not `launch` (the \
            file began mid-launch) leave the state unknown: it reads background, and the next life-cycle event is \
            accepted whatever it is. Extension processes have no UIKit life cycle: never reported there.
            """,
        passing: [
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"user"}
                {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"didBecomeActive"}
                {"ts":20,"seq":4,"event":"willResignActive"}
                {"ts":24,"seq":5,"event":"didBecomeActive"}
                {"ts":60,"seq":6,"event":"willResignActive"}
                {"ts":60.1,"seq":7,"event":"didEnterBackground","phase":"begin"}
                {"ts":60.2,"seq":8,"event":"didEnterBackground","phase":"end"}
                {"ts":60.3,"seq":9,"event":"snapshot"}
                {"ts":61,"seq":10,"event":"willEnterForeground"}
                {"ts":61.1,"seq":11,"event":"didBecomeActive"}
                {"ts":90,"seq":12,"event":"willResignActive"}
                {"ts":90.1,"seq":13,"event":"didEnterBackground","phase":"begin"}
                {"ts":90.2,"seq":14,"event":"didEnterBackground","phase":"end"}
                {"ts":90.3,"seq":15,"event":"snapshot"}
                {"ts":91,"seq":16,"event":"suspend"}
                {"ts":500,"seq":17,"event":"resume","reason":"user"}
                {"ts":500.1,"seq":18,"event":"willEnterForeground"}
                {"ts":500.2,"seq":19,"event":"didBecomeActive"}
                {"ts":900,"seq":20,"event":"terminate","reason":"crash"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"push"}
                {"ts":0.1,"seq":1,"event":"didFinishLaunching","phase":"begin"}
                {"ts":0.2,"seq":2,"event":"didFinishLaunching","phase":"end"}
                {"ts":0.3,"seq":3,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.4,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":0.5,"seq":5,"event":"push.receive","call":1,"content_available":true,"priority":5,"push_type":"background"}
                {"ts":2,"seq":6,"event":"push.complete","call":1,"result":"newData"}
                {"ts":2.1,"seq":7,"event":"snapshot"}
                {"ts":2.5,"seq":8,"event":"suspend"}
                {"ts":3000,"seq":9,"event":"terminate","reason":"quiet"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.inBackground)
                ↓{"ts":62,"seq":6,"event":"didBecomeActive"}
                {"ts":70,"seq":7,"event":"willResignActive"}
                """),
            Example("""
                \(ExampleTraces.active)
                ↓{"ts":60,"seq":2,"event":"didEnterBackground","phase":"begin"}
                {"ts":60.1,"seq":3,"event":"didEnterBackground","phase":"end"}
                {"ts":60.2,"seq":4,"event":"snapshot"}
                {"ts":61,"seq":5,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.active)
                ↓{"ts":60,"seq":2,"event":"suspend"}
                {"ts":300,"seq":3,"event":"resume","reason":"user"}
                {"ts":300.1,"seq":4,"event":"willEnterForeground"}
                {"ts":300.2,"seq":5,"event":"didBecomeActive"}
                """),
            Example("""
                {"launch":"L1","ts":0,"seq":0,"event":"launch","reason":"system","cause":"fetch"}
                {"ts":0.3,"seq":1,"event":"didEnterBackground","phase":"begin"}
                {"ts":0.4,"seq":2,"event":"didEnterBackground","phase":"end"}
                ↓{"ts":5,"seq":3,"event":"resume","reason":"system","cause":"fetch"}
                {"ts":5.1,"seq":4,"event":"fetch.perform","call":1}
                """),
        ])
}
