import Replay

extension Rule {
    static let bgtaskTooManyPending = Rule(
        id: "bgtask-too-many-pending",
        category: .violation, severity: .error,
        summary: "At most 1 refresh and 10 processing task requests may be pending on a device.",
        source: """
            Apple, 'Using background tasks to update your app' (https://developer.apple.com/documentation/uikit/app_and_environment/scenes/preparing_your_ui_to_run_in_the_background/using_background_tasks_to_update_your_app) (submit(_:)): "Submitting a task request for \
            an unexecuted task that's already in the queue replaces the previous task request. There can be a \
            total of 1 refresh task and 10 processing tasks scheduled at any time. Trying to schedule more \
            tasks returns BGTaskScheduler.Error.Code.tooManyPendingTaskRequests."
            """,
        notes: """
            Pending requests are counted per device across launches: a submit that carries an `error` \
            scheduled nothing; a resubmit of a pending identifier replaces it; `bgtask.launch` consumes the \
            request of its identifier; `bgtask.cancel` removes one (no identifier: all). The finding is the \
            submit whose acceptance would exceed the limit; it is not counted as pending (the system refuses \
            it), so each later attempt is judged on its own. A submit that logged the error \
            tooManyPendingTaskRequests is a finding too, whatever this log counted: it is the system's own \
            word that the limit was hit and the request will never run (earlier submits may predate the log). \
            An error because the request is dropped and its work silently never happens. Extensions' submits \
            are counted but not judged.
            """,
        passing: [
            // A resubmit replaces, a submit that threw scheduled nothing, a run consumes its request.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":10.12,"seq":13,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                {"ts":10.13,"seq":14,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh","error":"unavailable"}
                {"ts":10.14,"seq":15,"event":"bgtask.submit","identifier":"com.example.cleanup","type":"processing","requires_power":true}
                {"ts":10.2,"seq":16,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":17,"event":"snapshot"}
                {"ts":10.5,"seq":18,"event":"suspend"}
                {"ts":900,"seq":19,"event":"resume","reason":"system","cause":"bgtask"}
                {"ts":900.1,"seq":20,"event":"didEnterBackground","phase":"begin"}
                {"ts":900.2,"seq":21,"event":"didEnterBackground","phase":"end"}
                {"ts":901,"seq":22,"event":"bgtask.launch","identifier":"com.example.refresh","task":1}
                {"ts":902,"seq":23,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh"}
                {"ts":905,"seq":24,"event":"bgtask.complete","task":1,"success":true}
                {"ts":905.1,"seq":25,"event":"snapshot"}
                {"ts":905.5,"seq":26,"event":"suspend"}
                """),
        ],
        failing: [
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                ↓{"ts":10.12,"seq":13,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh"}
                {"ts":10.2,"seq":14,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":15,"event":"snapshot"}
                {"ts":10.5,"seq":16,"event":"suspend"}
                """),
            // The system refused it: the logged error is the finding.
            Example("""
                \(ExampleTraces.userLaunchLeavingForeground())
                {"ts":10.11,"seq":12,"event":"bgtask.submit","identifier":"com.example.refresh","type":"refresh"}
                ↓{"ts":10.12,"seq":13,"event":"bgtask.submit","identifier":"com.example.digest","type":"refresh","error":"tooManyPendingTaskRequests"}
                {"ts":10.2,"seq":14,"event":"didEnterBackground","phase":"end"}
                {"ts":10.3,"seq":15,"event":"snapshot"}
                {"ts":10.5,"seq":16,"event":"suspend"}
                """),
        ])
}
