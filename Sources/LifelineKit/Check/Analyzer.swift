import Foundation
import Replay
import Reports
import Rules
import TraceDecode
import TraceModel
import TraceRead
import TraceStore

/// Replays events against the rule catalogue, from the store or from a stream.
public struct Analyzer: Sendable {
    public let book: RuleBook

    public init(book: RuleBook = RuleCatalog.standard) {
        self.book = book
    }

    /// How far a replay of the store has got, for a progress line.
    public struct ReplayProgress: Sendable {
        public var devices: Int
        public var events: Int
        public var findings: Int
        public var elapsedSeconds: Double
    }

    /// Replays the store (the selected devices), records the run in `runs`, its findings in
    /// `findings` and what the same replay derived in `launches`, `intervals`, `tasks` and
    /// `requests` (unless `options.record` is off or no event was replayed), and returns the
    /// report of the findings that pass the filters.
    ///
    /// With `options.apps` set, the devices replayed are those (of the selected ones) that ran
    /// a launch of the app or version, each whole as always, and all of their findings are
    /// recorded; the report holds the findings of the selected launches only. No such launch:
    /// nothing is replayed or recorded.
    /// `progress` is called after each device.
    ///
    /// The devices are replayed on `replayWorkers` threads (``DeviceReplayPool``; by default
    /// ``ReplayThreads/byDefault``); what is found and recorded is the same for any number.
    ///
    /// `whileRecording`, when given, is called once with the report: on a thread of its own while
    /// the run is recorded, or on the caller's when nothing is. A caller that writes out a long
    /// report does so there, on one core while SQLite saves the findings on the other (a check's
    /// two longest steps after its replay, for a store with many findings). `check` returns when
    /// both are done; the recording's error comes first.
    public func check(
        store: Store, options: CheckOptions, version: String, replayWorkers: Int? = nil,
        progress: ((ReplayProgress) -> Void)? = nil, whileRecording: ((CheckReport) throws -> Void)? = nil
    ) throws -> CheckReport {
        let started = Date()
        let (devicesToReplay, launchApps) = try Self.selection(store: store, options: options)
        // Every finding is recorded; the report holds those that pass the filters. Both spill
        // to disk beyond a few thousand, so memory does not grow with the findings.
        let recorded = FindingLog()
        let reported = options.reportsAll ? recorded : FindingLog()
        var failure: FindingLogError?
        // The derived tables' rows, from the same replay, written beside it into a stage that the
        // run's transaction publishes with the findings; each launch's row counts its findings.
        let staging = options.record ? DerivedStaging(store: store, devices: devicesToReplay) : nil
        func keep(_ finding: Finding) {
            guard failure == nil else { return }
            do {
                try recorded.append(finding)
                staging?.found(finding)
                if reported !== recorded, options.reports(finding), launchApps?.takes(finding) ?? true {
                    try reported.append(finding)
                }
            } catch { failure = error }
        }
        var devices = 0
        var replayed = 0
        let replayer = DeviceReplayPool(
            workers: replayWorkers ?? ReplayThreads.byDefault, book: book, configuration: options.configuration,
            records: staging)
        defer { replayer.stop() }
        let storeReplay = StoreReplay(store: store, devices: devicesToReplay)
        func delivered(_ device: String) {
            devices += 1
            progress?(ReplayProgress(
                devices: devices, events: replayed, findings: recorded.count,
                elapsedSeconds: Date().timeIntervalSince(started)))
        }
        let events = try storeReplay.run { batch in
            replayed += batch.events.count
            replayer.receive(batch, emit: keep)
        } deviceEnded: { device in
            replayer.deviceEnded(device, emit: keep, delivered: delivered)
        } cutShort: { device, launch in
            replayer.logWasCutShort(device: device, launch: launch)
        } readEnded: { [store, record = staging != nil] in
            // The stage's rows sit in the WAL, which the store's read kept from being copied into
            // the database file: copied from now on, beside the end of the replay (the reading
            // thread's core is free), while the findings are saved and the report printed.
            if record { store.checkpointInBackground() }
        }
        replayer.finish(emit: keep, delivered: delivered)
        if let failure { throw failure }
        let stage = try staging?.finish()
        let finished = Date()
        let run = RunInfo(
            startedAt: started, finishedAt: finished, version: version,
            budgets: Self.json(options.configuration.budgets), scope: Self.scope(devicesToReplay),
            devices: devices, events: events)
        let report = CheckReport(
            source: store.path, devices: devices, events: events, seconds: finished.timeIntervalSince(started),
            findings: reported, filters: options.filterDescriptions)
        // A replay of no events is nothing to record: it would only replace findings with none.
        guard options.record && events > 0 else {
            try whileRecording?(report)
            return report
        }
        let alongside = whileRecording.map { work in Alongside { try work(report) } }
        do {
            try store.saveRun(
                run, devices: devicesToReplay, count: recorded.count, findings: recorded.forEach, derived: stage)
        } catch {
            _ = try? alongside?.finish()
            throw error
        }
        // What the save added, copied while the caller finishes its report.
        if stage != nil { store.checkpointInBackground() }
        try alongside?.finish()
        return report
    }

