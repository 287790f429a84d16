import Replay
import TraceDecode
import TraceModel
import TraceRead

/// One streamed replay's state (``Analyzer/stream(path:options:records:replayWorkers:grouped:devicesInMemory:progress:emit:reject:)``):
/// the totals, the sequence orderer, the devices seen, and what each line does to them.
///
/// A stream in any order cannot say when a device's log is over, so each device's replay is held
/// until the stream ends. Only the first `devicesInMemory` devices are replayed as their lines
/// come; the lines of any device after them go to a ``DeviceSpill`` on disk, and once the stream
/// ends and the devices held are finished, they are replayed device after device, each finished
/// before the next begins — the replay of each device is the same (its lines in their order), so
/// memory is bounded however many devices the stream holds, at the cost of writing those events
/// out and reading them back. A grouped stream holds one device at a time and spills nothing.
///
/// A class, its state in properties not checked for exclusivity at run time: as local variables
/// of the stream function, captured by the functions each line calls, every access of them was
/// checked (four checks an event, a twentieth of the calling thread's instructions by callgrind).
/// It is used by the calling thread alone, for one stream.
final class StreamRun {
    @exclusivity(unchecked) private(set) var totals = Analyzer.StreamTotals()
    @exclusivity(unchecked) private var devices = Set<String>()
    @exclusivity(unchecked) private var groups: DeviceGroups?
    @exclusivity(unchecked) private var returned: DeviceReturnedError?
    @exclusivity(unchecked) private var orderer = SequenceOrderer()
    /// After the orderer: a new launch's first event waits for the old launch's line written on
    /// its behalf (see ``LaunchHandover``).
    @exclusivity(unchecked) private var handover = LaunchHandover()
    @exclusivity(unchecked) private var launchApps: LaunchApps?
    @exclusivity(unchecked) private var emitError: (any Error)?
    @exclusivity(unchecked) private var lastEvent: (device: String, launch: String)?
    /// Findings of launches whose app or version `--app` asks for and the stream has not learnt yet:
    /// reported once a line names them and they match, dropped if they do not.
    @exclusivity(unchecked) private var heldFindings: [Finding] = []
    /// The latest event the stream carried (replayed or spilled): the one whose launch a stretch
    /// of damaged input after it may have cut short.
    @exclusivity(unchecked) private var lastTaken: (device: String, launch: String)?
    /// Ungrouped: the devices replayed as their lines come, and the events of the others.
    @exclusivity(unchecked) private var resident: ResidentDevices?
    @exclusivity(unchecked) private var spill = DeviceSpill()
    @exclusivity(unchecked) private var spillError: DeviceSpillError?
    /// The device of the stream's latest event when that event was spilled (nil when it went to
    /// the replay): the one a cut stream cut short.
    @exclusivity(unchecked) private var lastSpilled: String?
    /// Replaying the spilled devices, one after another (each counted as it begins).
    @exclusivity(unchecked) private var draining = false
    private let options: CheckOptions
    private let replayer: ParallelReplay
    private let progress: ((Analyzer.StreamProgress) -> Void)?
    private let emit: (Finding) throws -> Void
    private let reject: (_ line: Int, LineIssue) -> Void

    init(
        options: CheckOptions, replayer: ParallelReplay, grouped: Bool, devicesInMemory: Int,
        progress: ((Analyzer.StreamProgress) -> Void)? = nil, emit: @escaping (Finding) throws -> Void,
        reject: @escaping (_ line: Int, LineIssue) -> Void
    ) {
        self.options = options
        self.replayer = replayer
        self.progress = progress
        self.emit = emit
        self.reject = reject
        groups = grouped ? DeviceGroups() : nil
        resident = grouped ? nil : ResidentDevices(limit: devicesInMemory, selection: options.devices)
        launchApps = options.apps.isSet ? LaunchApps(options.apps) : nil
    }

    /// Takes one line of the stream; false to stop reading (the output failed, a grouped
    /// stream's device came back, or a spilled event could not be written).
    func take(_ line: DecodedLine) -> Bool {
        switch line {
        case .decoded(let number, let result):
            countLine()
            switch result {
            case .event(let event):
                totals.decoded += 1
                lastTaken = (event.device, event.launch)
                switch groups?.enter(event.device) {
                case nil, .same?: break
                case .next(let previous)?:
                    if let previous { finish(device: previous) }
                case .returned?:
                    returned = DeviceReturnedError(line: number, device: event.device)
                    return false
                }
                if resident?.admits(event.device) == false {
                    lastSpilled = event.device
                    do { try spill.append(event, line: number) } catch {
                        spillError = error
                        return false
                    }
                    return emitError == nil
                }
                lastSpilled = nil
                order(event)
            case .blank: totals.blankLines += 1
            case .reject(let issue):
                totals.rejects += 1
                totals.rejectsByReason[issue.reason.rawValue, default: 0] += 1
                reject(number, issue)
            }
        case .tooLong(let number, let bytes):
            countLine()
            totals.rejects += 1
            totals.rejectsByReason[RejectReason.lineTooLong.rawValue, default: 0] += 1
            reject(number, LineIssue(.lineTooLong, "line of \(bytes) bytes is too long"))
        case .damaged:
            // Lines were lost after the latest event: its launch may have logged more, as a store
            // says of a launch whose last event lies in a cut file.
            if let lastTaken { replayer.logWasCutShort(device: lastTaken.device, launch: lastTaken.launch, emit: report) }
        }
        return emitError == nil
    }

