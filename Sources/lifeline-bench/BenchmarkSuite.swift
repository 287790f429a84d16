import Foundation

/// Every measurement of one corpus, in one run on the same files: the references first, then
/// Lifeline's ingest (of the whole corpus and of half of it, to show that peak memory does not
/// grow with the input), `check` over the store and the replay alone on events in memory.
struct BenchmarkSuite {
    let corpus: Corpus
    let tools: Tools
    let scratch: String
    let halfCorpus: Bool
    /// Ingest the files of devices with and without `seq` apart too (see ``SequencedSplit``).
    let seqSplit: Bool

    /// The devices `check --stdin --devices-in-memory` holds: a quarter of the default corpus's
    /// 1,200, so that the whole corpus and its half both spill the rest (900 and 300 devices).
    static let devicesInMemory = 300

    struct Results {
        var rows: [ResultRow]
        var zstd: ResultRow
        var duckDB: ResultRow?
    }

    func run() throws -> Results {
        let name = corpus.kind.rawValue
        // -f passes plain files through, as `zcat -f` does, so the reference reads every file;
        // its complaints about the field corpus's cut files are not the bench's output.
        let reference = try Measure.run(tools.zstd, ["-dcfq"] + corpus.files, output: "/dev/null", errors: "/dev/null")
        let zstd = ResultRow(corpus: name, name: "reference: zstd -dc", seconds: reference.seconds, events: corpus.lines,
                             bytes: corpus.compressedBytes, peakMB: nil)
        var rows = [zstd]
        var duckDB: ResultRow?
        if let python = tools.duckDBPython {
            // A peer that fails (DuckDB missing a module, out of memory) is a note, not the end of the run.
            do {
                let load = try DuckDBLoad.measure(python: python, files: corpus.files, scratch: scratch)
                let row = ResultRow(corpus: name, name: "reference: DuckDB read_json", seconds: load.outcome.seconds,
                                    events: load.rows, bytes: corpus.compressedBytes, peakMB: load.outcome.peakMB)
                duckDB = row
                rows.append(row)
            } catch {
                print("note       DuckDB failed, its row is skipped: \(error)")
            }
        }

        let database = (scratch as NSString).appendingPathComponent("bench-\(name).db")
        // What lifeline says of the corpus's bad lines on standard error goes to a file.
        let errors = (scratch as NSString).appendingPathComponent("lifeline-stderr-\(name).txt")
        Measure.removeDatabase(database)
        let ingest = try Measure.run(tools.lifeline, ["ingest", "--quiet", "--json", "--db", database, corpus.directory], errors: errors)
        let ingested = try IngestFigures(json: ingest.output)
        rows.append(ResultRow(corpus: name, name: "lifeline ingest", seconds: ingest.seconds, events: ingested.lines,
                              bytes: corpus.compressedBytes, peakMB: ingest.peakMB))
        if let single = try oneCoreIngest() { rows.append(single) }
        if seqSplit {
            rows += try splitIngests()
        }
        if halfCorpus {
            let halfDatabase = (scratch as NSString).appendingPathComponent("bench-\(name)-half.db")
            Measure.removeDatabase(halfDatabase)
            let half = try Measure.run(
                tools.lifeline, ["ingest", "--quiet", "--json", "--db", halfDatabase] + corpus.files.prefix(corpus.files.count / 2),
                errors: errors)
            let halfEvents = try IngestFigures(json: half.output).lines
            rows.append(ResultRow(corpus: name, name: "lifeline ingest, half corpus", seconds: half.seconds,
                                  events: halfEvents, bytes: nil, peakMB: half.peakMB))
            let halfCheck = try Measure.run(tools.lifeline, ["check", "--quiet", "--format", "json", "--db", halfDatabase])
            rows.append(ResultRow(corpus: name, name: "lifeline check, half corpus", seconds: halfCheck.seconds,
                                  events: halfEvents, bytes: nil, peakMB: halfCheck.peakMB))
            Measure.removeDatabase(halfDatabase)
        }
        let checkArguments = ["check", "--quiet", "--format", "json", "--db", database]
        // The same check held to one core (its reading and replaying threads share it), for the
        // speed-up against cores.
        if let taskset = tools.taskset {
            let single = try Measure.run(taskset, ["-c", "0", tools.lifeline] + checkArguments)
            rows.append(ResultRow(corpus: name, name: "lifeline check (store replay), 1 core", seconds: single.seconds,
                                  events: ingested.lines, bytes: nil, peakMB: single.peakMB))
        }
        let check = try Measure.run(tools.lifeline, checkArguments)
        rows.append(ResultRow(corpus: name, name: "lifeline check (store replay)", seconds: check.seconds,
                              events: ingested.lines, bytes: nil, peakMB: check.peakMB))
        if tools.taskset != nil {
            let stream = try streamCheck(corpus.files, oneCore: true)
            rows.append(ResultRow(corpus: name, name: "lifeline check --stdin, 1 core", seconds: stream.outcome.seconds,
                                  events: stream.events, bytes: nil, peakMB: stream.outcome.peakMB))
        }
        for (label, files) in [("", corpus.files), (", half corpus", Array(corpus.files.prefix(corpus.files.count / 2)))]
        where halfCorpus || label.isEmpty {
            // The files are named by device and day, so their sorted list is grouped by device
            // (`--grouped`); without it, every device is held to the end, or, past a limit below
            // the corpus's devices, spilled to disk.
            for flags in ["", "--grouped", "--devices-in-memory \(Self.devicesInMemory)"] {
                let stream = try streamCheck(files, flags: flags)
                rows.append(ResultRow(corpus: name, name: "lifeline check --stdin" + (flags.isEmpty ? "" : " " + flags) + label,
                                      seconds: stream.outcome.seconds, events: stream.events, bytes: nil,
                                      peakMB: stream.outcome.peakMB))
            }
        }
        let memory = try InMemoryReplay.measure(files: corpus.files)
        rows.append(ResultRow(corpus: name, name: "replay in memory (1 core)", seconds: memory.seconds,
                              events: memory.events, bytes: nil, peakMB: nil))
        let compact = try InMemoryReplay.measureCompact(files: corpus.files)
        rows.append(ResultRow(corpus: name, name: "replay of compact events in memory (1 core)", seconds: compact.seconds,
                              events: compact.events, bytes: nil, peakMB: nil))
        return Results(rows: rows, zstd: zstd, duckDB: duckDB)
    }

