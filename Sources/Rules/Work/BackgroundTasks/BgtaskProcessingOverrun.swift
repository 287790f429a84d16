import Replay

extension Rule {
    static let bgtaskProcessingOverrun = Rule(
        id: "bgtask-processing-overrun",
        category: .overrun, severity: .error,
        summary: "A BGProcessingTask must call setTaskCompleted within the processing-task budget.",
        source: """
            WWDC 2019 'Advances in App Background Execution', on Background Processing (https://developer.apple.com/videos/play/wwdc2019/707/): "Background processing tasks give your app several minutes \
            runtime to do maintenance work"; Apple, 'Choosing Background Strategies for Your App', 'Update Your App's Content' (https://developer.apple.com/documentation/backgroundtasks/choosing-background-strategies-for-your-app): "call \
            setTaskCompleted(success:), or the system terminates your app."
            """,
        notes: """
            Not documented by Apple as a number: Apple says "several minutes". The `processing-task` budget \
            (600 s, strictly exceeded) is Lifeline's pick; set it to what you observe. Measured from \
            `bgtask.launch` to `bgtask.complete` (`mono` when both carry it). A task is a processing task when \
            the latest `bgtask.submit` of its identifier on the device has `type` processing. With no submit \
            of it in the log, this rule judges it unless the launch's `background_modes` has "fetch" and not \
            "processing": of the two budgets this one is the larger, so a finding holds whatever the type.
            """,
        budget: .processingTask, explainsTermination: true,
        passing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.cleanup"))
                {"ts":2,"seq":12,"event":"power","low_power_mode":false,"battery":0.8,"charging":true}
                {"ts":421,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":421.1,"seq":14,"event":"snapshot"}
                {"ts":421.5,"seq":15,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.cleanup"))
                {"ts":2,"seq":12,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true}
                ↓{"ts":713.5,"seq":13,"event":"bgtask.complete","task":1,"success":true}
                {"ts":713.6,"seq":14,"event":"snapshot"}
                {"ts":714,"seq":15,"event":"suspend"}
                """),
            // No submit of it in the log and an Info.plist allowing both types: the larger budget.
            Example("""
                \(ExampleTraces.bgtaskLaunched("com.example.cleanup"))
                ↓{"ts":701,"seq":12,"event":"bgtask.complete","task":1,"success":true}
                {"ts":701.1,"seq":13,"event":"snapshot"}
                {"ts":701.5,"seq":14,"event":"suspend"}
                """),
        ])
}
