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

    @Test func theStreamSaysTheLaunchWasCutShort() throws {
        let workspace = try Workspace()
        let file = try cutFile(in: workspace)
        var findings: [Finding] = []
        _ = try Analyzer().stream(path: file, options: CheckOptions(), emit: { findings.append($0) }, reject: { _, _ in })
        let finding = try #require(findings.first { $0.rule == "log-ended-with-open-work" })
        #expect(finding.message.contains("cut short"))
    }
}
