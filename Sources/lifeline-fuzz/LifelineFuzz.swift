import ArgumentParser
import Foundation
import Fuzzing

/// The long run of the fuzz harness that `swift test` runs briefly.
@main
struct LifelineFuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline-fuzz",
        abstract: "Run seeded fuzz inputs through Lifeline's decoder, replay and reports.",
        discussion: """
            Each input is a short device log made from real lines (a generated day, the rule examples) \
            with byte mutations and extreme field values. A trap ends the process; a broken invariant is \
            printed with the seed of its input, which `--seed SEED --inputs 1` reproduces. Exit 0 when \
            every invariant held, 1 otherwise.
            """)

    @Option(help: "How many inputs to run.")
    var inputs = 1_000_000

    @Option(help: "The seed of the first input; input i has seed SEED + i.")
    var seed: UInt64 = 1

    mutating func run() throws {
        var harness = FuzzHarness()
        let started = Date()
        let chunk = 10_000
        var done = 0
        while done < inputs {
            let count = min(chunk, inputs - done)
            harness.run(base: seed &+ UInt64(done), count: count)
            done += count
            let seconds = Date().timeIntervalSince(started)
            FileHandle.standardError.write(Data(
                "\r\(done) inputs, \(Int(Double(done) / max(seconds, 1e-9))) inputs/s".utf8))
        }
        let seconds = Date().timeIntervalSince(started)
        let tally = harness.tally
        FileHandle.standardError.write(Data("\n".utf8))
        let rejects = tally.rejects.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
        print("""
            \(tally.inputs) inputs (seeds \(seed)…\(seed &+ UInt64(max(inputs, 1) - 1))) in \
            \(String(format: "%.1f", seconds)) s, \(Int(Double(tally.inputs) / max(seconds, 1e-9))) inputs/s
            lines     \(tally.lines): \(tally.events) events, \(tally.blanks) blank, \(tally.rejects.values.reduce(0, +)) rejected (\(rejects))
            findings  \(tally.findings)
            failures  \(tally.failures.count)
            """)
        for failure in tally.failures.prefix(20) { print("  " + failure) }
        if !tally.failures.isEmpty { throw ExitCode(1) }
    }
}