    /// The devices to replay and, with `options.apps` set, the launches whose findings are
    /// reported: the selected devices that ran one of the app's (or version's) launches. When
    /// that is every device of the store, the run is one of every device, as without `--app`.
    private static func selection(store: Store, options: CheckOptions) throws -> (Store.DeviceSelection, LaunchApps?) {
        guard options.apps.isSet else { return (options.devices, nil) }
        let launches = try store.launches(app: options.apps.app, appVersion: options.apps.version, devices: options.devices)
        let devices = Set(launches.map(\.device))
        let everyDevice = try options.devices == .all && devices.count == store.deviceCount()
        return (everyDevice ? .all : .only(devices.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }),
                LaunchApps(options.apps, launches: launches))
    }

    /// What a streamed replay read. Every line is accounted for: `lines` = `decoded` +
    /// `rejects` + `blankLines` + `lostLines`.
    public struct StreamTotals: Sendable {
        public var lines = 0
        public var events = 0
        public var devices = 0
        public var findings = 0
        public var rejects = 0
        public var blankLines = 0
        /// Where compressed input was damaged or cut, and the lines each stretch took.
        public var damage: [StreamDamage] = []
        public var lostLines: Int { damage.reduce(0) { $0 + $1.lines } }
        /// Events decoded, whether or not `--device` let them through to the replay.
        public var decoded = 0
        /// With `--app` or `--app-version`: the launches of the app or version replayed.
        public var appLaunches = 0
        /// The events replayed that fall in `--since`/`--until` (all of them without a window):
        /// none, and no finding could be reported.
        public var eventsInWindow = 0
        /// Events dropped as already seen: the same launch and `seq` (a stream, while the launch is
        /// among those its orderer keeps), or, keyed (``KeyedReplay``, which has whole devices to
        /// find them in), also the same content.
        public var duplicates = 0
        public var rejectsByReason: [String: Int] = [:]
        public var findingsByRule: [String: Int] = [:]
        /// Keyed input only: the files the records came from, counted by what became of them,
        /// and the reports of those with something wrong (failed, cut, damaged, rejected lines).
        public var fileCounts = StreamSummary.FileCounts()
        public var files: [FileReport] = []

        /// Whether the input was bad: rejected lines, damaged or cut compressed input, or (keyed)
        /// a file that could not be read at all — which used to pass as a clean run, exit 0, where
        /// a file cut short did not.
        public var inputWasBad: Bool { rejects > 0 || !damage.isEmpty || fileCounts.failed > 0 }
    }

    /// Where a streamed replay is, for a progress line: reported every ``StreamProgress/every``
    /// lines as the stream is read, and as often while the events kept on disk are replayed.
    public struct StreamProgress: Sendable {
        public static let every = 16384
        public var lines: Int
        /// Events replayed, and findings reported, so far.
        public var events: Int
        public var findings: Int
        /// Events kept on disk for the devices beyond `--devices-in-memory`, and, once the stream
        /// has ended, how many of them have been replayed (nil while it is being read).
        public var spilled: Int
        public var spilledReplayed: Int?
    }

    /// How many devices a stream in any order has replayed as their lines come, at most, unless
    /// told otherwise (see ``stream(path:options:records:replayWorkers:grouped:devicesInMemory:progress:emit:reject:)``).
    public static let devicesInMemory = ResidentDevices.defaultLimit

    /// Replays JSON lines from a file or standard input ("-") straight to findings, with no
    /// database: memory is bounded by the devices replayed at once. Bad lines go to `reject`
    /// and reading goes on; findings that pass the filters go to `emit` as soon as known.
    /// Damaged compressed frames are skipped whole (see `LineReader`) and listed in the totals.
    ///
    /// With `options.apps` set, every device is replayed (a stream is read once: a device's
    /// later launches may be of the app), and only the findings of the app's launches, known by
    /// their first event, are reported; each launch seen is remembered for that (its names).
    ///
    /// The devices are replayed on `replayWorkers` threads (``ParallelReplay``; by default
    /// ``ReplayThreads/byDefault``); the output is the same for any number.
    ///
    /// `grouped`: the stream holds each device's lines together, device after device. Each
    /// device is then finished when the next one begins — its end-of-log findings come then, not
    /// at the end of the stream — and its state freed, so memory holds one device's, not every
    /// device's; a device that comes back after another throws ``DeviceReturnedError``.
    ///
    /// Otherwise every device is held until the stream ends (any device may log again), the
    /// first `devicesInMemory` in memory, replayed as their lines come; the events of the devices
    /// after them wait in a temporary file as decoded (``DeviceSpill``) and are replayed, device after
    /// device, once the stream ends. Each device's findings are the same either way.
    public func stream(
        path: String, options: CheckOptions, records: (any DerivedRecordSink)? = nil,
        replayWorkers: Int? = nil, grouped: Bool = false, devicesInMemory: Int = Analyzer.devicesInMemory,
        progress: ((StreamProgress) -> Void)? = nil, emit: (Finding) throws -> Void,
        reject: (_ line: Int, LineIssue) -> Void
    ) throws -> StreamTotals {
        let replayer = ParallelReplay(
            workers: replayWorkers ?? ReplayThreads.byDefault, book: book, configuration: options.configuration, records: records)
        defer { replayer.stop() }
        let reader = try LineReader(path: path)
        // The run holds the closures only while the stream is read.
        return try withoutActuallyEscaping(emit) { emit in
            try withoutActuallyEscaping(reject) { reject in
                let run = StreamRun(
                    options: options, replayer: replayer, grouped: grouped, devicesInMemory: devicesInMemory,
                    progress: progress, emit: emit, reject: reject)
                try ParallelDecoder.forEachLine(of: reader) { run.take($0) }
                return try run.end(reader: reader)
            }
        }
    }

    static func json(_ budgets: Budgets) -> String {
        "{" + budgets.all.map { "\"\($0.name.rawValue)\":\($0.seconds)" }.joined(separator: ",") + "}"
    }

    private static func scope(_ devices: Store.DeviceSelection) -> String? {
        guard case .only(let names) = devices else { return nil }
        let data = (try? JSONEncoder().encode(names)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
