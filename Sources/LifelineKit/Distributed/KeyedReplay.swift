import Foundation
import Replay
import Rules
import Reports
import TraceDecode
import TraceModel
import TraceRead
import TraceStore

/// The second pass of a replay spread over machines: reads the records ``DeviceKeyer`` wrote,
/// after a shuffle has brought each device's records together (in any order within the
/// device, devices one after another), and replays each device as `lifeline check` replays it
/// from the store:
///
/// - its lines are taken in the order `ingest` would store them (file number, then line);
/// - a second line with an event already seen is a duplicate and dropped, as the store drops it:
///   same launch and `seq` (for a `seq` in the store's range), else the same content;
/// - launches are replayed one after another, by their first `ts`, then the order they were
///   first seen; a launch's events by `seq`, and those identified by content after them by
///   `seq`, then `ts`, then the order they came;
/// - a launch whose last stored event lies in a file that was cut short (a `C` record) is
///   replayed as cut short;
/// - once its records end the device is finished and its state freed, so memory holds one
///   device's events at a time, not the partition's.
///
/// A device whose records come in two separate runs is an error: it would be replayed twice,
/// each time in part. `F` records (the files' reports) are gathered for the totals.
public struct KeyedReplay {
    public let book: RuleBook

    public init(book: RuleBook = RuleCatalog.standard) {
        self.book = book
    }

