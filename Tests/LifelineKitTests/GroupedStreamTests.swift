import Foundation
@testable import LifelineKit
import Testing
import TraceModel
import TraceSynth

/// `check --stdin --grouped`: a stream that holds each device's lines together is replayed device
/// after device, each finished when the next begins — the same findings and launches as a replay
/// that keeps every device to the end, and a clear error when a device comes back.
@Suite struct GroupedStreamTests {
    /// Every device's lines together, device after device, with v1.1 kinds, injected breaches,
    /// a few bad lines, a launch's events slightly out of `seq` order, and with `cut` the
    /// stream's end cut short in the middle of a zstd frame.
    static func stream(in workspace: Workspace, cut: Bool) throws -> String {
        let spec = GeneratedCorpusTests.v1_1(devices: 19, days: 2, seed: 29, breachRate: 0.3)
        let generator = TraceGenerator(spec: spec)
        var random = SplitMix64(29)
        var lines: [String] = []
        for device in 0 ..< spec.devices {
            var deviceLines = (0 ..< spec.days).flatMap { generator.lines(device: device, day: $0) }
            if deviceLines.count > 12, Bool.random(using: &random) { deviceLines.swapAt(5, 9) }
            lines += deviceLines
            if device % 5 == 0 { lines.append(#"{"ts": "not a time", "device": "X"}"#) }
        }
        guard cut else { return try workspace.write("grouped.jsonl", lines: lines) }
        return try workspace.zstdCutShort(
            "grouped.jsonl.zst", first: Array(lines.dropLast(200)), second: Array(lines.suffix(200)))
    }

    static func replay(
        _ path: String, workers: Int, grouped: Bool
    ) throws -> (findings: [Finding], launches: [LaunchRecord], totals: Analyzer.StreamTotals) {
        try ParallelReplayTests.replay(path, workers: workers, grouped: grouped)
    }

    @Test(arguments: [false, true])
    func groupedFindsWhatTheWholeStreamReplayFinds(cut: Bool) throws {
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: cut)
        let whole = try Self.replay(path, workers: 1, grouped: false)
        let grouped = try Self.replay(path, workers: 1, grouped: true)
        #expect(whole.findings.count > 80)
        #expect(whole.launches.contains(where: \.logCutShort) == cut)
        // The same findings and launches; only when a device's end-of-log findings come differs.
        #expect(grouped.findings.sorted(by: inStreamOrder) == whole.findings.sorted(by: inStreamOrder))
        #expect(grouped.launches.map(\.launch).sorted() == whole.launches.map(\.launch).sorted())
        #expect(Set(grouped.launches.map(withoutNumber)) == Set(whole.launches.map(withoutNumber)))
        #expect(grouped.totals.devices == whole.totals.devices)
        #expect(grouped.totals.devices == 19)
        #expect(grouped.totals.events == whole.totals.events && grouped.totals.rejects == whole.totals.rejects)
        #expect(grouped.totals.findingsByRule == whole.totals.findingsByRule)
    }

    /// Each device is finished before the next one's first event: its findings, those its log's
    /// end made evident included, all come before the next device's.
    @Test func findingsComeDeviceAfterDevice() throws {
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: false)
        let devices = try Self.replay(path, workers: 1, grouped: true).findings.map(\.device)
        let runs = devices.indices.filter { $0 == 0 || devices[$0] != devices[$0 - 1] }.map { devices[$0] }
        #expect(runs.count == Set(devices).count, "a device's findings came in \(runs.count - Set(devices).count) extra runs")
        #expect(runs.count > 10)
        let wholeDevices = try Self.replay(path, workers: 1, grouped: false).findings.map(\.device)
        #expect(wholeDevices != devices, "the whole-stream replay keeps end-of-log findings to the end")
    }

    @Test(arguments: [false, true])
    func anyNumberOfWorkersReportsWhatOneDoes(cut: Bool) throws {
        let workspace = try Workspace()
        let path = try Self.stream(in: workspace, cut: cut)
        let one = try Self.replay(path, workers: 1, grouped: true)
        for workers in [2, 3, 8] {
            let many = try Self.replay(path, workers: workers, grouped: true)
            #expect(many.findings == one.findings, "\(workers) workers")
            #expect(many.launches == one.launches, "\(workers) workers")
            #expect(many.totals.devices == one.totals.devices && many.totals.events == one.totals.events)
        }
    }

