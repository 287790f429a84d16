import Replay
import TraceModel

/// Judges where `beginBackgroundTask` is called: never from an extension, and not first inside
/// `didEnterBackground`.
final class BackgroundTaskBeginCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [.beginBackgroundTask], runsOnExtensions: true,
        rules: [.backgroundTaskBegunLate, .backgroundTaskInExtension],
        make: { _ in BackgroundTaskBeginCheck() })

    private var begunBefore = false

    override func clearForNextLaunch() -> Bool {
        begunBefore = false
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if context.launch.isExtension {
            context.report(
                .backgroundTaskInExtension, at: event, events: [event],
                message: "Extension \(context.launch.process ?? "") called beginBackgroundTask (task "
                    + "\(event.task.map { "\($0)" } ?? "?")), which app extensions can't call; use "
                    + "ProcessInfo.performExpiringActivity(withReason:using:) for extra time.")
            return
        }
        defer { begunBefore = true }
        guard !begunBefore, let inside = context.launch.didEnterBackgroundBegin else { return }
        context.report(
            .backgroundTaskBegunLate, at: event, events: [inside, event],
            message: "The launch's first background task (\(event.task.map { "\($0)" } ?? "?")"
                + "\(WorkText.name(of: context.resolved(event)))) began \(SecondsText.seconds(context.seconds(from: inside, to: event))) "
                + "into didEnterBackground; begin it before starting the work it protects, while the app is "
                + "still in the foreground.")
    }
}
