import ArgumentParser
import Foundation
import TraceSynth

struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write realistic synthetic logs (for trying Lifeline, tests and benchmarks).",
        discussion: """
            Writes one multi-frame .jsonl.zst file per device and day, deterministic for a seed. \
            With --sample, writes the small sample set shipped in traces/ instead: a few devices \
            with clean life cycles and a few breaches, one .jsonl.gz and one .jsonl file, and \
            bad/ with a truncated file and malformed lines.
            """)

    @Option(help: ArgumentHelp("Directory to write into (created if missing).", valueName: "dir"))
    var output: String

    @Flag(help: "Write the sample set shipped in traces/ (ignores the other options).")
    var sample = false

    @Option(help: "Number of devices.")
    var devices = 10

    @Option(help: "Number of days per device.")
    var days = 2

    @Option(help: "Seed: the same seed gives byte-identical files.")
    var seed: UInt64 = 1

    @Option(help: "Probability per launch of one injected rule breach (0 = clean).")
    var breachRate = 0.0

    @Option(help: "Approximate events per device and day.")
    var eventsPerDay = 250

    @Option(help: ArgumentHelp(
        "Trace format to write: v1, or v1.1 with scene-based apps, shared resources, background URL session scheduling, debug runs and requests that never run.",
        valueName: "version"))
    var traceFormat: TraceFormatVersion = .v1

    func validate() throws {
        try CommandFailure.reporting {
            guard (0...1).contains(breachRate) else { throw CommandFailure.usage("--breach-rate must be between 0 and 1") }
            guard devices > 0, days > 0, eventsPerDay > 0 else {
                throw CommandFailure.usage("--devices, --days and --events-per-day must be positive")
            }
            // A device-day is built in memory (some 300 bytes an event): these keep it, and the
            // corpus's dates and counts, within what the generator and a machine can hold.
            for (name, value, limit) in [("--devices", devices, 1_000_000), ("--days", days, 3_650), ("--events-per-day", eventsPerDay, 100_000)]
            where value > limit {
                throw CommandFailure.usage("\(name) must be at most \(limit)")
            }
        }
    }

    func run() throws {
        do {
            if sample {
                try CorpusWriter.sampleTraces(to: output)
                print("Wrote the sample traces to \(output)")
                return
            }
            var spec = CorpusSpec(
                devices: devices, days: days, seed: seed, breachRate: breachRate,
                approxEventsPerDeviceDay: eventsPerDay)
            spec.features = traceFormat.features
            try CorpusWriter.createDirectory(output)
            let written = try CorpusWriter.write(spec: spec, to: output)
            print("Wrote \(written.events) events in \(written.files) files (\(written.bytes) bytes) to \(output)")
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}

/// The trace format versions `generate` writes.
enum TraceFormatVersion: String, ExpressibleByArgument, CaseIterable {
    case v1
    case v1_1 = "v1.1"

    var features: TraceFeatures { self == .v1 ? [] : .v1_1 }
}
