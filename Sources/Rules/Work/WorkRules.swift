import Replay
import TraceModel

/// The rules about work an app does outside the foreground life cycle: extra background time
/// (`beginBackgroundTask`), the BackgroundTasks framework, completion handlers, the scheduling of
/// background URL session tasks, and requests the system never got round to running.
///
/// Pair rules (an opening and its discharge) are ``Obligation`` declarations; the others are
/// small checks. Every check here reads the ``LaunchState`` the lifecycle check keeps.
public enum WorkRules {
    public static var blueprints: [CheckBlueprint] {
        [
            Obligation.backgroundTask.blueprint,
            BackgroundTaskBeginCheck.blueprint,
            Obligation.bgtask.blueprint,
            TaskSchedulerCheck.blueprint,
            PendingRequestsCheck.blueprint,
            // After PendingRequestsCheck: it reads which submits the pending requests took.
            RequestRecordCheck.blueprint,
            Obligation.fetch.blueprint,
            Obligation.push.blueprint,
            BackgroundPushCheck.blueprint,
            Obligation.urlSessionEvents.blueprint,
            URLSessionRecreationCheck.blueprint,
            Obligation.notificationService.blueprint,
            Obligation.delayedRequest.blueprint,
            URLSessionTaskCheck.blueprint,
            // After PendingRequestsCheck: it reads which submits the pending requests took.
            NeverRanCheck.blueprint,
        ]
    }
}

/// Formatting shared by the messages of the work rules.
enum WorkText {
    /// How the launch ended, for a discharge that never came: "before the app was suspended".
    static func due(_ breach: Obligation.Breach) -> String {
        switch breach.ending {
        case nil: "before the app was suspended"
        case .terminated?: "before the process was terminated"
        case .superseded?: "before the process ended (a new launch began)"
        case .endOfLog?: "by the end of the log"
        }
    }

    /// `"name"` of an event's `name` attribute, with a leading space, or nothing.
    static func name(of event: ResolvedEvent?) -> String {
        guard let name = event?.backgroundTaskName else { return "" }
        return " \"\(name)\""
    }
}
