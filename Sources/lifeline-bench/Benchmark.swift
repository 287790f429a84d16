import ArgumentParser
import Foundation
import TraceSynth

/// `swift run -c release lifeline-bench`: generates a deterministic field-like corpus, times
/// the reference (`zstd -dc` of the same files) and `lifeline ingest` of it into a fresh
/// database in the same run, and prints events/s, MB/s, the ratio and peak memory.
@main
struct Benchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline-bench",
        abstract: "Measure ingest (and replay) speed against zstd -dc on a generated corpus.")

    @Option(help: "Approximate number of events in the corpus.")
    var events = 2_000_000

    @Option(help: "Days of logs per device (one file per device and day).")
    var days = 7

    @Option(help: "Where the corpus and databases are written (reused across runs).")
    var directory = "bench-out"

    @Option(help: "Seed of the generated corpus.")
    var seed: UInt64 = 42

    @Flag(help: "Skip the half-corpus ingest that shows whether peak memory stays flat.")
    var skipMemoryCheck = false

    @Flag(help: "Only time the in-memory replay (for profiling the engine).")
    var replayOnly = false

    @Flag(help: "Print the results as JSON too.")
    var json = false

    func run() throws {
        let tools = try Tools.locate()
        let perDeviceDay = 250
        // Days vary around their target; aim 5% high so the corpus has at least `events`.
        let devices = max(1, Int((Double(events) * 1.05 / Double(days * perDeviceDay)).rounded(.up)))
        let spec = CorpusSpec(devices: devices, days: days, seed: seed, approxEventsPerDeviceDay: perDeviceDay)
        let corpus = try Corpus.prepare(spec: spec, under: directory)
        print("corpus     \(corpus.summary)")
        print("machine    \(Machine.describe())")
        if replayOnly {
            let memory = try InMemoryReplay.measure(files: corpus.files)
            print(String(format: "replay in memory: %d events in %.2f s, %.0f events/s, %d findings",
                         memory.events, memory.seconds, Double(memory.events) / memory.seconds, memory.findings))
            return
        }

        let reference = try Measure.run(tools.zstd, ["-dcq"] + corpus.files, output: "/dev/null")
        let database = (directory as NSString).appendingPathComponent("bench.db")
        Measure.removeDatabase(database)
        let ingest = try Measure.run(
            tools.lifeline, ["ingest", "--quiet", "--json", "--db", database, corpus.directory])
        let ingested = try IngestFigures(json: ingest.output)

        var rows = [
            ResultRow(name: "reference: zstd -dc", seconds: reference.seconds, events: corpus.events,
                      bytes: corpus.compressedBytes, peakMB: nil),
            ResultRow(name: "lifeline ingest", seconds: ingest.seconds, events: ingested.lines,
                      bytes: corpus.compressedBytes, peakMB: ingest.peakMB),
        ]
        if !skipMemoryCheck {
            let halfDatabase = (directory as NSString).appendingPathComponent("bench-half.db")
            Measure.removeDatabase(halfDatabase)
            let halfFiles = Array(corpus.files.prefix(corpus.files.count / 2))
            let half = try Measure.run(
                tools.lifeline, ["ingest", "--quiet", "--json", "--db", halfDatabase] + halfFiles)
            let halfFigures = try IngestFigures(json: half.output)
            rows.append(ResultRow(name: "lifeline ingest, half corpus", seconds: half.seconds,
                                  events: halfFigures.lines, bytes: nil, peakMB: half.peakMB))
            Measure.removeDatabase(halfDatabase)
        }
        let check = try Measure.run(tools.lifeline, ["check", "--quiet", "--format", "json", "--db", database])
        rows.append(ResultRow(name: "lifeline check (store replay)", seconds: check.seconds, events: ingested.lines,
                              bytes: nil, peakMB: check.peakMB))
        let memory = try InMemoryReplay.measure(files: corpus.files)
        rows.append(ResultRow(name: "replay in memory (1 core)", seconds: memory.seconds, events: memory.events,
                              bytes: nil, peakMB: nil))
        print(ResultRow.table(rows, reference: rows[0]))
        if ingested.lines != corpus.events {
            print("warning: the corpus has \(corpus.events) events but ingest stored \(ingested.lines)")
        }
        if json { print(try String(decoding: JSONEncoder().encode(rows), as: UTF8.self)) }
    }
}
