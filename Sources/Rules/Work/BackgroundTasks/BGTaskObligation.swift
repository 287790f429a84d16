import Replay
import TraceModel

extension Obligation {
    /// A task the system launched (`bgtask.launch`) must be completed with one
    /// `setTaskCompleted(success:)` within its type's budget, before the app is suspended, and
    /// within the expiration grace once its expiration handler ran.
    static let bgtask = Obligation(
        opens: .bgtaskLaunch, closes: .bgtaskComplete, expires: .bgtaskExpire, key: .task,
        deadline: .chosen(BGTaskBudget.pick), record: .bgtask,
        missing: Report(.bgtaskNotCompleted) { breach in
            "Task \(BGTaskBudget.describe(breach.opening)) was never completed \(WorkText.due(breach)), "
                + "\(SecondsText.seconds(breach.seconds)) after it was launched; call setTaskCompleted(success:) when "
                + "its work ends and from its expiration handler, or the system terminates the app."
        },
        overrun: [
            .refreshTask: Report(.bgtaskRefreshOverrun) { breach in
                "BGAppRefreshTask \(breach.opening?.identifier ?? "?") ran \(breach.secondsTexts.measured); the "
                    + "budget is \(breach.secondsTexts.budget). Call setTaskCompleted(success:) before "
                    + "the budget ends or the system terminates the app."
            },
            .processingTask: Report(.bgtaskProcessingOverrun) { breach in
                "BGProcessingTask \(breach.opening?.identifier ?? "?") ran \(breach.secondsTexts.measured); the "
                    + "budget is \(breach.secondsTexts.budget) (Lifeline's value: Apple documents only "
                    + "\"several minutes\"). Checkpoint the work and call setTaskCompleted(success:) sooner, or "
                    + "the system may terminate the app."
            },
        ],
        expired: Report(.bgtaskExpired) { breach in
            let task = BGTaskBudget.describe(breach.opening)
            if breach.at.kind == .bgtaskComplete {
                return "Task \(task) was completed \(breach.secondsTexts.measured) after its expiration handler "
                    + "ran; the grace is \(breach.secondsTexts.budget). Call "
                    + "setTaskCompleted(success: false) from the expiration handler itself."
            }
            return "The expiration handler of task \(task) ran and the task was still not completed "
                + "\(SecondsText.seconds(breach.seconds)) later, \(WorkText.due(breach)); call "
                + "setTaskCompleted(success: false) from the expiration handler itself."
        },
        repeated: Report(.bgtaskCompleteTwice) { breach in
            "setTaskCompleted(success:) was called again for task \(breach.at.task.map { "\($0)" } ?? "?"); "
                + "call it exactly once per task, from whichever path finishes first."
        })
}

/// How a launched BGTask's budget is picked: by its type.
enum BGTaskBudget {
    /// The type of the latest submit of the task's identifier on the device (known by the time
    /// the task is measured). Unknown: the Info.plist decides when its background modes allow
    /// only one type ("fetch" for refresh, "processing" for processing); else the processing
    /// budget, the larger, so that whatever the type a finding is certain.
    @Sendable static func pick(_ launch: ReplayEvent, _ context: ReplayContext) -> BudgetName? {
        if let identifier = launch.identifier,
           let kind = context.device.store(TaskRequestStore.self).kinds[identifier] {
            return kind.budget
        }
        let modes = context.launch.backgroundModes ?? []
        if modes.contains("fetch"), !modes.contains("processing") { return .refreshTask }
        return .processingTask
    }

    /// `com.example.refresh (task 3)`.
    static func describe(_ launch: ResolvedEvent?) -> String {
        "\(launch?.identifier ?? "?") (task \(launch?.task.map { "\($0)" } ?? "?"))"
    }
}
