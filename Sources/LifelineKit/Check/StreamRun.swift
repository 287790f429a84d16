import Replay
import TraceDecode
import TraceModel
import TraceRead

/// One streamed replay's state (``Analyzer/stream(path:options:records:replayWorkers:grouped:emit:reject:)``):
/// the totals, the sequence orderer, the devices seen, and what each line does to them.
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
    @exclusivity(unchecked) private var launchApps: LaunchApps?
    @exclusivity(unchecked) private var emitError: (any Error)?
    @exclusivity(unchecked) private var lastEvent: (device: String, launch: String)?
    private let options: CheckOptions
    private let replayer: ParallelReplay
    private let emit: (Finding) throws -> Void
    private let reject: (_ line: Int, LineIssue) -> Void

    init(
        options: CheckOptions, replayer: ParallelReplay, grouped: Bool, emit: @escaping (Finding) throws -> Void,
        reject: @escaping (_ line: Int, LineIssue) -> Void
    ) {
        self.options = options
        self.replayer = replayer
        self.emit = emit
        self.reject = reject
        groups = grouped ? DeviceGroups() : nil
        launchApps = options.apps.isSet ? LaunchApps(options.apps) : nil
    }

    /// Takes one line of the stream; false to stop reading (the output failed, or a grouped
    /// stream's device came back).
    func take(_ line: DecodedLine) -> Bool {
        totals.lines += 1
        switch line {
        case .decoded(let number, let result):
            switch result {
            case .event(let event):
                totals.decoded += 1
                switch groups?.enter(event.device) {
                case nil, .same?: break
                case .next(let previous)?:
                    // Whatever the orderer holds is the previous device's: its log is over.
                    orderer.flush(emit: replay)
                    if let previous { replayer.finish(device: previous, emit: report) }
                case .returned?:
                    returned = DeviceReturnedError(line: number, device: event.device)
                    return false
                }
                orderer.push(event, emit: replay)
            case .blank: totals.blankLines += 1
            case .reject(let issue):
                totals.rejects += 1
                totals.rejectsByReason[issue.reason.rawValue, default: 0] += 1
                reject(number, issue)
            }
        case .tooLong(let number, let bytes):
            totals.rejects += 1
            totals.rejectsByReason[RejectReason.lineTooLong.rawValue, default: 0] += 1
            reject(number, LineIssue(.lineTooLong, "line of \(bytes) bytes is too long"))
        }
        return emitError == nil
    }

    /// Ends the stream `reader` read: replays what the orderer still holds, says which launch a
    /// cut stream cut short, finishes every device, and returns the totals.
    func end(reader: LineReader) throws -> Analyzer.StreamTotals {
        if let returned { throw returned }
        totals.damage = reader.damage
        totals.lines += reader.lostLines
        if let emitError { throw emitError }
        orderer.flush(emit: replay)
        // The stream was cut (a compressed frame or the last line cut short): the launch of its
        // last event was the one logging when it was cut.
        if reader.cut != nil, let lastEvent {
            replayer.logWasCutShort(device: lastEvent.device, launch: lastEvent.launch, emit: report)
        }
        replayer.finishAll(emit: report)
        if let emitError { throw emitError }
        if groups == nil { totals.devices = devices.count }
        totals.appLaunches = launchApps?.selected ?? 0
        return totals
    }

    private func replay(_ event: Event) {
        if case .only(let names) = options.devices, !names.contains(event.device) { return }
        // Hashed only when the device changes: most events follow one of the same device.
        // Grouped, each change is a new device, and they are counted, not kept.
        if lastEvent?.device != event.device {
            if groups != nil { totals.devices += 1 } else { devices.insert(event.device) }
        }
        lastEvent = (event.device, event.launch)
        launchApps?.see(event)
        totals.events += 1
        replayer.receive(copyOf: event, emit: report)
    }

    private func report(_ finding: Finding) {
        guard emitError == nil, options.reports(finding), launchApps?.takes(finding) ?? true else { return }
        totals.findings += 1
        totals.findingsByRule[finding.rule, default: 0] += 1
        do { try emit(finding) } catch { emitError = error }
    }
}
