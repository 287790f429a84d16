import Foundation
@testable import LifelineKit
import Testing
import TraceModel
import TraceSynth

/// `check --stdin` of a stream in any order holds at most `--devices-in-memory` devices' replays;
/// the lines of the devices after them wait on disk and are replayed once the stream ends. Each
/// device's replay is the same either way: the same findings, launches and totals as a replay
/// that holds every device, whatever the limit, the number of replay threads, the filters, and
/// however the stream ends.
@Suite struct SpilledStreamTests {
    private typealias Replay = (findings: [Finding], launches: [LaunchRecord], totals: Analyzer.StreamTotals)

    private static func replay(
        _ path: String, workers: Int = 1, options: CheckOptions = CheckOptions(), devicesInMemory: Int
    ) throws -> Replay {
        try ParallelReplayTests.replay(path, workers: workers, options: options, devicesInMemory: devicesInMemory)
    }

    /// The same findings (in another order), launch records and totals.
    private static func expectSame(_ spilled: Replay, as whole: Replay, _ comment: Comment) {
        #expect(spilled.findings.sorted(by: inStreamOrder) == whole.findings.sorted(by: inStreamOrder), comment)
        #expect(spilled.launches.map(\.launch).sorted() == whole.launches.map(\.launch).sorted(), comment)
        #expect(Set(spilled.launches.map(withoutNumber)) == Set(whole.launches.map(withoutNumber)), comment)
        #expect(spilled.totals.devices == whole.totals.devices, comment)
        #expect(spilled.totals.events == whole.totals.events && spilled.totals.decoded == whole.totals.decoded, comment)
        #expect(spilled.totals.lines == whole.totals.lines && spilled.totals.rejects == whole.totals.rejects, comment)
        #expect(spilled.totals.findingsByRule == whole.totals.findingsByRule, comment)
        #expect(spilled.totals.damage == whole.totals.damage, comment)
    }

    @Test(arguments: [false, true])
    func anyLimitFindsWhatHoldingEveryDeviceFinds(cut: Bool) throws {
        let workspace = try Workspace()
        let path = try ParallelReplayTests.stream(in: workspace, cut: cut)
        let whole = try Self.replay(path, devicesInMemory: .max)
        #expect(whole.totals.devices == 23)
        #expect(whole.findings.count > 100)
        #expect(whole.launches.contains(where: \.logCutShort) == cut)
        for limit in [1, 2, 7, 22, 23] {
            Self.expectSame(try Self.replay(path, devicesInMemory: limit), as: whole, "limit \(limit)")
        }
    }

    @Test(arguments: [false, true])
    func anyNumberOfWorkersReportsWhatOneDoes(cut: Bool) throws {
        let workspace = try Workspace()
        let path = try ParallelReplayTests.stream(in: workspace, cut: cut)
        let one = try Self.replay(path, devicesInMemory: 3)
        for workers in [2, 3, 8] {
            let many = try Self.replay(path, workers: workers, devicesInMemory: 3)
            #expect(many.findings == one.findings, "\(workers) workers")
            #expect(many.launches == one.launches, "\(workers) workers")
            #expect(many.totals.devices == one.totals.devices && many.totals.events == one.totals.events)
        }
    }

    /// The devices held are finished when the stream ends; then the spilled ones are replayed one
    /// after another, each device's findings together, in the byte order of their ids.
    @Test func spilledDevicesComeAfterTheHeldOnesDeviceAfterDevice() throws {
        let workspace = try Workspace()
        let path = try ParallelReplayTests.stream(in: workspace, cut: false)
        let held = try Self.replay(path, devicesInMemory: 4).findings
        let devices = held.map(\.device)
        let spilled = try Self.spilled(in: path, limit: 4)
        #expect(spilled.count == 19)
        let lastHeld = try #require(devices.lastIndex { !spilled.contains($0) })
        let after = Array(devices[(lastHeld + 1)...])
        #expect(after.count > 20)
        let runs = after.indices.filter { $0 == 0 || after[$0] != after[$0 - 1] }.map { after[$0] }
        #expect(runs == Array(Set(after)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(Set(devices[...lastHeld]).isDisjoint(with: after))
    }

