import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore
import TraceSynth

/// The packed copy of a launch's events (`event_packs`) gives the replay exactly what the event
/// rows give, and gives way to the rows whenever it cannot vouch for all of them.
@Suite struct EventPackTests {
    /// One event as the replay reads it, texts decoded, every value compared.
    private struct ReadEvent: Equatable {
        var device, launch, name: String
        var process: String?
        var rowID, ts: Int64
        var seq, task: Int64?
        var mono: Double?
        var success: Bool?
        var texts: [String?]
    }

    private static func read(_ store: Store) throws -> [ReadEvent] {
        var events: [ReadEvent] = []
        try store.forEachRow { row in
            let text = { (column: StoredRow.TextColumn) in row.bytes(column).map { String(decoding: $0, as: UTF8.self) } }
            events.append(ReadEvent(
                device: row.launch.device, launch: row.launch.name, name: text(.event) ?? "", process: row.launch.process,
                rowID: row.rowID, ts: row.fields.ts.microseconds, seq: row.fields.seq, task: row.fields.task,
                mono: row.fields.mono, success: row.fields.success,
                texts: [.phase, .reason, .cause, .identifier, .call, .result, .attrs].map(text)))
        }
        return events
    }

    private static func packs(_ store: Store) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM event_packs") ?? -1 }
    }

    private static func event(
        _ seq: Int64?, _ name: String = "snapshot", launch: String = "L1", ts: Int64 = 1_000_000, mono: Double? = nil,
        task: Int64? = nil, success: Bool? = nil, identifier: String? = nil, attrs: String? = nil
    ) -> Event {
        Event(ts: Timestamp(microseconds: ts), device: "D1", launch: launch, name: name, seq: seq, mono: mono,
              app: "com.example.news", os: "17.4", process: nil, phase: nil, task: task, identifier: identifier,
              success: success, attrs: attrs)
    }

    private static func ingest(_ store: Store, sha: String, _ events: [Event]) throws {
        let writer = EventWriter(store: store)
        let fileID = try writer.transaction {
            try #require(try $0.register(FileRegistration(path: "f-\(sha)", size: 1, sha256: sha, compression: "zstd")).fileID)
        }
        var batch = IngestBatch(fileID: fileID)
        for (index, event) in events.enumerated() { batch.append(event, line: index + 1) }
        batch.throughLine = events.count
        try writer.write(batch)
    }

    /// A store whose launches take every shape the reader meets: out of `seq` order within a file,
    /// spread over two files (two packs), re-uploaded (duplicates add nothing), without `seq`,
    /// and holding values at their extremes.
    private static func varied() throws -> TemporaryDatabase {
        let db = try TemporaryDatabase()
        try ingest(db.store, sha: "a", [
            event(2, ts: 30), event(0, "launch", ts: 10), event(1, ts: 20, mono: -0.0, success: true),
            event(3, launch: "L2", ts: 5, mono: .nan, task: .min, success: false, identifier: "a\u{0}b", attrs: String(repeating: "é", count: 5000)),
            event(nil, "memoryWarning", launch: "L3", ts: .max), event(nil, "snapshot", launch: "L3", ts: .min),
            event(Int64(Int32.max) * 4, "snapshot", launch: "L3", ts: 0, mono: .infinity, task: .max, identifier: ""),
        ])
        try ingest(db.store, sha: "b", [
            event(5, "com.example.custom", ts: 50), event(1, ts: 20, mono: -0.0, success: true), event(4, ts: 40, mono: 1.5),
            event(nil, "memoryWarning", launch: "L3", ts: .max), event(nil, "suspend", launch: "L3", ts: 7),
        ])
        return db
    }

    @Test func packsGiveTheReplayWhatTheRowsGive() throws {
        let db = try Self.varied()
        #expect(try Self.packs(db.store) == 5, "one pack per launch per write: L1 and L3 twice, L2 once")
        let packed = try Self.read(db.store)
        try db.store.write { try $0.execute(sql: "DELETE FROM event_packs") }
        let rows = try Self.read(db.store)
        #expect(packed.count == 10)
        #expect(packed.map(\.seq) == rows.map(\.seq))
        #expect(packed.map(\.name) == rows.map(\.name))
        #expect(zip(packed, rows).allSatisfy { a, b in
            a.mono.map { $0.bitPattern } == b.mono.map { $0.bitPattern } && { var a = a, b = b; a.mono = nil; b.mono = nil; return a == b }()
        }, "every value, -0 and infinity to the bit")
        #expect(packed.first { $0.launch == "L1" }?.seq == 0, "a launch is read in seq order, whatever order it arrived in")
        #expect(packed.contains { $0.name == "com.example.custom" }, "a name no kind has is packed as its text")
    }

    /// The reader decodes each event into a slot that held another event before (its array is
    /// reused launch after launch): an event with none of the optional fields, read after one
    /// with all of them, must come out with none, and a name packed as text with no kind.
    @Test func anEventReadIntoAReusedSlotKeepsNothingOfTheOneBefore() throws {
        let db = try TemporaryDatabase()
        try Self.ingest(db.store, sha: "a", [
            Event(ts: Timestamp(microseconds: 0), device: "D1", launch: "full", name: "bgtask.submit", seq: 0, mono: 1.5,
                  app: "com.example.news", phase: "begin", reason: "system", cause: "fetch", task: 7, identifier: "refresh",
                  call: "c1", success: true, result: "newData", attrs: #"{"type":"refresh"}"#),
            Event(ts: Timestamp(microseconds: 10), device: "D1", launch: "bare", name: "com.example.custom", seq: 0),
        ])
        var read: [(launch: String, kind: EventKind?, fields: [String])] = []
        try db.store.forEachRow { row in
            let f = row.fields
            var texts: [String] = [f.phase, f.reason, f.cause, f.identifier, f.call, f.result, f.attrs].map {
                $0.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
            }
            texts.append(f.mono.map { "\($0)" } ?? "nil")
            texts.append(f.task.map { "\($0)" } ?? "nil")
            texts.append(f.success.map { "\($0)" } ?? "nil")
            read.append((row.launch.name, f.kind, texts))
        }
        try #require(read.count == 2)
        #expect(read[0].launch == "full" && read[0].kind == .bgtaskSubmit)
        #expect(read[0].fields == ["begin", "system", "fetch", "refresh", "c1", "newData", #"{"type":"refresh"}"#, "1.5", "7", "true"])
        #expect(read[1].launch == "bare" && read[1].kind == nil, "a name packed as its text has no kind, whatever the slot held")
        #expect(read[1].fields == Array(repeating: "nil", count: 10))
    }

    /// A launch whose pack breaks off half-way, read between two launches from their packs: the
    /// reader stops decoding into its reused slots, reads that launch's rows, and goes on with
    /// the next launch's pack; nothing of the launch read before (extreme values, NUL, a long
    /// text) shows in either.
    @Test func aPackBrokenOffBetweenGoodOnesGivesWayToItsRowsAlone() throws {
        let db = try TemporaryDatabase()
        let long = String(repeating: "é", count: 2000)
        let before = (0 ..< 50).map { (index: Int) -> Event in
            let even = index % 2 == 0
            let mono: Double = even ? .infinity : -0.0
            let task: Int64 = even ? .min : .max
            return Self.event(Int64(index), "bgtask.submit", launch: "before", ts: Int64(index), mono: mono, task: task,
                              success: true, identifier: "a\u{0}b\(index)", attrs: long)
        }
        let broken = (0 ..< 20).map { Self.event(Int64($0), launch: "broken", ts: 1000 + Int64($0)) }
        let after = (0 ..< 5).map { Self.event(Int64($0), "suspend", launch: "after", ts: 2000 + Int64($0)) }
        try Self.ingest(db.store, sha: "a", before + broken + after)
        try db.store.write { db in
            try db.execute(sql: """
                UPDATE event_packs SET packed = substr(packed, 1, length(packed) / 2)
                WHERE launch_id = (SELECT id FROM launch_rows WHERE name = 'broken')
                """)
        }
        let read = try Self.read(db.store)
        try db.store.write { try $0.execute(sql: "DELETE FROM event_packs") }
        let rows = try Self.read(db.store)
        #expect(read.count == 75)
        #expect(read == rows, "the broken launch from its rows, the others from their packs, all as the rows give them")
        let others = read.filter { $0.launch != "before" }
        let bare = others.filter { event in event.mono == nil && event.task == nil && !event.texts.contains { $0 != nil } }
        #expect(bare.count == 25, "no value of the launch before in the launches after it")
    }

    @Test func theReplayReadsThePacks() throws {
        let db = try Self.varied()
        try db.store.write { db in
            try db.execute(sql: """
                DROP TRIGGER event_rows_updated_unpack;
                UPDATE event_rows SET event = 'only in the rows';
                """)
        }
        #expect(try !Self.read(db.store).contains { $0.name == "only in the rows" },
                "with the trigger gone, a change to the rows shows that every launch was read from its packs")
    }

    @Test func aLaunchTooLargeToHoldIsStreamedFromItsRows() throws {
        let db = try TemporaryDatabase()
        let large = Int(StoredRowReader.largestPackedLaunch.events) + 1
        try Self.ingest(db.store, sha: "a", (0 ..< large).map { Self.event(Int64($0), launch: "big", ts: Int64($0)) } + [
            Self.event(0, launch: "small", ts: 0),
        ])
        try db.store.write { db in
            try db.execute(sql: """
                DROP TRIGGER event_rows_updated_unpack;
                UPDATE event_rows SET event = 'only in the rows';
                """)
        }
        let read = try Self.read(db.store)
        #expect(read.count == large + 1)
        #expect(read.filter { $0.launch == "big" }.allSatisfy { $0.name == "only in the rows" })
        #expect(read.filter { $0.launch == "small" }.allSatisfy { $0.name == "snapshot" })
    }

    @Test func aPackLargerThanTheReaderHoldsIsNotWritten() throws {
        let db = try TemporaryDatabase()
        let megabyte = String(repeating: "x", count: 1 << 20)
        let events = StoredRowReader.largestPackedLaunch.bytes >> 20 + 1
        try Self.ingest(db.store, sha: "a", (0 ..< events).map {
            Self.event(Int64($0), launch: "wide", ts: Int64($0), attrs: megabyte)
        } + [Self.event(0, launch: "small", ts: 0)])
        let packed = try db.store.read {
            try String.fetchAll($0, sql: "SELECT l.name FROM event_packs p JOIN launch_rows l ON l.id = p.launch_id")
        }
        #expect(packed == ["small"], "a launch of \(events) MB of events keeps no pack: it is read from its rows")
        let read = try Self.read(db.store)
        #expect(read.count == events + 1)
        #expect(read.filter { $0.launch == "wide" }.allSatisfy { $0.texts.last == megabyte })
    }

    @Test func aLaunchBegunBeforePacksOrChangedByHandIsReadFromItsRows() throws {
        let db = try Self.varied()
        let whole = try Self.read(db.store)
        try db.store.write { try $0.execute(sql: "DELETE FROM event_packs WHERE id = (SELECT min(id) FROM event_packs)") }
        #expect(try Self.read(db.store) == whole, "a launch whose packs hold fewer events than it counts is read from its rows")
        try db.store.write { try $0.execute(sql: "DELETE FROM event_rows WHERE seq = 4") }
        #expect(try Self.packs(db.store) == 3, "deleting an event row drops its launch's packs (L1's two)")
        #expect(try Self.read(db.store).map(\.seq) == whole.map(\.seq).filter { $0 != 4 })
        try db.store.write { try $0.execute(sql: "UPDATE event_rows SET event = 'changed' WHERE seq = 3") }
        #expect(try Self.packs(db.store) == 2, "updating one drops them too (L2's)")
        #expect(try Self.read(db.store).contains { $0.name == "changed" })
    }

    @Test func aPackThatDoesNotDecodeGivesWayToTheRows() throws {
        let db = try Self.varied()
        let whole = try Self.read(db.store)
        let damages = [
            "x''", "x'00'", "x'ff'", "substr(packed, 1, length(packed) - 1)", "packed || x'00'", "x'ffffffffffffffffffff01'",
            "x'8040'", "zeroblob(length(packed))",
        ]
        for damage in damages {
            let copy = try Self.varied()
            try copy.store.write { try $0.execute(sql: "UPDATE event_packs SET packed = \(damage)") }
            #expect(try Self.read(copy.store) == whole, "packed = \(damage)")
        }
        let counted = try Self.varied()
        try counted.store.write { try $0.execute(sql: "UPDATE event_packs SET events = events + 1 WHERE id = 1; UPDATE event_packs SET events = events - 1 WHERE id = 2") }
        #expect(try Self.read(counted.store) == whole, "packs whose counts add up but whose records do not")
    }

    @Test func aDuplicateAddsNoPackAndARolledBackWriteLeavesNone() throws {
        let db = try TemporaryDatabase()
        try Self.ingest(db.store, sha: "a", [Self.event(0), Self.event(1)])
        try Self.ingest(db.store, sha: "b", [Self.event(1), Self.event(0)])
        #expect(try Self.packs(db.store) == 1)
        struct Abort: Error {}
        let writer = EventWriter(store: db.store)
        #expect(throws: (any Error).self) {
            try writer.transaction { transaction in
                var batch = IngestBatch(fileID: 1)
                batch.append(Self.event(2), line: 3)
                batch.throughLine = 3
                try transaction.write(batch)
                throw Abort()
            }
        }
        #expect(try Self.packs(db.store) == 1)
        #expect(try Self.read(db.store).map(\.seq) == [0, 1])
    }

    /// Packs name events by number, so the list of numbered names is part of the stored format:
    /// it may only grow, at its end, and it names every kind this build knows.
    @Test func numberedNamesOnlyGrowAndNameEveryKind() {
        let stored = [
            "launch", "willFinishLaunching", "restoreState", "didFinishLaunching", "didBecomeActive",
            "willResignActive", "didEnterBackground", "willEnterForeground", "willTerminate", "memoryWarning",
            "snapshot", "suspend", "resume", "terminate", "beginBackgroundTask", "endBackgroundTask",
            "backgroundTaskExpired", "backgroundTimeRemaining", "expiringActivity", "config", "bgtask.register",
            "bgtask.submit", "bgtask.cancel", "bgtask.launch", "bgtask.expire", "bgtask.complete",
            "fetch.setMinimumInterval", "fetch.perform", "fetch.complete", "push.receive", "push.complete",
            "urlsession.create", "urlsession.handleEvents", "urlsession.didFinishEvents", "urlsession.complete",
            "nse.receive", "nse.timeWillExpire", "nse.contentHandler", "location.update", "power",
            "refreshStatus", "network", "scene.willConnect", "scene.willEnterForeground",
            "scene.didBecomeActive", "scene.willResignActive", "scene.didEnterBackground", "scene.didDisconnect",
            "resource.acquire", "resource.release", "urlsession.task.create",
            "urlsession.willBeginDelayedRequest", "urlsession.delayedRequest.complete",
            "urlsession.task.complete",
        ]
        #expect(Array(EventPack.numberedNames.prefix(stored.count)) == stored, "a number already stored names the same event")
        for kind in EventKind.allCases where kind != .other {
            #expect(EventPack.numberedNames.contains(kind.rawValue), "\(kind.rawValue): append it to EventPack.numberedNames")
        }
        #expect(Set(EventPack.numberedNames).count == EventPack.numberedNames.count)
    }

    /// Seeded: every prefix and every one-byte change of a real pack decodes or throws, never traps.
    @Test func damagedPackBytesNeverTrap() throws {
        let encoder = EventPackEncoder()
        for seq in 0 ..< 40 {
            let body = ByteBuffer()
            let event = Self.event(Int64(seq), mono: Double(seq) / 3, task: -Int64(seq), success: seq % 2 == 0, identifier: "id\(seq)", attrs: "{}")
            EventPack.appendBody(of: event, to: body)
            encoder.append(rowID: (7 << 32) | Int64(seq), ts: event.ts.microseconds, contextID: 3, body: body.bytes)
        }
        let bytes = Array(encoder.bytes)
        var generator = SplitMix64(0x5EED)
        var variants = (0 ..< bytes.count).map { Array(bytes[..<$0]) }
        for _ in 0 ..< 2000 {
            var changed = bytes
            changed[Int.random(in: 0 ..< changed.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
            variants.append(changed)
        }
        var decodedWhole = 0
        for variant in variants {
            variant.withUnsafeBytes { raw in
                var decoder = EventPackDecoder(raw)
                var records = 0
                var values = StoredEventValues(rowID: 0, ts: 0, contextID: 0, name: UnsafeRawBufferPointer(start: nil, count: 0))
                do {
                    while try decoder.next(into: &values) { records += 1 }
                    if records == 40 { decodedWhole += 1 }
                } catch {}
            }
        }
        #expect(decodedWhole > 0, "some one-byte changes fall in text and still decode: the reader then compares counts and row ids")
    }
}