    /// Why keyed input could not be replayed: the records were not what `key-by-device` writes.
    public struct InputError: Error, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "record \(line): \(message)" }
    }

    /// The longest record read: a line of up to 1 MiB, after a device id escaped as JSON.
    static let maxRecordBytes = 8 << 20

    /// Replays the records read from `path` (`-`: standard input); findings that pass the
    /// filters go to `emit` as soon as known, and derived records (``LaunchLines``) to `records`.
    public func run(
        path: String, options: CheckOptions, records: (any DerivedRecordSink)? = nil, emit: (Finding) throws -> Void
    ) throws -> Analyzer.StreamTotals {
        let replayer = Replayer(book: book, configuration: options.configuration, records: records)
        var state = State(replayer: replayer, options: options)
        let reader = try LineReader(path: path, maxLineBytes: Self.maxRecordBytes)
        var failure: (any Error)?
        try reader.forEachLine { line in
            do {
                guard case .complete = line.kind else {
                    throw InputError(line: line.number, message: "longer than \(Self.maxRecordBytes) bytes")
                }
                try state.read(line.bytes, number: line.number, emit: emit)
            } catch {
                failure = error
                return false
            }
            return true
        }
        if let failure { throw failure }
        if let damage = reader.damage.first {
            throw InputError(line: damage.afterLine + 1, message: "the records were damaged: \(damage.reason)")
        }
        try state.endDevice(emit: emit)
        return state.totals
    }

    /// One event as it came, with where it came from.
    private struct Keyed {
        var file: Int
        var line: Int
        var event: Event
    }

    private struct State {
        let replayer: Replayer
        let options: CheckOptions
        var totals = Analyzer.StreamTotals()
        var decoder = EventDecoder()
        var device: [UInt8]?
        var events: [Keyed] = []
        var cutFiles = Set<Int>()
        /// Hashes of the device keys already replayed, to catch a device that comes twice.
        var finished = Set<Int>()

        init(replayer: Replayer, options: CheckOptions) {
            self.replayer = replayer
            self.options = options
        }

        mutating func read(_ bytes: UnsafeRawBufferPointer, number: Int, emit: (Finding) throws -> Void) throws {
            guard !bytes.isEmpty else { return }
            var fields = Fields(bytes)
            guard let kind = fields.next().flatMap({ $0.count == 1 ? DeviceKeyer.RecordKind(rawValue: $0[0]) : nil }) else {
                throw InputError(line: number, message: "not a record of `lifeline key-by-device` (E, C or F first)")
            }
            switch kind {
            case .event:
                guard let key = fields.next(), let file = fields.integer(), let line = fields.integer() else {
                    throw InputError(line: number, message: "an E record needs DEVICE, FILE, LINE and the line")
                }
                try begin(device: key, number: number, emit: emit)
                switch decoder.decode(fields.rest) {
                case .event(let event): events.append(Keyed(file: file, line: line, event: event))
                case .blank, .reject:
                    throw InputError(line: number, message: "the line of file \(file) line \(line) is not an event")
                }
            case .cut:
                guard let key = fields.next(), let file = fields.integer() else {
                    throw InputError(line: number, message: "a C record needs DEVICE and FILE")
                }
                try begin(device: key, number: number, emit: emit)
                cutFiles.insert(file)
            case .file:
                guard fields.integer() != nil,
                      let report = try? JSONDecoder().decode(FileReport.self, from: Data(fields.rest))
                else { throw InputError(line: number, message: "an F record needs FILE and a file report") }
                // Every file is counted; its report is kept only when something went wrong.
                totals.fileCounts.add(report)
                if report.outcome == .failed || report.truncated || !report.damage.isEmpty || report.rejectCount > 0 {
                    totals.files.append(report)
                }
                totals.lines += report.lines
                totals.blankLines += report.blankLines
                totals.damage += report.damage
                for (reason, count) in report.rejects {
                    totals.rejects += count
                    totals.rejectsByReason[reason, default: 0] += count
                }
            }
        }

        /// Starts a device's records, ending the previous device's.
        private mutating func begin(device key: UnsafeRawBufferPointer, number: Int, emit: (Finding) throws -> Void) throws {
            if let device, device.elementsEqual(key) { return }
            try endDevice(emit: emit)
            var hasher = Hasher()
            hasher.combine(bytes: key)
            let hash = hasher.finalize()
            guard finished.insert(hash).inserted else {
                let name = String(decoding: key.prefix(200), as: UTF8.self)
                throw InputError(
                    line: number,
                    message: "the records of device \(name) are not together: sort the records by device first")
            }
            device = Array(key)
        }

        /// Replays the device gathered, in the store's order, and frees it.
        mutating func endDevice(emit: (Finding) throws -> Void) throws {
            defer {
                device = nil
                events.removeAll(keepingCapacity: true)
                cutFiles.removeAll(keepingCapacity: true)
            }
            guard let name = events.first?.event.device else { return }
            if case .only(let names) = options.devices, !names.contains(name) { return }
            var duplicates = 0
            let launches = Self.launches(of: &events, cutFiles: cutFiles, duplicates: &duplicates)
            // With --app or --app-version, a device none of whose launches is the app's (by its
            // first event) is left out as --device leaves one out; the others are replayed whole.
            var launchApps: LaunchApps?
            if options.apps.isSet {
                var selected = LaunchApps(options.apps)
                for launch in launches {
                    let first = launch.events.first?.event
                    selected.see(device: name, launch: launch.name, app: first?.app, version: first?.appVersion)
                }
                guard selected.selected > 0 else { return }
                totals.appLaunches += selected.selected
                launchApps = selected
            }
            totals.decoded += events.count
            totals.duplicates += duplicates
            var emitError: (any Error)?
            let options = options
            var totals = totals
            func report(_ finding: Finding) {
                guard emitError == nil, options.reports(finding), launchApps?.takes(finding) ?? true else { return }
                totals.findings += 1
                totals.findingsByRule[finding.rule, default: 0] += 1
                do { try emit(finding) } catch { emitError = error }
            }
            for launch in launches {
                for keyed in launch.events {
                    totals.events += 1
                    replayer.receive(keyed.event, emit: report)
                }
                if launch.cut { replayer.logWasCutShort(device: name, launch: launch.name) }
            }
            replayer.finish(device: name, emit: report)
            totals.devices += 1
            self.totals = totals
            if let emitError { throw emitError }
        }

        /// A launch of the device, its events in replay order.
        struct Launch {
            var name: String
            var firstTS: Timestamp
            /// Where its first event came (file, line): the order the store created launches in.
            var firstSeen: (file: Int, line: Int)
            var events: [Keyed] = []
            var cut = false
        }

        /// The device's launches in replay order, duplicates dropped (and counted).
        static func launches(of events: inout [Keyed], cutFiles: Set<Int>, duplicates: inout Int) -> [Launch] {
            events.sort { ($0.file, $0.line) < ($1.file, $1.line) }
            var bySeq = Set<SeqKey>()
            var byContent = Set<Event>()
            var index: [String: Int] = [:]
            var launches: [Launch] = []
            for keyed in events {
                let event = keyed.event
                let stored = EventIdentity.identifiesBySeq(event.seq)
                    ? bySeq.insert(SeqKey(launch: event.launch, seq: event.seq ?? 0)).inserted
                    : byContent.insert(event).inserted
                guard stored else {
                    duplicates += 1
                    continue
                }
                if let at = index[event.launch] {
                    launches[at].events.append(keyed)
                    launches[at].firstTS = min(launches[at].firstTS, event.ts)
                } else {
                    index[event.launch] = launches.count
                    launches.append(Launch(
                        name: event.launch, firstTS: event.ts, firstSeen: (keyed.file, keyed.line), events: [keyed]))
                }
            }
            for at in launches.indices {
                launches[at].events.sort(by: Self.storeOrder)
                // The store's last event of a launch is its highest row id: the last event
                // identified by content to be stored, else the highest `seq`.
                let byContent = launches[at].events.filter { !EventIdentity.identifiesBySeq($0.event.seq) }
                let last = byContent.max { ($0.file, $0.line) < ($1.file, $1.line) } ?? launches[at].events.last
                if let last { launches[at].cut = cutFiles.contains(last.file) }
            }
            launches.sort { ($0.firstTS, $0.firstSeen.file, $0.firstSeen.line) < ($1.firstTS, $1.firstSeen.file, $1.firstSeen.line) }
            return launches
        }

        /// The store's order within a launch: events identified by `seq` by `seq`, then the
        /// others by `seq` (absent last), `ts` and the order they were stored in.
        static func storeOrder(_ a: Keyed, _ b: Keyed) -> Bool {
            let aSeq = EventIdentity.identifiesBySeq(a.event.seq), bSeq = EventIdentity.identifiesBySeq(b.event.seq)
            if aSeq != bSeq { return aSeq }
            if aSeq { return (a.event.seq ?? 0) < (b.event.seq ?? 0) }
            return (a.event.seq ?? .max, a.event.ts, a.file, a.line) < (b.event.seq ?? .max, b.event.ts, b.file, b.line)
        }
    }

    private struct SeqKey: Hashable {
        var launch: String
        var seq: Int64
    }

    /// The tab-separated fields of a record.
    private struct Fields {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        /// The next field, up to a tab or the end.
        mutating func next() -> UnsafeRawBufferPointer? {
            guard offset <= bytes.count else { return nil }
            let start = offset
            var end = start
            while end < bytes.count, bytes[end] != 0x09 { end += 1 }
            offset = end + 1
            return UnsafeRawBufferPointer(rebasing: bytes[start ..< end])
        }

        mutating func integer() -> Int? {
            guard let field = next(), !field.isEmpty, field.count <= 18 else { return nil }
            var value = 0
            for byte in field {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }

        /// Everything after the fields read, tabs included.
        var rest: UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: bytes[min(offset, bytes.count)...])
        }
    }
}