    private func countLine() {
        totals.lines += 1
        if totals.lines % Analyzer.StreamProgress.every == 0 { showProgress(spilledReplayed: nil) }
    }

    /// Ends the stream `reader` read: replays what the orderer still holds, says which launch a
    /// cut stream cut short, finishes every device, and returns the totals.
    func end(reader: LineReader) throws -> Analyzer.StreamTotals {
        if let returned { throw returned }
        if let spillError { throw spillError }
        totals.damage = reader.damage
        totals.lines += reader.lostLines
        if let emitError { throw emitError }
        flushOrdered()
        // The stream was cut (a compressed frame or the last line cut short): the launch of its
        // last event was the one logging when it was cut.
        if reader.cut != nil, lastSpilled == nil, let lastEvent {
            replayer.logWasCutShort(device: lastEvent.device, launch: lastEvent.launch, emit: report)
        }
        if spill.count > 0 { try replaySpilled(cut: reader.cut != nil ? lastSpilled : nil) }
        replayer.finishAll(emit: report)
        if let emitError { throw emitError }
        // Lines the orderer dropped as already replayed (a file uploaded twice, overlapping
        // uploads): decoded, not replayed.
        totals.duplicates += orderer.duplicates
        if groups == nil { totals.devices += devices.count }
        totals.appLaunches = launchApps?.selected ?? 0
        return totals
    }

    /// Replays the spilled devices, after finishing those held (in the order
    /// ``ParallelReplay/finishAll(emit:)`` would): each device's events in their order, the device
    /// finished when the next begins, and `cut` (the device of the stream's last event, when the
    /// stream was cut) said to be cut short at its last launch, as a stream held whole would say.
    private func replaySpilled(cut: String?) throws {
        for device in devices.sorted() { replayer.finish(device: device, emit: report) }
        draining = true
        var current: String?
        var replayed = 0
        try spill.drain { event in
            if event.device != current {
                if let current { finish(device: current, cutShort: current == cut) }
                current = event.device
            }
            order(event)
            if let emitError { throw emitError }
            replayed += 1
            if replayed % Analyzer.StreamProgress.every == 0 { showProgress(spilledReplayed: replayed) }
        }
        if let current { finish(device: current, cutShort: current == cut) }
    }

    /// A device whose lines are over, in a stream that says so: whatever the orderer holds is its,
    /// and is replayed; its last launch is said to be cut short if the stream's cut fell on it;
    /// then it is finished and its state freed.
    private func finish(device: String, cutShort: Bool = false) {
        flushOrdered()
        if cutShort, let lastEvent {
            replayer.logWasCutShort(device: device, launch: lastEvent.launch, emit: report)
        }
        replayer.finish(device: device, emit: report)
    }

    /// Puts `event` in its launch's place, and each launch after the lines of the one before.
    private func order(_ event: Event) {
        orderer.push(event) { handover.push($0, emit: replay) }
    }

    /// Replays what the orderer and the handover hold.
    private func flushOrdered() {
        orderer.flush { handover.push($0, emit: replay) }
        handover.flush(emit: replay)
    }

    private func replay(_ event: Event) {
        if case .only(let names) = options.devices, !names.contains(event.device) { return }
        // Hashed only when the device changes: most events follow one of the same device.
        // Grouped (or spilled), each change is a new device, and they are counted, not kept.
        if lastEvent?.device != event.device {
            if groups != nil || draining { totals.devices += 1 } else { devices.insert(event.device) }
        }
        lastEvent = (event.device, event.launch)
        launchApps?.see(event)
        if !heldFindings.isEmpty { releaseHeldFindings() }
        totals.events += 1
        if options.inWindow(event.ts) { totals.eventsInWindow += 1 }
        replayer.receive(copyOf: event, emit: report)
    }

    /// Where the stream is, to the progress line if there is one.
    private func showProgress(spilledReplayed: Int?) {
        progress?(Analyzer.StreamProgress(
            lines: totals.lines, events: totals.events, findings: totals.findings, spilled: spill.count,
            spilledReplayed: spilledReplayed))
    }

    private func report(_ finding: Finding) {
        guard emitError == nil, options.reports(finding) else { return }
        if let launchApps, !launchApps.takes(finding) {
            if launchApps.isUndecided(device: finding.device, launch: finding.launch) { heldFindings.append(finding) }
            return
        }
        deliver(finding)
    }

    /// Reports the held findings whose launch is now known to match, and drops those known not to.
    private func releaseHeldFindings() {
        guard let launchApps else { return }
        var stillHeld: [Finding] = []
        for finding in heldFindings {
            if launchApps.isUndecided(device: finding.device, launch: finding.launch) {
                stillHeld.append(finding)
            } else if launchApps.takes(finding) {
                deliver(finding)
            }
        }
        heldFindings = stillHeld
    }

    private func deliver(_ finding: Finding) {
        totals.findings += 1
        totals.findingsByRule[finding.rule, default: 0] += 1
        do { try emit(finding) } catch { emitError = error }
    }
}
