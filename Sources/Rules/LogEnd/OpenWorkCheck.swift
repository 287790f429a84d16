import Replay
import TraceModel

/// Reports the work a launch left open when its log ended without a `terminate`
/// (`log-ended-with-open-work`): one finding per launch, at its last event.
///
/// Runs after every check that tracks work, so that each has handed what it had open to
/// ``LaunchState/openWork`` when the launch ended.
final class OpenWorkCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch, interests: [], runsOnExtensions: true, rules: [.logEndedWithOpenWork],
        make: { _ in OpenWorkCheck() })

    /// Nothing is kept between events.
    override func clearForNextLaunch() -> Bool { true }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {}

    override func launchEnded(_ ending: LaunchEnding, context: ReplayContext) {
        let launch = context.launch
        guard ending.isEndOfLogOnly, !launch.openWork.isEmpty else { return }
        let last = launch.lastEvent
        let how: String = switch ending {
        case .superseded(let next): "a new launch began at \(next.ts) with no terminate logged for this one"
        case .endOfLog, .terminated: "the device logged nothing more"
        }
        let cut = launch.logCutShort ? "; the file holding its last event was cut short" : ""
        let work = launch.openWork.map {
            "\($0.what) (open since \($0.opening.ts), \(SecondsText.seconds($0.openSeconds)))"
        }
        context.report(
            .logEndedWithOpenWork, at: last, events: launch.openWork.map(\.opening) + [last],
            message: "The log of this launch ended at \(last.ts) (\(how)\(cut)) with work still open: "
                + work.joined(separator: "; ") + ". The log cannot say whether it finished; look at what the "
                + "app did next, not for a missed completion.",
            measured: launch.openWork.map(\.openSeconds).max())
        launch.openWork.removeAll()
    }
}