    /// The same ingest held to one core (its reading and writing threads share it), into a
    /// database of its own; nil without `taskset`.
    private func oneCoreIngest() throws -> ResultRow? {
        guard let taskset = tools.taskset else { return nil }
        let database = (scratch as NSString).appendingPathComponent("bench-\(corpus.kind.rawValue)-one-core.db")
        Measure.removeDatabase(database)
        defer { Measure.removeDatabase(database) }
        let ingest = try Measure.run(
            taskset, ["-c", "0", tools.lifeline, "ingest", "--quiet", "--json", "--db", database, corpus.directory],
            errors: "/dev/null")
        return ResultRow(corpus: corpus.kind.rawValue, name: "lifeline ingest, 1 core", seconds: ingest.seconds,
                         events: try IngestFigures(json: ingest.output).lines, bytes: corpus.compressedBytes,
                         peakMB: ingest.peakMB)
    }

    /// One ingest of the sequenced devices' files and one of the others', each into a fresh database.
    private func splitIngests() throws -> [ResultRow] {
        let split = try SequencedSplit(files: corpus.files)
        var rows: [ResultRow] = []
        for (label, files) in [("with seq", split.sequenced), ("without seq", split.unsequenced)] where !files.isEmpty {
            let database = (scratch as NSString).appendingPathComponent("bench-\(corpus.kind.rawValue)-split.db")
            Measure.removeDatabase(database)
            defer { Measure.removeDatabase(database) }
            let ingest = try Measure.run(tools.lifeline, ["ingest", "--quiet", "--json", "--db", database] + files)
            rows.append(ResultRow(corpus: corpus.kind.rawValue, name: "lifeline ingest, devices \(label)",
                                  seconds: ingest.seconds, events: try IngestFigures(json: ingest.output).lines,
                                  bytes: nil, peakMB: ingest.peakMB))
        }
        return rows
    }

    /// `zstd -dcf FILES | lifeline check --stdin`, as a map step over uploads would run it: the
    /// time and peak memory of the pipeline (the larger of its two processes), and the events
    /// replayed, from the closing line on standard error.
    /// `oneCore` holds the whole pipeline, `zstd` included, to one core; `flags` are `check`'s.
    private func streamCheck(
        _ files: [String], oneCore: Bool = false, flags: String = ""
    ) throws -> (outcome: Measure.Outcome, events: Int) {
        let list = (scratch as NSString).appendingPathComponent("stream-files.txt")
        try files.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let summary = (scratch as NSString).appendingPathComponent("stream-summary.txt")
        let pipeline = "xargs -d '\\n' \(tools.zstd) -dcfq < \(list) 2> /dev/null | \(tools.lifeline) check --stdin \(flags) > /dev/null 2> \(summary)"
        let shell = ["/bin/sh", "-c", pipeline]
        let outcome = try oneCore
            ? Measure.run(tools.taskset ?? "taskset", ["-c", "0"] + shell)
            : Measure.run(shell[0], Array(shell.dropFirst()))
        let text = (try? String(contentsOfFile: summary, encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("replayed ") }),
              let events = Int(line.dropFirst("replayed ".count).prefix { $0.isNumber })
        else { throw BenchmarkError("check --stdin printed no closing line: \(text.suffix(300))") }
        return (outcome, events)
    }
}