    /// A device that comes back after another stops the replay with its line and its id (shown
    /// escaped: an id is input).
    @Test(arguments: [1, 3])
    func aDeviceThatComesBackIsAnError(workers: Int) throws {
        let workspace = try Workspace()
        let odd = "D\u{0}\u{1B}[31mü"
        let escaped = #"D\u0000\u001b[31mü"#
        let lines = launchLines(device: escaped, launch: "L1", count: 4)
            + launchLines(device: "B", launch: "L2", count: 4)
            + launchLines(device: escaped, launch: "L3", count: 4)
        let path = try workspace.write("back.jsonl", lines: lines)
        #expect {
            _ = try Analyzer().stream(
                path: path, options: CheckOptions(), replayWorkers: workers, grouped: true,
                emit: { _ in }, reject: { _, _ in })
        } throws: { error in
            guard let returned = error as? DeviceReturnedError else { return false }
            return returned.line == 9 && returned.device == odd
                && String(describing: returned).hasPrefix(#"line 9: device "D\u{0}\u{1B}[31mü" came back after"#)
        }
        // Without --grouped the same stream is fine.
        _ = try Analyzer().stream(
            path: path, options: CheckOptions(), replayWorkers: workers, emit: { _ in }, reject: { _, _ in })
    }

    /// A device id of 100 kB that comes back is named by its first 80 characters and its length,
    /// not printed whole.
    @Test func aHugeDeviceIdThatComesBackIsShownCut() throws {
        let workspace = try Workspace()
        let huge = String(repeating: "d", count: 100_000)
        let lines = launchLines(device: huge, launch: "L1", count: 3) + launchLines(device: "B", launch: "L2", count: 3)
            + launchLines(device: huge, launch: "L3", count: 3)
        let path = try workspace.write("huge.jsonl", lines: lines)
        #expect {
            _ = try Analyzer().stream(
                path: path, options: CheckOptions(), grouped: true, emit: { _ in }, reject: { _, _ in })
        } throws: { error in
            let text = String(describing: error)
            return text.hasPrefix("line 7: device \"" + String(repeating: "d", count: 80) + "\"… (100000 bytes) came back")
                && text.utf8.count < 500
        }
    }

    /// Seeded streams of four devices, each device's lines cut into one to three runs, the runs
    /// shuffled: `--grouped` refuses exactly the streams in which a device comes back, at the
    /// first line of its return, and finds in the others what the whole-stream replay finds.
    @Test func refusesExactlyTheStreamsWhereADeviceComesBack() throws {
        let workspace = try Workspace()
        let generator = TraceGenerator(spec: GeneratedCorpusTests.v1_1(devices: 4, days: 2, seed: 5, breachRate: 0.3))
        let deviceLines = (0 ..< 4).map { device in (0 ..< 2).flatMap { generator.lines(device: device, day: $0) } }
        var refused = 0
        for seed in 0 ..< 40 {
            var random = SplitMix64(UInt64(seed))
            var runs: [(device: Int, lines: ArraySlice<String>)] = []
            for (device, lines) in deviceLines.enumerated() {
                let cuts = (0 ..< Int.random(in: 0 ... 2, using: &random)).map { _ in Int.random(in: 1 ..< lines.count, using: &random) }
                let bounds = [0] + Set(cuts).sorted() + [lines.count]
                runs += zip(bounds, bounds.dropFirst()).map { (device, lines[$0 ..< $1]) }
            }
            if seed % 3 != 0 { runs.shuffle(using: &random) }
            // The first line of a device that comes back, if one does.
            var expected: Int?
            var finished = Set<Int>(), current: Int?, line = 1
            for run in runs where expected == nil {
                if run.device != current {
                    if let current { finished.insert(current) }
                    if finished.contains(run.device) { expected = line }
                    current = run.device
                }
                line += run.lines.count
            }
            let path = try workspace.write("shuffled-\(seed).jsonl", lines: runs.flatMap(\.lines))
            let whole = try Self.replay(path, workers: 1, grouped: false)
            #expect(whole.totals.rejects == 0)
            do {
                let grouped = try Self.replay(path, workers: seed % 2 == 0 ? 1 : 3, grouped: true)
                #expect(expected == nil, "seed \(seed): a device came back at line \(expected ?? 0) and was not refused")
                #expect(grouped.findings.sorted(by: inStreamOrder) == whole.findings.sorted(by: inStreamOrder), "seed \(seed)")
            } catch let error as DeviceReturnedError {
                refused += 1
                #expect(error.line == expected, "seed \(seed)")
            }
        }
        #expect(refused > 10 && refused < 40, "both kinds of stream were tried")
    }
}
