import Replay
import TraceModel

/// `foreground-to-background-sequence` for each scene of a scene-based launch (rules.md,
/// "Scenes"): `scene.willResignActive` → `scene.didEnterBackground` → `snapshot` of that scene →
/// maybe `suspend`, the scene's own copy of the app delegate's sequence. A `snapshot` without a
/// `scene` belongs to the scenes that entered the background last.
///
/// A sequence starts at `scene.willResignActive`, or at `scene.didEnterBackground` from
/// foreground-inactive; it ends without a finding at the scene's snapshot, when the scene comes
/// back (`scene.didBecomeActive`, `scene.willEnterForeground`), is released, or the process
/// ends. A snapshot before the call began or returned, or a `suspend` before the snapshot, breaks
/// it: one finding per scene and sequence. An event the life cycle found illegal abandons the
/// scene's sequence (its finding is that rule's).
///
/// Its state is not checked for exclusivity at run time, for the reason given at ``LaunchState``.
final class SceneSequenceCheck: Check {
    static let blueprint = CheckBlueprint(
        scope: .launch,
        interests: [
            .sceneWillResignActive, .sceneDidBecomeActive, .sceneWillEnterForeground, .sceneDidEnterBackground,
            .sceneDidDisconnect, .snapshot, .suspend, .terminate,
        ],
        rules: [.foregroundToBackgroundSequence]
    ) { _ in SceneSequenceCheck() }

    private enum Step {
        case awaitingDidEnterBackground, inDidEnterBackground, awaitingSnapshot
    }

    private struct Sequence {
        var start: ReplayEvent
        var step: Step
        var didEnterBackgroundBegin: ReplayEvent?
        /// Reported at a step that came too early: it runs to its end and reports nothing more.
        var reported = false
    }

    /// The sequence under way for each scene, in the order they started.
    @exclusivity(unchecked) private var sequences: [(scene: TextID, sequence: Sequence)] = []
    /// The scenes that entered the background last: a snapshot with no scene is theirs.
    @exclusivity(unchecked) private var enteredLast: [TextID] = []
    @exclusivity(unchecked) private var snapshotSinceEntered = true

    override func clearForNextLaunch() -> Bool {
        sequences.removeAll()
        enteredLast.removeAll()
        snapshotSinceEntered = true
        return true
    }

    override func receive(_ event: ReplayEvent, kind: EventKind, context: ReplayContext) {
        let launch = context.launch
        let scene = event.scene ?? .empty
        if launch.lifecycleBreach {
            if kind.isSceneEvent { remove(scene) } else if kind == .terminate { sequences.removeAll() }
            return
        }
        switch kind {
        case .sceneWillResignActive:
            remove(scene)
            sequences.append((scene, Sequence(start: event, step: .awaitingDidEnterBackground)))
        case .sceneDidBecomeActive, .sceneWillEnterForeground, .sceneDidDisconnect:
            remove(scene)
        case .sceneDidEnterBackground:
            didEnterBackground(event, scene: scene, launch: launch)
        case .snapshot:
            let scenes = event.scene.map { [$0] } ?? enteredLast
            snapshotSinceEntered = true
            for scene in scenes {
                guard let index = index(of: scene) else { continue }
                if sequences[index].sequence.step == .awaitingSnapshot {
                    sequences.remove(at: index)
                } else {
                    breach(at: index, event, context: context, early: true)
                }
            }
        case .suspend:
            while !sequences.isEmpty { breach(at: 0, event, context: context, early: false) }
        case .terminate:
            sequences.removeAll()
        case .launch, .willFinishLaunching, .restoreState, .didFinishLaunching, .didBecomeActive,
             .willResignActive, .didEnterBackground, .willEnterForeground, .willTerminate, .memoryWarning, .resume,
             .beginBackgroundTask, .endBackgroundTask, .backgroundTaskExpired, .backgroundTimeRemaining,
             .expiringActivity, .config, .bgtaskRegister, .bgtaskSubmit, .bgtaskCancel, .bgtaskLaunch,
             .bgtaskExpire, .bgtaskComplete, .fetchSetMinimumInterval, .fetchPerform, .fetchComplete, .pushReceive,
             .pushComplete, .urlsessionCreate, .urlsessionHandleEvents, .urlsessionDidFinishEvents,
             .urlsessionComplete, .nseReceive, .nseTimeWillExpire, .nseContentHandler, .locationUpdate, .power,
             .refreshStatus, .network, .sceneWillConnect, .resourceAcquire, .resourceRelease,
             .urlsessionTaskCreate, .urlsessionWillBeginDelayedRequest, .urlsessionDelayedRequestComplete,
             .urlsessionTaskComplete, .other:
            break
        }
    }

