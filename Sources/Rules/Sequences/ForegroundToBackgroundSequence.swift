import Replay

extension Rule {
    static let foregroundToBackgroundSequence = Rule(
        id: "foreground-to-background-sequence",
        category: .violation, severity: .error,
        summary: "Leaving the foreground goes willResignActive → didEnterBackground → snapshot → (suspend); the "
            + "snapshot comes only after didEnterBackground returned.",
        source: """
            Apple, 'About the background execution sequence' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/about_the_background_execution_sequence): "When another app is launched or the user returns to \
            the Home screen, the foreground app moves to the background, following this sequence: The user exits the \
            running app. UIKit calls the app delegate's applicationWillResignActive(_:) method. UIKit calls the app \
            delegate's applicationDidEnterBackground(_:) method. The app's snapshot is taken. The app may be \
            suspended again." Apple, 'Managing your app's life cycle' (https://developer.apple.com/documentation/uikit/core_app/managing_your_app_s_life_cycle): "Clean up your app's user interface. Hide sensitive information … and \
            prepare your interface to have its snapshot taken."
            """,
        notes: """
            Starts at willResignActive from active, or at didEnterBackground from inactive (after a user launch, \
            before the app became active). willResignActive → didBecomeActive is an interruption (an alert, a call): \
            the app never left the foreground and the sequence ends without a finding; so does willEnterForeground \
            after didEnterBackground (a bounce) and terminate (cut short — the user swiping the app away goes \
            willResignActive → willTerminate → terminate). A snapshot before didEnterBackground began or returned, \
            or a suspend before the snapshot, breaks the sequence. didEnterBackground from active without \
            willResignActive is illegal-transition's, not this rule's. One finding per sequence: a snapshot that \
            came too early is still the snapshot, so the suspend after it is not reported as coming before one. \
            In a scene-based launch the sequence is followed per scene: scene.willResignActive → \
            scene.didEnterBackground → snapshot of that scene (a snapshot without scene belongs to the scenes that \
            entered the background last), one finding per scene; the app-level notifications there announce the \
            scenes' moves and start no sequence of their own.
            """,
        passing: [
            Example("""
                \(ExampleTraces.active)
                {"ts":10,"seq":2,"event":"willResignActive"}
                {"ts":12,"seq":3,"event":"didBecomeActive"}
                {"ts":60,"seq":4,"event":"willResignActive"}
                {"ts":60.1,"seq":5,"event":"didEnterBackground","phase":"begin"}
                {"ts":60.15,"seq":6,"event":"bgtask.submit","identifier":"r","type":"refresh"}
                {"ts":60.2,"seq":7,"event":"didEnterBackground","phase":"end"}
                {"ts":60.3,"seq":8,"event":"snapshot"}
                {"ts":60.9,"seq":9,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":60.2,"seq":4,"event":"didEnterBackground","phase":"end"}
                {"ts":60.5,"seq":5,"event":"willEnterForeground"}
                {"ts":60.6,"seq":6,"event":"didBecomeActive"}
                {"ts":90,"seq":7,"event":"willResignActive"}
                {"ts":90.01,"seq":8,"event":"willTerminate"}
                {"ts":90.02,"seq":9,"event":"terminate","reason":"user"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.sceneResigning)
                ↓{"ts":30.1,"seq":5,"event":"snapshot","scene":"S1"}
                {"ts":30.2,"seq":6,"event":"scene.didEnterBackground","scene":"S1"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                ↓{"ts":60.2,"seq":4,"event":"snapshot"}
                {"ts":60.3,"seq":5,"event":"didEnterBackground","phase":"end"}
                {"ts":61,"seq":6,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.active)
                {"ts":60,"seq":2,"event":"willResignActive"}
                ↓{"ts":60.1,"seq":3,"event":"snapshot"}
                {"ts":60.2,"seq":4,"event":"didEnterBackground","phase":"begin"}
                {"ts":60.3,"seq":5,"event":"didEnterBackground","phase":"end"}
                {"ts":61,"seq":6,"event":"suspend"}
                """),
            Example("""
                \(ExampleTraces.leavingForeground)
                {"ts":60.2,"seq":4,"event":"didEnterBackground","phase":"end"}
                ↓{"ts":61,"seq":5,"event":"suspend"}
                """),
        ])
}