    /// Seeded streams of six devices' lines in runs shuffled every way, with a random limit: the
    /// findings are always those of the replay that holds them all.
    @Test func shuffledStreamsWithAnyLimit() throws {
        let workspace = try Workspace()
        let generator = TraceGenerator(spec: GeneratedCorpusTests.v1_1(devices: 6, days: 2, seed: 11, breachRate: 0.3))
        let deviceLines = (0 ..< 6).map { device in (0 ..< 2).flatMap { generator.lines(device: device, day: $0) } }
        var spilledSome = 0
        for seed in 0 ..< 30 {
            var random = SplitMix64(UInt64(seed) + 100)
            var runs: [ArraySlice<String>] = []
            for lines in deviceLines {
                let cuts = (0 ..< Int.random(in: 0 ... 4, using: &random)).map { _ in Int.random(in: 1 ..< lines.count, using: &random) }
                let bounds = [0] + Set(cuts).sorted() + [lines.count]
                runs += zip(bounds, bounds.dropFirst()).map { lines[$0 ..< $1] }
            }
            runs.shuffle(using: &random)
            let path = try workspace.write("shuffled-\(seed).jsonl", lines: runs.flatMap { $0 })
            let limit = Int.random(in: 1 ... 6, using: &random)
            if limit < 6 { spilledSome += 1 }
            let whole = try Self.replay(path, devicesInMemory: .max)
            Self.expectSame(try Self.replay(path, workers: seed % 3 + 1, devicesInMemory: limit), as: whole, "seed \(seed)")
        }
        #expect(spilledSome > 20)
    }

    /// `--device`: a device left out is never replayed, so it takes no place among those held and
    /// its lines are not spilled; `--app-version`: the findings of that version's launches only.
    @Test func filtersSeeTheSameDevices() throws {
        let workspace = try Workspace()
        let path = try ParallelReplayTests.stream(in: workspace, cut: false)
        let devices = Array(Set(try Self.replay(path, devicesInMemory: .max).findings.map(\.device))).sorted()
        var onlySome = CheckOptions()
        onlySome.devices = .only(Array(devices.prefix(4)))
        let some = try Self.replay(path, options: onlySome, devicesInMemory: .max)
        #expect(some.totals.devices == 4)
        Self.expectSame(try Self.replay(path, options: onlySome, devicesInMemory: 1), as: some, "--device")

        let text = try String(contentsOfFile: path, encoding: .utf8)
        let versions = text.matches(of: /"app_version":"([^"]+)"/).map { String($0.output.1) }
        let version = try #require(Dictionary(grouping: versions, by: { $0 }).max { $0.value.count < $1.value.count }?.key)
        var oneVersion = CheckOptions()
        oneVersion.apps = AppSelection(version: version)
        let held = try Self.replay(path, options: oneVersion, devicesInMemory: .max)
        #expect(held.totals.appLaunches > 0 && held.findings.count > 0)
        let spilled = try Self.replay(path, options: oneVersion, devicesInMemory: 2)
        #expect(spilled.findings.sorted(by: inStreamOrder) == held.findings.sorted(by: inStreamOrder))
        #expect(spilled.totals.appLaunches == held.totals.appLaunches)
    }

    /// A stream whose last line is a spilled device's, cut short: that device's last launch is
    /// the one cut short, as when every device is held.
    @Test func theCutFallsOnTheSpilledDeviceThatLoggedLast() throws {
        let workspace = try Workspace()
        let lines = launchLines(device: "A", launch: "LA", count: 5) + launchLines(device: "B", launch: "LB", count: 5)
            + launchLines(device: "C", launch: "LC", count: 400)
        // gzip, cut 100 bytes before its end: inflating gives back the lines before the cut.
        let plain = try workspace.write("cut.jsonl", lines: lines)
        #expect(try shell("gzip -c \(plain) > \(plain).gz.whole && head -c $(( $(wc -c < \(plain).gz.whole) - 100 )) \(plain).gz.whole > \(plain).gz") == 0)
        let path = plain + ".gz"
        let whole = try Self.replay(path, devicesInMemory: .max)
        let spilled = try Self.replay(path, devicesInMemory: 1)
        #expect(whole.launches.filter(\.logCutShort).map(\.launch) == ["LC"])
        #expect(whole.totals.events > 300 && !whole.totals.damage.isEmpty)
        Self.expectSame(spilled, as: whole, "cut")
    }

    /// Device ids that are not plain text — a NUL, an escape, non-ASCII, 100 kB — are spilled and
    /// replayed as they came.
    @Test func oddDeviceIdsSurviveTheSpill() throws {
        let workspace = try Workspace()
        let ids = [#"D\u0000\u001b[31mü"#, "plain", String(repeating: "d", count: 100_000), "日本"]
        let lines = ids.enumerated().flatMap { index, id in launchLines(device: id, launch: "L\(index)", count: 6) }
        let path = try workspace.write("odd.jsonl", lines: lines + launchLines(device: "plain", launch: "L9", count: 3))
        let whole = try Self.replay(path, devicesInMemory: .max)
        #expect(whole.totals.devices == 4)
        Self.expectSame(try Self.replay(path, devicesInMemory: 1), as: whole, "odd ids")
    }

    /// The devices spilled with `limit` held: those whose first line comes after `limit` others'.
    private static func spilled(in path: String, limit: Int) throws -> Set<String> {
        var seen: [String] = []
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
            guard let match = line.firstMatch(of: /"device":"([^"]*)"/) else { continue }
            let device = String(match.output.1)
            if !seen.contains(device) { seen.append(device) }
        }
        return Set(seen.dropFirst(limit))
    }
}
