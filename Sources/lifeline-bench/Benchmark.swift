import ArgumentParser
import Foundation
import TraceSynth

/// `swift run -c release lifeline-bench`: generates two deterministic corpora of the same
/// device-days — the generator's tidy output and a field-like mix — and on each times, in the
/// same run on the same files, the references (`zstd -dc`, DuckDB's `read_json` into an on-disk
/// table) and `lifeline ingest`, `check` and the in-memory replay, printing events/s, the
/// ratios to the references and peak memory.
@main
struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline-bench",
        abstract: "Measure ingest and replay speed against zstd -dc and DuckDB on generated corpora.")

    @Option(help: "Approximate number of events in each corpus.")
    var events = 2_000_000

    @Option(help: "Days of logs per device (one file per device and day).")
    var days = 7

    @Option(help: "Which corpus to measure: tidy, field or both.")
    var corpus: CorpusChoice = .both

    @Option(help: "Where the corpora and databases are written (reused across runs).")
    var directory = "bench-out"

    @Option(help: "Seed of the generated corpora.")
    var seed: UInt64 = 42

    @Option(help: "Trace format of the generated corpora: v1 (the default), or v1.1 (scene-based apps, shared resources, URL session scheduling, readings).")
    var traceFormat: TraceFormat = .v1

    @Flag(help: "Skip the half-corpus ingest that shows whether peak memory stays flat.")
    var skipMemoryCheck = false

    @Flag(help: "Also ingest the files of devices that log seq and of those that do not, each alone.")
    var seqSplit = false

    @Flag(help: "Only time the in-memory replay (for profiling the engine).")
    var replayOnly = false

    @Flag(help: "With --replay-only, also replay the whole corpus held in memory on one thread and on one per core.")
    var threads = false

    @Flag(help: "Print the results as JSON too.")
    var json = false

    enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
        case v1
        case v1_1 = "v1.1"
    }

    enum CorpusChoice: String, ExpressibleByArgument, CaseIterable {
        case tidy, field, both

        var kinds: [Corpus.Kind] {
            switch self {
            case .tidy: [.tidy]
            case .field: [.field]
            case .both: [.tidy, .field]
            }
        }
    }

    func run() throws {
        let tools = try Tools.locate()
        let perDeviceDay = 250
        // Days vary around their target; aim 5% high so the corpus has at least `events`.
        let devices = max(1, Int((Double(events) * 1.05 / Double(days * perDeviceDay)).rounded(.up)))
        var spec = CorpusSpec(devices: devices, days: days, seed: seed, approxEventsPerDeviceDay: perDeviceDay)
        // The corpora of the figures in the README, byte for byte: written before requests were
        // kept from waiting past a day (their natural waits are bgtask-never-ran findings now).
        spec.requestsMayWait = true
        if traceFormat == .v1_1 { spec.features = .v1_1 }
        print("machine    \(Machine.describe())")
        if tools.duckDBPython == nil { print("note       DuckDB is not installed (pip install duckdb): its row is skipped") }
        var all: [ResultRow] = []
        var prepared: [Corpus] = []
        for kind in corpus.kinds {
            let corpus = try Corpus.prepare(kind, spec: spec, under: directory)
            prepared.append(corpus)
            print("\ncorpus     \(corpus.summary)")
            if replayOnly {
                let memory = try InMemoryReplay.measure(files: corpus.files)
                print(String(format: "replay in memory: %d events in %.2f s, %.0f events/s, %d findings",
                             memory.events, memory.seconds, Double(memory.events) / memory.seconds, memory.findings))
                let compact = try InMemoryReplay.measureCompact(files: corpus.files)
                print(String(format: "replay of compact events in memory: %d events in %.2f s, %.0f events/s, %d findings",
                             compact.events, compact.seconds, Double(compact.events) / compact.seconds, compact.findings))
                if threads {
                    for row in try InMemoryReplay.threadRows(corpus: corpus.kind.rawValue, files: corpus.files) {
                        print(String(format: "%@: %.2f s, %.0f events/s", row.name, row.seconds, row.eventsPerSecond))
                    }
                }
                continue
            }
            let suite = try BenchmarkSuite(corpus: corpus, tools: tools, scratch: directory, halfCorpus: !skipMemoryCheck,
                                       seqSplit: seqSplit).run()
            print(ResultRow.table(suite.rows, zstd: suite.zstd, duckDB: suite.duckDB))
            if let scaling = ResultRow.scaling(suite.rows, cores: ProcessInfo.processInfo.activeProcessorCount) {
                print(scaling)
            }
            all += suite.rows
        }
        if !replayOnly {
            // Last, as it holds a whole corpus in memory: a process started after it would count
            // this one's peak as its own (Linux carries it over at exec), as the rows above did.
            for corpus in prepared {
                let rows = try InMemoryReplay.threadRows(corpus: corpus.kind.rawValue, files: corpus.files)
                guard !rows.isEmpty else { continue }
                print("\n\(corpus.kind.rawValue) corpus, the replay alone with every event in memory first:")
                for row in rows {
                    print(String(format: "  %@: %.2f s, %.0f events/s", row.name, row.seconds, row.eventsPerSecond))
                }
                if let scaling = ResultRow.scaling(rows, cores: ProcessInfo.processInfo.activeProcessorCount) { print("  " + scaling) }
                all += rows
            }
        }
        if json { print(try String(decoding: JSONEncoder().encode(all), as: UTF8.self)) }
    }
}
