import Foundation

/// Every measurement of one corpus, in one run on the same files: the references first, then
/// Lifeline's ingest (of the whole corpus and of half of it, to show that peak memory does not
/// grow with the input), `check` over the store and the replay alone on events in memory.
struct BenchmarkSuite {
    let corpus: Corpus
    let tools: Tools
    let scratch: String
    let halfCorpus: Bool

    struct Results {
        var rows: [ResultRow]
        var zstd: ResultRow
        var duckDB: ResultRow?
    }

    func run() throws -> Results {
        let name = corpus.kind.rawValue
        // -f passes plain files through, as `zcat -f` does, so the reference reads every file.
        let reference = try Measure.run(tools.zstd, ["-dcfq"] + corpus.files, output: "/dev/null")
        let zstd = ResultRow(corpus: name, name: "reference: zstd -dc", seconds: reference.seconds, events: corpus.lines,
                             bytes: corpus.compressedBytes, peakMB: nil)
        var rows = [zstd]
        var duckDB: ResultRow?
        if let python = tools.duckDBPython {
            let load = try DuckDBLoad.measure(python: python, files: corpus.files, scratch: scratch)
            let row = ResultRow(corpus: name, name: "reference: DuckDB read_json", seconds: load.outcome.seconds,
                                events: load.rows, bytes: corpus.compressedBytes, peakMB: load.outcome.peakMB)
            duckDB = row
            rows.append(row)
        }

        let database = (scratch as NSString).appendingPathComponent("bench-\(name).db")
        Measure.removeDatabase(database)
        let ingest = try Measure.run(tools.lifeline, ["ingest", "--quiet", "--json", "--db", database, corpus.directory])
        let ingested = try IngestFigures(json: ingest.output)
        rows.append(ResultRow(corpus: name, name: "lifeline ingest", seconds: ingest.seconds, events: ingested.lines,
                              bytes: corpus.compressedBytes, peakMB: ingest.peakMB))
        if halfCorpus {
            let halfDatabase = (scratch as NSString).appendingPathComponent("bench-\(name)-half.db")
            Measure.removeDatabase(halfDatabase)
            let half = try Measure.run(
                tools.lifeline, ["ingest", "--quiet", "--json", "--db", halfDatabase] + corpus.files.prefix(corpus.files.count / 2))
            rows.append(ResultRow(corpus: name, name: "lifeline ingest, half corpus", seconds: half.seconds,
                                  events: try IngestFigures(json: half.output).lines, bytes: nil, peakMB: half.peakMB))
            Measure.removeDatabase(halfDatabase)
        }
        let check = try Measure.run(tools.lifeline, ["check", "--quiet", "--format", "json", "--db", database])
        rows.append(ResultRow(corpus: name, name: "lifeline check (store replay)", seconds: check.seconds,
                              events: ingested.lines, bytes: nil, peakMB: check.peakMB))
        let memory = try InMemoryReplay.measure(files: corpus.files)
        rows.append(ResultRow(corpus: name, name: "replay in memory (1 core)", seconds: memory.seconds,
                              events: memory.events, bytes: nil, peakMB: nil))
        return Results(rows: rows, zstd: zstd, duckDB: duckDB)
    }
}
