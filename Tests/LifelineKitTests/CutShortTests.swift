import Foundation
import GRDB
import LifelineKit
import TraceStore
import Testing
import TraceModel

/// A launch whose file was cut short (the app died mid-write): the work it left open is reported
/// as log-ended-with-open-work saying so, from the store (`files.truncated`) and from `--stdin`.
@Suite struct CutShortTests {
    private static let kept = [
        #"{"ts":1763712000,"device":"D1","launch":"L1","seq":0,"event":"launch","reason":"system","cause":"urlsession"}"#,
        #"{"ts":1763712000.1,"device":"D1","launch":"L1","seq":1,"event":"urlsession.create","identifier":"s"}"#,
        #"{"ts":1763712000.2,"device":"D1","launch":"L1","seq":2,"event":"didEnterBackground","phase":"begin"}"#,
        #"{"ts":1763712000.3,"device":"D1","launch":"L1","seq":3,"event":"didEnterBackground","phase":"end"}"#,
        #"{"ts":1763712001,"device":"D1","launch":"L1","seq":4,"event":"urlsession.handleEvents","identifier":"s","call":1}"#,
    ]

    /// Two zstd frames, the second cut in the middle: only the first frame's lines survive.
    private func cutFile(in workspace: Workspace) throws -> String {
        try workspace.zstdCutShort(
            "logs/cut.jsonl.zst", first: Self.kept,
            second: (5 ..< 400).map { #"{"ts":1763712002,"device":"D1","launch":"L1","seq":\#($0),"event":"network","reachable":true}"# })
    }

    @Test func theStoreSaysTheLaunchWasCutShort() throws {
        let workspace = try Workspace()
        let file = try cutFile(in: workspace)
        try Self.expectCutShort(file, in: workspace)
    }

    /// Ids that hold a NUL and non-ASCII text name their launch cut short all the same: the reader
    /// hands them on byte for byte, and the replay finds the launch by them.
    @Test func aLaunchWithHostileIdsIsCutShortToo() throws {
        let workspace = try Workspace()
        let rename = { (line: String) in
            line.replacingOccurrences(of: #""device":"D1""#, with: #""device":"D\u0000 \u00fc1""#)
                .replacingOccurrences(of: #""launch":"L1""#, with: #""launch":"L\u00001""#)
        }
        let file = try workspace.zstdCutShort(
            "logs/hostile.jsonl.zst", first: Self.kept.map(rename),
            second: (5 ..< 400).map { rename(#"{"ts":1763712002,"device":"D1","launch":"L1","seq":\#($0),"event":"network","reachable":true}"#) })
        let finding = try Self.expectCutShort(file, in: workspace)
        #expect(finding.device == "D\u{0} ü1")
        #expect(finding.launch == "L\u{0}1")
    }

    @discardableResult
    private static func expectCutShort(_ file: String, in workspace: Workspace) throws -> Finding {
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([file])
        let report = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        var findings: [Finding] = []
        try report.findings.forEach { findings.append($0) }
        let finding = try #require(findings.first { $0.rule == "log-ended-with-open-work" })
        #expect(finding.message.contains("the file holding its last event was cut short"))
        #expect(!findings.contains { $0.rule == "urlsession-completion-missing" })
        return finding
    }

    /// The reader finds the launches cut short launch by launch, each before its first event,
    /// from its packs or, without them, from its rows: the same launches as one question of the
    /// whole store finds.
    @Test(arguments: [false, true])
    func theReaderFindsTheLaunchesCutShortAsTheStoreDoes(readingRows: Bool) throws {
        let workspace = try Workspace()
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([try workspace.fieldCorpus(devices: 30, seed: 11)])
        if readingRows { try store.write { try $0.execute(sql: "DELETE FROM event_packs") } }
        var found: [String] = []
        var started: Set<String> = []
        var saidBeforeItsEvents = true
        try store.forEachRow { row in
            started.insert(row.launch.device + "/" + row.launch.name)
        } cutShort: { device, launch in
            if started.contains(device + "/" + launch) { saidBeforeItsEvents = false }
            found.append(device + "/" + launch)
        }
        let expected = try cutShortLaunches(in: store).map { $0.device + "/" + $0.launch }
        #expect(expected.count > 1)
        #expect(found == expected)
        #expect(saidBeforeItsEvents)
    }

    /// Of the launches whose last event lies in the cut file, one that logged its terminate lost
    /// nothing at its end: only the one still open at the cut is marked.
    @Test func aLaunchThatLoggedItsTerminateIsNotMarkedCutShort() throws {
        let workspace = try Workspace()
        let ended = [
            #"{"ts":1763711000,"device":"D1","launch":"L0","seq":0,"event":"launch","reason":"user"}"#,
            #"{"ts":1763711000.1,"device":"D1","launch":"L0","seq":1,"event":"didBecomeActive"}"#,
            #"{"ts":1763711100,"device":"D1","launch":"L0","seq":2,"event":"terminate","reason":"user"}"#,
        ]
        let file = try workspace.zstdCutShort(
            "logs/cut.jsonl.zst", first: ended + Self.kept,
            second: (5 ..< 400).map { #"{"ts":1763712002,"device":"D1","launch":"L1","seq":\#($0),"event":"network","reachable":true}"# })
        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([file])
        _ = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        let marked = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT launch, log_cut_short FROM launches ORDER BY first_ts")
                .map { "\($0["launch"] as String)=\($0["log_cut_short"] as Int)" }
        }
        #expect(marked == ["L0=0", "L1=1"])
    }

    /// A cut file followed by the next upload in one stream (`cat uploads/* | check --stdin`): the
    /// launch logging when the file was cut is said to be cut short, as the store says of it,
    /// though the stream goes on and a later launch supersedes it.
    @Test func aCutInsideAConcatenatedStreamIsSaidAsTheStoreSaysIt() throws {
        let workspace = try Workspace()
        // Cut 20 bytes into its second frame, so the reader finds the next upload's frame after it.
        let first = try workspace.write("logs/cut.jsonl", lines: Self.kept)
        let second = try workspace.write("logs/lost.jsonl", lines: (5 ..< 400).map {
            #"{"ts":1763712002,"device":"D1","launch":"L1","seq":\#($0),"event":"network","reachable":true}"#
        })
        let cut = first + ".zst"
        #expect(try shell("zstd -q -c \(first) > \(cut) && zstd -q -c \(second) | head -c 20 >> \(cut) && rm \(first) \(second)") == 0)
        // Long enough that the decoder finds the cut frame damaged in it (a few bytes would end the
        // stream inside the cut frame, and be lost with it).
        let next = try workspace.write("logs/next.jsonl", lines: [
            #"{"ts":1763800000,"device":"D1","launch":"L2","seq":0,"event":"launch","reason":"user"}"#,
        ] + (1 ..< 1500).map { #"{"ts":\#(1763800000 + $0),"device":"D1","launch":"L2","seq":\#($0),"event":"network","reachable":\#($0 % 3 == 0)}"# })
        #expect(try shell("zstd -q --rm \(next) -o \(next).zst && cat \(cut) \(next).zst > \(workspace.path("stream.zst"))") == 0)
        var findings: [Finding] = []
        let totals = try Analyzer().stream(
            path: workspace.path("stream.zst"), options: CheckOptions(), emit: { findings.append($0) }, reject: { _, _ in })
        #expect(totals.damage.count == 1 && totals.events == Self.kept.count + 1500)
        let open = try #require(findings.first { $0.rule == "log-ended-with-open-work" && $0.launch == "L1" })
        #expect(open.message.contains("a new launch began") && open.message.contains("cut short"), "\(open.message)")

        let store = try workspace.store()
        _ = Ingestor(store: store).ingest([cut, next + ".zst"])
        let report = try Analyzer().check(store: store, options: CheckOptions(), version: "test")
        var stored: [Finding] = []
        try report.findings.forEach { stored.append($0) }
        #expect(stored.first { $0.rule == "log-ended-with-open-work" && $0.launch == "L1" }?.message == open.message)
    }

    @Test func theStreamSaysTheLaunchWasCutShort() throws {
        let workspace = try Workspace()
        let file = try cutFile(in: workspace)
        var findings: [Finding] = []
        _ = try Analyzer().stream(path: file, options: CheckOptions(), emit: { findings.append($0) }, reject: { _, _ in })
        let finding = try #require(findings.first { $0.rule == "log-ended-with-open-work" })
        #expect(finding.message.contains("cut short"))
    }
}
