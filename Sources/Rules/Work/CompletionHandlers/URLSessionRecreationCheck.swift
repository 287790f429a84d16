import Replay
import TraceModel

/// Judges that a launch recreates a background URL session before it handles that session's
/// events.
final class URLSessionRecreationCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [.urlsessionCreate, .urlsessionHandleEvents],
        rules: [.urlsessionNotRecreated], make: { _ in URLSessionRecreationCheck() })

    /// Session identifiers created in this launch, and those already reported.
    private var created: Set<TextID> = []

    override func clearForNextLaunch() -> Bool {
        created.removeAll()
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        guard let identifier = event.identifier else { return }
        guard kind == .urlsessionHandleEvents else {
            created.insert(identifier)
            return
        }
        // Only a launch replayed from its start shows every session it created.
        guard context.launch.firstEvent.kind == .launch,
              created.insert(identifier).inserted
        else { return }
        context.report(
            .urlsessionNotRecreated, at: event, events: [context.launch.firstEvent, event],
            message: "The app handled events of background session \(context.resolved(event).identifier ?? "") before recreating it in this "
                + "launch; create the URLSession with that identifier during launch, so the system can "
                + "reassociate its tasks and deliver their delegate calls.")
    }
}