    private func didEnterBackground(_ event: ReplayEvent, scene: TextID, launch: LaunchState) {
        if event.phase == .end {
            if let index = index(of: scene), sequences[index].sequence.step == .inDidEnterBackground {
                sequences[index].sequence.step = .awaitingSnapshot
            }
            return
        }
        if snapshotSinceEntered {
            enteredLast.removeAll()
            snapshotSinceEntered = false
        }
        enteredLast.append(scene)
        let step: Step = event.phase == .begin ? .inDidEnterBackground : .awaitingSnapshot
        if let index = index(of: scene) {
            guard sequences[index].sequence.step == .awaitingDidEnterBackground else { return }
            sequences[index].sequence.step = step
            sequences[index].sequence.didEnterBackgroundBegin = event
        } else if launch.scenes.lastMoveFrom == .foregroundInactive {
            // From foreground-inactive without willResignActive (before the scene became active).
            sequences.append((scene, Sequence(start: event, step: step, didEnterBackgroundBegin: event)))
        }
    }

    private func index(of scene: TextID) -> Int? {
        sequences.firstIndex { $0.scene == scene }
    }

    private func remove(_ scene: TextID) {
        sequences.removeAll { $0.scene == scene }
    }

    /// Reports the sequence at `index` broken at `event`: a step that came `early` keeps the
    /// sequence going; any other breach ends it.
    private func breach(at index: Int, _ event: ReplayEvent, context: ReplayContext, early: Bool) {
        let (scene, sequence) = sequences[index]
        if early { sequences[index].sequence.reported = true } else { sequences.remove(at: index) }
        guard !sequence.reported else { return }
        var events = [sequence.start]
        if let begin = sequence.didEnterBackgroundBegin, begin != sequence.start { events.append(begin) }
        events.append(event)
        let name = scene == .empty ? "the scene" : "scene \(context.device.texts[scene])"
        let came = "\(context.resolved(event).name) at \(event.ts)"
        let message: String = switch (sequence.step, kind: event.kind) {
        case (.awaitingDidEnterBackground, .snapshot):
            "\(came) came before \(name)'s didEnterBackground (it resigned active at \(sequence.start.ts)); hide "
                + "sensitive UI in sceneDidEnterBackground(_:) — UIKit calls it before the system snapshots the scene."
        case (.inDidEnterBackground, .snapshot):
            "\(came) came before \(name)'s sceneDidEnterBackground(_:) (begun at "
                + "\(sequence.didEnterBackgroundBegin?.ts.description ?? "?")) returned; finish UI cleanup there and "
                + "return promptly — the system snapshots the scene right after it returns."
        case (.awaitingDidEnterBackground, _):
            "\(came) came before \(name)'s didEnterBackground (it resigned active at \(sequence.start.ts)); the scene "
                + "never got sceneDidEnterBackground(_:) to save its state — check that the callback is logged."
        case (.inDidEnterBackground, _):
            "\(came) came while \(name)'s sceneDidEnterBackground(_:) (begun at "
                + "\(sequence.didEnterBackgroundBegin?.ts.description ?? "?")) had not returned; return from it "
                + "promptly and move longer work into a background task."
        case (.awaitingSnapshot, _):
            "\(came) came before \(name)'s snapshot after it entered the background; the system snapshots each "
                + "scene after sceneDidEnterBackground(_:) returns — check that the app was not suspended mid-sequence."
        }
        context.report(.foregroundToBackgroundSequence, at: event, events: events, message: message)
    }
}
