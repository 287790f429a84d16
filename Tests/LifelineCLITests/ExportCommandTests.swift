import Foundation
import Testing

/// `lifeline export` writes a Trace Event Format file that a viewer can open: the structure
/// the format requires (phases, microsecond times, matched async begin/end, names for the
/// process and every thread), states that do not overlap, and the same findings as `timeline`.
@Suite(.serialized) struct ExportCommandTests {
    static let database = GoldenOutputTests.sample.database
    static let device = GoldenOutputTests.device

    static func events(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try CLI.run(["export", device, "--db", database] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["traceEvents"] as? [[String: Any]])
    }

    @Test func theFileHasTheTraceEventFormatsStructure() throws {
        let events = try Self.events([])
        var threadsNamed = Set<Int>()
        var threadsUsed = Set<Int>()
        var open: [Int: Double] = [:]
        var statesByThread: [Int: [(Double, Double)]] = [:]
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(["X", "b", "e", "i", "M"].contains(phase), "\(event)")
            #expect(event["pid"] as? Int == 1)
            if phase == "M" {
                if event["name"] as? String == "thread_name", let tid = event["tid"] as? Int { threadsNamed.insert(tid) }
                continue
            }
            let tid = try #require(event["tid"] as? Int)
            threadsUsed.insert(tid)
            let ts = try #require(event["ts"] as? Double)
            switch phase {
            case "X":
                let duration = try #require(event["dur"] as? Double)
                #expect(duration >= 0)
                statesByThread[tid, default: []].append((ts, ts + duration))
            case "b": open[try #require(event["id"] as? Int)] = ts
            case "e":
                let id = try #require(event["id"] as? Int)
                let begun = open.removeValue(forKey: id)
                let begin = try #require(begun, "an end without its begin")
                #expect(ts >= begin)
            default: #expect(event["s"] as? String == "t")
            }
        }
        #expect(open.isEmpty, "every async begin has its end")
        #expect(threadsUsed.isSubset(of: threadsNamed), "every thread is named")
        #expect(events.contains { $0["name"] as? String == "process_name" })
        for (_, slices) in statesByThread {
            for (earlier, later) in zip(slices, slices.dropFirst()) { #expect(later.0 >= earlier.1, "states never overlap") }
        }
    }

    @Test func itShowsTheSameFindingsAsTheTimeline() throws {
        let instants = try Self.events([]).filter { $0["ph"] as? String == "i" }.compactMap { $0["name"] as? String }
        let timeline = try CLI.run(["timeline", Self.device, "--db", Self.database, "--format", "jsonl"])
        let rules = timeline.stdout.split(separator: "\n").flatMap { line -> [String] in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return (object?["findings"] as? [[String: Any]])?.compactMap { $0["rule"] as? String } ?? []
        }
        #expect(!rules.isEmpty)
        #expect(instants.sorted() == rules.sorted())
    }

    /// The wall clock set back an hour inside didEnterBackground (its `mono` went on by a second):
    /// the callback's slice lasts that second, as `intervals` and the findings say, and the
    /// suspended state begins after the background one rather than an hour before it.
    @Test func slicesLastWhatMonoSaysWhenTheWallClockJumps() throws {
        let directory = try CLI.temporaryDirectory()
        let lines = [
            (0, "08:00:00", 100, #""event":"launch","reason":"user""#), (1, "08:00:01", 101, #""event":"didBecomeActive""#),
            (2, "08:00:02", 102, #""event":"willResignActive""#), (3, "08:00:03", 103, #""event":"didEnterBackground","phase":"begin""#),
            (4, "07:00:04", 104, #""event":"didEnterBackground","phase":"end""#), (5, "07:00:05", 105, #""event":"snapshot""#),
            (6, "07:00:06", 106, #""event":"suspend""#),
        ].map { seq, time, mono, rest in
            #"{"ts":"2026-11-21T\#(time)Z","mono":\#(mono),"device":"clk","launch":"C1","seq":\#(seq),\#(rest)}"#
        }
        let file = directory.appendingPathComponent("clock.jsonl").path
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let database = directory.appendingPathComponent("c.db").path
        #expect(try CLI.run(["ingest", "--quiet", "--db", database, file]).status == 0)
        let result = try CLI.run(["export", "clk", "--db", database])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let events = try #require(object?["traceEvents"] as? [[String: Any]])
        let callback = events.filter { $0["name"] as? String == "didEnterBackground" }.compactMap { $0["ts"] as? Int64 }
        #expect(callback.count == 2 && callback[1] - callback[0] == 1_000_000, "\(callback)")
        let states = events.filter { $0["cat"] as? String == "state" }
        let background = try #require(states.first { $0["name"] as? String == "background" })
        let suspended = try #require(states.first { $0["name"] as? String == "suspended" })
        let backgroundEnd = (background["ts"] as? Int64 ?? 0) + (background["dur"] as? Int64 ?? 0)
        #expect(suspended["ts"] as? Int64 == backgroundEnd, "\(states)")
    }

    @Test func oneLaunchIsOneThread() throws {
        let launch = try CLI.sqlite(Self.database, "SELECT launch FROM events WHERE device = '\(Self.device)' LIMIT 1")
        let tids = Set(try Self.events(["--launch", launch]).compactMap { $0["tid"] as? Int })
        #expect(tids == [1])
    }

    @Test func aDeviceOrLaunchWithNoEventsIsNothingToExport() throws {
        #expect(try CLI.run(["export", "no-such-device", "--db", Self.database]).status == 3)
        #expect(try CLI.run(["export", Self.device, "--launch", "no-such-launch", "--db", Self.database]).status == 3)
    }
}
