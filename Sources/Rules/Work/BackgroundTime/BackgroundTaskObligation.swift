import Replay
import TraceModel

extension Obligation {
    /// `beginBackgroundTask(withName:expirationHandler:)` must be matched by one
    /// `endBackgroundTask(_:)` of the same task, within the app's background time and before
    /// the app is suspended; after the expiration handler ran, within the expiration grace.
    static let backgroundTask = Obligation(
        opens: .beginBackgroundTask, closes: .endBackgroundTask, expires: .backgroundTaskExpired,
        key: .task, deadline: .backgroundTime, record: .backgroundTask,
        missing: Report(.backgroundTaskNotEnded) { breach in
            "Background task \(breach.opening?.task ?? 0)\(WorkText.name(of: breach.opening)) was never ended "
                + "\(WorkText.due(breach)), \(SecondsText.seconds(breach.seconds)) after it began; call "
                + "endBackgroundTask(_:) as soon as the work is done, or the system terminates the app."
        },
        overrun: [
            .backgroundTime: Report(.backgroundTaskOverrun) { breach in
                "Background task \(breach.opening?.task ?? 0)\(WorkText.name(of: breach.opening)) ended "
                    + "\(breach.secondsTexts.measured) after the app entered the background; its background "
                    + "time was \(breach.secondsTexts.budget). Finish sooner or end the task when "
                    + "backgroundTimeRemaining runs low, or the system terminates the app."
            }
        ],
        expired: Report(.backgroundTaskExpired) { breach in
            let task = "\(breach.opening?.task ?? 0)\(WorkText.name(of: breach.opening))"
            if breach.at.kind == .endBackgroundTask {
                return "Background task \(task) was ended \(breach.secondsTexts.measured) after its expiration "
                    + "handler ran; the grace is \(breach.secondsTexts.budget). Call "
                    + "endBackgroundTask(_:) from the expiration handler itself."
            }
            return "The expiration handler of background task \(task) ran and the task was still not ended "
                + "\(SecondsText.seconds(breach.seconds)) later, \(WorkText.due(breach)); call "
                + "endBackgroundTask(_:) from the expiration handler itself."
        },
        repeated: Report(.backgroundTaskEndUnknown) { breach in
            "Background task \(breach.at.task ?? 0) was ended twice; call endBackgroundTask(_:) once per task "
                + "and reset the saved identifier to .invalid after it."
        },
        unknown: Report(.backgroundTaskEndUnknown) { breach in
            "endBackgroundTask(_:) was called for task \(breach.at.task.map { "\($0)" } ?? "(none)"), which was "
                + "not begun in this launch; pass the identifier that beginBackgroundTask returned."
        })
}
