import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// A file being read by a live ingest is not read by another; one left by a dead ingest is
/// taken over after its committed lines; a dead stream's row becomes `interrupted`.
@Suite struct FileClaimTests {
    private func registration(_ sha: String?) -> FileRegistration {
        FileRegistration(path: "f-\(sha ?? "stream")", size: 1, sha256: sha, compression: "none")
    }

    /// Registers a file under `claim` and commits its first `lines` lines.
    private func startFile(_ store: Store, sha: String?, claim: IngestClaim, lines: Int) throws -> Int64 {
        let writer = EventWriter(store: store, claim: claim)
        let fileID = try writer.transaction { try #require(try $0.register(registration(sha)).fileID) }
        var batch = IngestBatch(fileID: fileID)
        batch.append(Event(ts: Timestamp(microseconds: 1), device: "D", launch: "L", name: "launch", seq: 0), line: 1)
        batch.throughLine = lines
        try writer.write(batch)
        return fileID
    }

    @Test func aFileClaimedByALiveIngestIsNeitherRegisteredNorResumedByAnother() throws {
        let db = try TemporaryDatabase()
        let owner = IngestClaim.begin()
        defer { owner.end() }
        let fileID = try startFile(db.store, sha: "a", claim: owner, lines: 5)

        let admission = try db.store.admission(sha256: "a")
        guard case .busy(.beingIngested(let pid, _)) = admission else {
            Issue.record("expected busy, got \(admission)")
            return
        }
        #expect(pid == getpid())
        #expect(admission.skipReason?.hasPrefix("being ingested by process \(getpid()) since 20") == true)

        let other = IngestClaim.begin()
        defer { other.end() }
        let writer = EventWriter(store: db.store, claim: other)
        let registered = try writer.transaction { try $0.register(registration("a")) }
        let resumed = try writer.transaction { try $0.resume(fileID: fileID, linesDone: 5) }
        #expect(registered.fileID == nil)
        #expect(resumed.fileID == nil)
    }

    @Test func aFileLeftByADeadIngestIsTakenOverAfterItsCommittedLines() throws {
        let db = try TemporaryDatabase()
        let owner = IngestClaim.begin()
        let fileID = try startFile(db.store, sha: "a", claim: owner, lines: 5)
        owner.end()  // what a kill -9 does to the claim: its owner is gone

        #expect(try db.store.admission(sha256: "a") == .resume(fileID: fileID, linesDone: 5))
        let next = IngestClaim.begin()
        defer { next.end() }
        let writer = EventWriter(store: db.store, claim: next)
        // A reader that looked before another one moved the file on is refused, not let in twice.
        #expect(try writer.transaction { try $0.resume(fileID: fileID, linesDone: 3) }.fileID == nil)
        #expect(try writer.transaction { try $0.resume(fileID: fileID, linesDone: 5) } == .claimed(fileID: fileID))
        let claimedBy = try db.store.read { try Int64.fetchOne($0, sql: "SELECT claim_run FROM files WHERE id = ?", arguments: [fileID]) }
        #expect(claimedBy == next.run)
        // Now the new owner is alive: a third ingest keeps out.
        guard case .busy = try db.store.admission(sha256: "a") else {
            Issue.record("expected busy")
            return
        }
    }

    @Test func aLiveProcessIsTheOwnerOnlyWithItsOwnStartTime() throws {
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        let pid = child.processIdentifier
        let start = try #require(IngestClaim.startToken(of: pid))
        #expect(IngestClaim(pid: pid, start: start, run: 1).ownerIsAlive)
        // The same pid with another start time is a reused pid: its owner is gone.
        #expect(!IngestClaim(pid: pid, start: start + "0", run: 1).ownerIsAlive)
        kill(pid, SIGKILL)
        child.waitUntilExit()
        #expect(!IngestClaim(pid: pid, start: start, run: 1).ownerIsAlive)
    }

    @Test func aDeadStreamBecomesInterruptedAndKeepsItsEventsWhileAFileStaysResumable() throws {
        let db = try TemporaryDatabase()
        let dead = IngestClaim.begin()
        let stream = try startFile(db.store, sha: nil, claim: dead, lines: 3)
        let file = try startFile(db.store, sha: "a", claim: dead, lines: 3)
        let live = IngestClaim.begin()
        defer { live.end() }
        let liveStream = try startFile(db.store, sha: nil, claim: live, lines: 1)
        dead.end()

        #expect(try db.store.interruptAbandonedStreams() == 1)
        let status = { (id: Int64) in
            try db.store.read { try String.fetchOne($0, sql: "SELECT status FROM files WHERE id = ?", arguments: [id]) }
        }
        #expect(try status(stream) == "interrupted")
        #expect(try status(file) == "ingesting")
        #expect(try status(liveStream) == "ingesting")
        #expect(try db.store.files().first { $0.id == stream }?.status == .interrupted)
        let events = try db.store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") }
        #expect(events == 1)
        #expect(try db.store.admission(sha256: "a") == .resume(fileID: file, linesDone: 3))
    }
}
