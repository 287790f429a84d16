import TraceModel

/// Replays events of any number of devices: each device's events must come in order (see
/// ``SequenceOrderer`` for logs that are not), but devices may interleave.
///
/// Knows no database and no files: feed it events from SQLite, from standard input or from an
/// array, and it hands back findings as they become evident.
public final class Replayer {
    private let book: RuleBook
    private let configuration: ReplayConfiguration
    private var devices: [String: DeviceReplayer] = [:]
    private var last: DeviceReplayer?
    /// Cuts said of devices not seen yet, handed over when their first event comes.
    private var cuts: [String: [String?]] = [:]

    /// Where derived records go, shared by every device's replay (nil: none are made).
    private let records: RecordSink?

    /// `records` receives the derived records (``DerivedRecord``) as their subjects finish; with
    /// none, the replay makes none.
    public init(
        book: RuleBook, configuration: ReplayConfiguration = ReplayConfiguration(),
        records: (any DerivedRecordSink)? = nil
    ) {
        self.book = book
        self.configuration = configuration
        self.records = records.map(RecordSink.init)
    }

    /// A replay whose derived records go to `records`, one ``DerivedRecord`` at a time.
    public convenience init(
        book: RuleBook, configuration: ReplayConfiguration = ReplayConfiguration(),
        records: @escaping (DerivedRecord) -> Void
    ) {
        self.init(book: book, configuration: configuration, records: DerivedRecordClosure(records))
    }

    public func receive(_ event: borrowing Event, emit: (Finding) -> Void) {
        deviceReplayer(event.device).receive(event, emit: emit)
    }

    /// Replays a batch of events made compact by their reader (see ``CompactBatch``). A device's
    /// events come either all as batches or all as ``Event``s.
    public func receive(_ batch: CompactBatch, emit: (Finding) -> Void) {
        deviceReplayer(batch.device).receive(batch, emit: emit)
    }

    /// Inlined for the common case, an event of the same device as the one before.
    @inline(__always)
    private func deviceReplayer(_ device: String) -> DeviceReplayer {
        if let last, last.device == device { return last }
        return lookUp(device)
    }

    @inline(never)
    private func lookUp(_ device: String) -> DeviceReplayer {
        let replayer: DeviceReplayer
        if let known = devices[device] {
            replayer = known
        } else {
            replayer = DeviceReplayer(device: device, book: book, configuration: configuration, records: records)
            for launch in cuts.removeValue(forKey: device) ?? [] { replayer.logWasCutShort(launch: launch) }
            devices[device] = replayer
        }
        last = replayer
        return replayer
    }

    /// Says that the log holding the last event of `launch` of `device` was cut short (a file
    /// truncated mid-write, a stream that ended mid-line); with no launch, the device's log, so
    /// every launch still open when it ends. The replay knows no files: its caller does. Work
    /// left open by such a launch is reported as cut short (`log-ended-with-open-work`).
    public func logWasCutShort(device: String, launch: String? = nil) {
        if let replayer = devices[device] {
            replayer.logWasCutShort(launch: launch)
        } else {
            cuts[device, default: []].append(launch)
        }
    }

    /// Ends one device's log (its open launches are closed) and frees its state.
    public func finish(device: String, emit: (Finding) -> Void) {
        guard let replayer = devices.removeValue(forKey: device) else { return }
        if last === replayer { last = nil }
        replayer.finish(emit: emit)
    }

    /// Ends every device's log, in device order (``openDevices``).
    public func finishAll(emit: (Finding) -> Void) {
        for device in openDevices { finish(device: device, emit: emit) }
    }

    /// The devices replayed and not finished yet, in the order ``finishAll(emit:)`` ends them.
    public var openDevices: [String] { devices.keys.sorted() }

    /// Replays a whole array of events (in order) and returns every finding.
    public static func findings(
        in events: [Event], book: RuleBook, configuration: ReplayConfiguration = ReplayConfiguration(),
        cutShort devices: Set<String> = []
    ) -> [Finding] {
        var findings: [Finding] = []
        let replayer = Replayer(book: book, configuration: configuration)
        for device in devices { replayer.logWasCutShort(device: device) }
        for event in events { replayer.receive(event) { findings.append($0) } }
        replayer.finishAll { findings.append($0) }
        return findings
    }
}
