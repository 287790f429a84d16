import Replay
import TraceModel

/// Judges what the app still holds when it is suspended, or killed instead of suspended (a
/// `terminate` with reason `resource`): shared resources (`shared-resource-held-at-suspension`)
/// and listeners (`listener-open-at-suspension`).
///
/// Resources belong to one launch. Each hold is reported once, at the first suspension or resource
/// kill that finds it (one breach, one finding), and again only once it is acquired anew; a hold
/// reported at a suspension that is still held at a later resource kill is handed to the
/// termination check as still standing, so that the kill is explained by it.
///
/// Its state is not checked for exclusivity at run time, for the reason given at ``LaunchState``.
final class SharedResourceCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [.resourceAcquire, .resourceRelease, .suspend, .terminate],
        rules: [.sharedResourceHeldAtSuspension, .listenerOpenAtSuspension], make: { _ in SharedResourceCheck() })

    /// One resource the app holds.
    private struct Hold {
        /// The acquire the hold began with: acquiring a held resource again before it was reported
        /// leaves the hold as it was (it has been held since then).
        var acquired: ReplayEvent
        /// The order of acquisition, so that findings come in that order.
        var number: Int

        var isListener: Bool { acquired.resourceKind?.isListener ?? false }
    }

    /// The holds not reported yet, by resource id: all a suspension has to look at.
    @exclusivity(unchecked) private var unreported: [TextID: Hold] = [:]
    /// The holds reported and not released since, with their findings: a resource kill is
    /// explained by them.
    @exclusivity(unchecked) private var reported: [TextID: (hold: Hold, finding: Finding)] = [:]
    @exclusivity(unchecked) private var acquisitions = 0

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        if kind == .resourceAcquire {
            // A resource with no id cannot be paired with its release: it is passed over.
            guard let id = event.resource, unreported[id] == nil else { return }
            acquisitions += 1
            // A reported resource acquired again is a new hold, and a new breach if held at suspension.
            reported[id] = nil
            unreported[id] = Hold(acquired: event, number: acquisitions)
        } else if kind == .resourceRelease {
            guard let id = event.resource else { return }
            unreported[id] = nil
            reported[id] = nil
        } else if kind == .suspend {
            judge(at: event, killed: false, context: context)
        } else if kind == .terminate, event.reason == .resource, !context.launch.stateBefore.isForeground {
            judge(at: event, killed: true, context: context)
        }
    }

    override func clearForNextLaunch() -> Bool {
        unreported.removeAll()
        reported.removeAll()
        acquisitions = 0
        return true
    }

    /// Reports every hold not reported yet at `event`, a `suspend` or a resource kill (which judges
    /// shared resources only: a listener is a matter of suspension, and is left as it is).
    private func judge(at event: ReplayEvent, killed: Bool, context: ReplayContext) {
        if killed {
            // Reported at an earlier suspension and held ever since: the same breach, now the cause
            // of the kill.
            for (hold, finding) in reported.values.sorted(by: { $0.hold.number < $1.hold.number }) where !hold.isListener {
                context.stillExplains(finding, at: event, detail: ResourceText(hold.acquired, at: event, context: context).detail)
            }
        }
        for (id, hold) in unreported.sorted(by: { $0.value.number < $1.value.number }) where !killed || !hold.isListener {
            let resource = ResourceText(hold.acquired, at: event, context: context)
            let message = hold.isListener ? resource.listenerMessage : killed ? resource.killMessage : resource.suspensionMessage
            let finding = context.report(
                hold.isListener ? .listenerOpenAtSuspension : .sharedResourceHeldAtSuspension, at: event,
                events: [hold.acquired, event], message: message, measured: resource.seconds, detail: resource.detail)
            unreported[id] = nil
            reported[id] = (hold, finding)
        }
    }
}

/// The sentences about one held resource, made only when a finding is written.
private struct ResourceText {
    let acquired: ResolvedEvent
    let at: ReplayEvent
    /// Seconds from the acquire to `at`.
    let seconds: Double
    let kind: ResourceKind?

    init(_ acquired: ReplayEvent, at event: ReplayEvent, context: ReplayContext) {
        self.acquired = context.resolved(acquired)
        at = event
        seconds = context.seconds(from: acquired, to: event)
        kind = acquired.resourceKind
    }

    /// `database "group.x/articles.sqlite"`, `resource "x" (kind "gps")`.
    var what: String {
        let id = "\"\(acquired.resource ?? "")\""
        return switch kind {
        case .fileLock?: "file lock \(id)"
        case .database?: "database \(id)"
        case .camera?: "camera \(id)"
        case .microphone?: "microphone \(id)"
        case .bonjour?: "Bonjour service \(id)"
        case .socket?: "listening socket \(id)"
        case .other?: "resource \(id) (kind \"\(acquired.resourceKind ?? "")\")"
        case nil: "resource \(id) (kind not logged)"
        }
    }

    /// Since when, and how long by `at`.
    private var held: String { "acquired at \(acquired.ts), \(SecondsText.seconds(seconds)) before" }

    /// For the sentence of a kill this hold explains.
    var detail: String {
        "\(what) held since \(acquired.ts) (\(SecondsText.seconds(seconds)) when the app was "
            + (at.kind == .suspend ? "suspended)" : "killed)")
    }

    /// What to do with it, as an imperative.
    private var release: String {
        switch kind {
        case .fileLock?: "Unlock the file"
        case .database?: "Finish or roll back its transactions and close it"
        case .camera?, .microphone?: "Stop the capture session"
        case .bonjour?, .socket?, .other?, nil: "Release it"
        }
    }

    private var when: String {
        "before the app can be suspended: in applicationDidEnterBackground(_:), or, for work protected by "
            + "beginBackgroundTask(withName:expirationHandler:), as soon as the work ends and before ending the task."
    }

    var suspensionMessage: String {
        "The app was suspended at \(at.ts) while it still held \(what) (\(held)); when an app that holds a "
            + "shared resource would be suspended, the system terminates it instead (0xdead10cc). \(release) \(when)"
    }

    var killMessage: String {
        "The system terminated the app at \(at.ts) (reason resource) instead of suspending it: it still held "
            + "\(what) (\(held)). \(release) \(when)"
    }

    var listenerMessage: String {
        let close = kind == .bonjour ? "Unregister the Bonjour service" : "Close the listening socket"
        return "The app was suspended at \(at.ts) with \(what) still open (since \(acquired.ts), "
            + "\(SecondsText.seconds(seconds))); a suspended app cannot answer requests. \(close) in "
            + "applicationDidEnterBackground(_:), and open it again when the app returns to the foreground."
    }
}
