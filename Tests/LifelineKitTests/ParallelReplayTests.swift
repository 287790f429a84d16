import Foundation
@testable import LifelineKit
import Replay
import Testing
import TraceModel
import TraceSynth

/// `check --stdin` replays devices on several threads: what it reports — every finding, in order,
/// every launch's record, every total — must not depend on how many.
@Suite struct ParallelReplayTests {
    /// Devices interleaved in small runs of lines (a fleet's uploads concatenated in any order),
    /// v1.1 kinds, injected breaches and a few bad lines; with `cut`, zstd in two frames, the
    /// second cut in the middle (a file that was being written when the device died).
    static func stream(in workspace: Workspace, cut: Bool) throws -> String {
        let spec = GeneratedCorpusTests.v1_1(devices: 23, days: 2, seed: 17, breachRate: 0.3)
        let generator = TraceGenerator(spec: spec)
        var queues = (0 ..< spec.devices).flatMap { device in (0 ..< spec.days).map { generator.lines(device: device, day: $0) } }
        var random = SplitMix64(17)
        var lines: [String] = []
        while let index = queues.indices.filter({ !queues[$0].isEmpty }).randomElement(using: &random) {
            let run = Int.random(in: 1 ... 40, using: &random)
            lines += queues[index].prefix(run)
            queues[index].removeFirst(min(run, queues[index].count))
            if Int.random(in: 0 ..< 50, using: &random) == 0 { lines.append(#"{"ts": "not a time", "device": "X"}"#) }
        }
        guard cut else { return try workspace.write("stream.jsonl", lines: lines) }
        return try workspace.zstdCutShort(
            "stream.jsonl.zst", first: Array(lines.dropLast(300)), second: Array(lines.suffix(300)))
    }

    /// Findings, launch records and totals of one replay of `path` on `workers` threads.
    static func replay(
        _ path: String, workers: Int, options: CheckOptions = CheckOptions(), grouped: Bool = false,
        devicesInMemory: Int = Analyzer.devicesInMemory
    ) throws -> (findings: [Finding], launches: [LaunchRecord], totals: Analyzer.StreamTotals) {
        var findings: [Finding] = []
        let launches = LaunchCollector()
        let totals = try Analyzer().stream(
            path: path, options: options, records: launches, replayWorkers: workers, grouped: grouped,
            devicesInMemory: devicesInMemory, emit: { findings.append($0) }, reject: { _, _ in })
        return (findings, launches.records, totals)
    }

    @Test(arguments: [false, true])
    func anyNumberOfWorkersReportsWhatOneDoes(cut: Bool) throws {
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: cut)
        let one = try Self.replay(path, workers: 1)
        #expect(one.findings.count > 100)
        #expect(Set(one.findings.map(\.rule)).count > 10)
        #expect(one.launches.count > 100)
        #expect(one.totals.rejects > 0)
        #expect(one.totals.inputWasBad)
        #expect(one.launches.contains(where: \.logCutShort) == cut)
        #expect(!one.totals.damage.isEmpty == cut)
        for workers in [2, 3, 8] {
            let many = try Self.replay(path, workers: workers)
            #expect(many.findings == one.findings, "\(workers) workers")
            #expect(many.launches == one.launches, "\(workers) workers")
            #expect(many.totals.events == one.totals.events && many.totals.devices == one.totals.devices)
            #expect(many.totals.findingsByRule == one.totals.findingsByRule)
        }
    }

    /// Filters apply to findings as they are merged: the same ones pass, in the same order.
    @Test func filtersPassTheSameFindings() throws {
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: false)
        let all = try Self.replay(path, workers: 1).findings
        var options = CheckOptions()
        options.rules = Set(all.map(\.rule).prefix(40))
        options.since = all[all.count / 3].ts
        let one = try Self.replay(path, workers: 1, options: options)
        let two = try Self.replay(path, workers: 2, options: options)
        #expect(!one.findings.isEmpty && one.findings.count < all.count)
        #expect(two.findings == one.findings)
    }

    /// A caller that stops reading (its output failed) stops the workers: nothing hangs.
    @Test func aFailedEmitStopsTheWorkers() throws {
        struct Full: Error {}
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: false)
        var taken = 0
        #expect(throws: Full.self) {
            _ = try Analyzer().stream(
                path: path, options: CheckOptions(), replayWorkers: 3,
                emit: { _ in
                    taken += 1
                    if taken == 5 { throw Full() }
                }, reject: { _, _ in })
        }
        #expect(taken == 5)
    }
}

/// Keeps every launch record a replay hands over, in order.
private final class LaunchCollector: DerivedRecordSink {
    var records: [LaunchRecord] = []
    var takesWork: Bool { false }
    func record(_ record: consuming LaunchRecord) { records.append(record) }
    func record(_ record: consuming IntervalRecord) {}
    func record(_ record: consuming TaskRecord) {}
    func record(_ record: consuming RequestRecord) {}
}
