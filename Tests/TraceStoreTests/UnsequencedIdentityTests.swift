import Foundation
import GRDB
import Testing
import TraceModel
@testable import TraceStore

/// Events without `seq` are one event exactly when everything stored of them is equal: never
/// merged when they differ in any value, never stored twice when they do not, whatever other
/// writers did in between, and in an upgraded database as in a new one.
@Suite struct UnsequencedIdentityTests {
    private func event(_ name: String = "memoryWarning", launch: String = "L1", ts: Int64 = 5, mono: Double? = 1.5,
                       attrs: String? = #"{"x":1}"#) -> Event {
        Event(ts: Timestamp(microseconds: ts), device: "D1", launch: launch, name: name, mono: mono,
              app: "com.example.news", os: "17.4", attrs: attrs)
    }

    private func batch(_ fileID: Int64, _ events: [Event]) -> IngestBatch {
        var batch = IngestBatch(fileID: fileID)
        for (index, event) in events.enumerated() { batch.append(event, line: index + 1) }
        batch.throughLine = events.count
        return batch
    }

    private func file(_ store: Store, _ sha: String) throws -> Int64 {
        try EventWriter(store: store).transaction {
            try #require(try $0.register(FileRegistration(path: sha, size: 1, sha256: sha, compression: "none")).fileID)
        }
    }

    private func count(_ store: Store) throws -> Int {
        try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") ?? -1 }
    }

    /// Each variant differs from the first in one stored value only.
    @Test func eventsDifferingInAnyOneValueAreAllStored() throws {
        let db = try TemporaryDatabase()
        let base = event()
        var variants = [base]
        func vary(_ change: (inout Event) -> Void) {
            var copy = base
            change(&copy)
            variants.append(copy)
        }
        vary { $0.ts = Timestamp(microseconds: 6) }
        vary { $0.name = "memoryWarnin" }
        vary { $0.mono = 1.25 }
        vary { $0.mono = nil }
        vary { $0.app = "com.example.other" }
        vary { $0.process = "extension:nse" }
        vary { $0.phase = "" }
        vary { $0.reason = "x" }
        vary { $0.cause = "x" }
        vary { $0.task = 0 }
        vary { $0.identifier = "x" }
        vary { $0.call = "1" }
        vary { $0.success = false }
        vary { $0.result = "x" }
        vary { $0.attrs = #"{"x":2}"# }
        vary { $0.attrs = nil }
        vary { $0.name = "memoryWarning\u{0}a" }
        vary { $0.name = "memoryWarning\u{0}b" }
        vary { $0.seq = Int64(1) << 40 }
        let writer = EventWriter(store: db.store)
        let first = try writer.write(batch(try file(db.store, "a"), variants))
        #expect(first == BatchOutcome(inserted: variants.count, duplicates: 0, rejects: 0))
        let again = try writer.write(batch(try file(db.store, "b"), variants.reversed()))
        #expect(again == BatchOutcome(inserted: 0, duplicates: variants.count, rejects: 0))
        #expect(try count(db.store) == variants.count)
    }

    /// `-0.0` and `0.0` are stored alike, so they are one event; an integral `mono` reads back
    /// as the same double.
    @Test func valuesAreComparedAsStored() throws {
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        try writer.write(batch(try file(db.store, "a"), [event(mono: 0), event("b", mono: 3)]))
        let again = try EventWriter(store: db.store).write(batch(try file(db.store, "b"), [event(mono: -0.0), event("b", mono: 3)]))
        #expect(again == BatchOutcome(inserted: 0, duplicates: 2, rejects: 0))
    }

    /// A hash shared by two different events (forced here) only proposes a row: the second is
    /// compared, found different, stored, and found by a later lookup past the first.
    @Test func aHashCollisionStoresBothAndFindsBoth() throws {
        let db = try TemporaryDatabase()
        let fileID = try file(db.store, "a")
        let a = event("a")
        let b = event("b")
        try db.store.write { database in
            let launchID: Int64 = 1
            try database.execute(sql: "INSERT INTO devices (id, name) VALUES (1, 'D1')")
            try database.execute(sql: "INSERT INTO launch_rows (id, device_id, name) VALUES (1, 1, 'L1')")
            try database.execute(sql: "INSERT INTO contexts (id) VALUES (1)")
            let index = try UnsequencedIndex.load(launchID: launchID, knownOrdinals: 0, in: database)
            let collidingKey = UnsequencedContent.hash(b, contextID: 1)
            // `a` is stored under `b`'s hash, as if the two hashes were equal.
            /// Stores a row of event `name` and files it in the index under `key`.
            func store(_ name: String, row: Int64, key: Int, line: Int) throws {
                try database.execute(sql: """
                    INSERT INTO event_rows (id, ts, mono, event, context_id, attrs, file_id, line)
                    VALUES (?, 5, 1.5, ?, 1, '{"x":1}', ?, ?)
                    """, arguments: [row, name, fileID, line])
                index.add(key: key, rowID: row)
            }
            let aRow = EventIdentity.unsequencedRowID(launchID: launchID, ordinal: 0)
            try store("a", row: aRow, key: collidingKey, line: 1)
            guard case .absent(let key) = try index.lookup(b, contextID: 1, in: database) else {
                Issue.record("b was taken for a")
                return
            }
            #expect(key == collidingKey &+ 1)
            let bRow = EventIdentity.unsequencedRowID(launchID: launchID, ordinal: index.nextOrdinal)
            try store("b", row: bRow, key: key, line: 2)
            guard case .stored(let found) = try index.lookup(b, contextID: 1, in: database) else {
                Issue.record("b was not found past a")
                return
            }
            #expect(found == bRow)
        }
    }

    /// A writer whose cached index missed rows another writer stored meanwhile (on the same
    /// connection, or through another one) reads it again rather than storing them twice.
    @Test func rowsStoredByAnotherWriterAreDuplicatesToThisOne() throws {
        let db = try TemporaryDatabase()
        let first = EventWriter(store: db.store)
        let sameConnection = EventWriter(store: db.store)
        let otherStore = try Store(path: db.store.path)
        let otherConnection = EventWriter(store: otherStore)
        try first.write(batch(try file(db.store, "a"), [event("a")]))
        try sameConnection.write(batch(try file(db.store, "b"), [event("b")]))
        #expect(try first.write(batch(try file(db.store, "c"), [event("b")])).duplicates == 1)
        try otherConnection.write(batch(try file(otherStore, "d"), [event("d")]))
        #expect(try first.write(batch(try file(db.store, "e"), [event("d"), event("e")])) ==
            BatchOutcome(inserted: 1, duplicates: 1, rejects: 0))
        #expect(try otherConnection.write(batch(try file(otherStore, "f"), [event("a"), event("e")])).duplicates == 2)
        let names = try db.store.read { try String.fetchAll($0, sql: "SELECT event FROM events ORDER BY id") }
        #expect(names == ["a", "b", "d", "e"])
    }

    /// A transaction that fails takes its rows with it, and the writer forgets them too.
    @Test func rowsOfARolledBackTransactionAreStoredByTheNextOne() throws {
        struct Stop: Error {}
        let db = try TemporaryDatabase()
        let writer = EventWriter(store: db.store)
        let fileID = try file(db.store, "a")
        #expect(throws: StoreError.self) {
            try writer.transaction { transaction in
                _ = try transaction.write(batch(fileID, [event("a"), event("b")]))
                throw Stop()
            }
        }
        #expect(try writer.write(batch(fileID, [event("b"), event("a")])) == BatchOutcome(inserted: 2, duplicates: 0, rejects: 0))
        #expect(try count(db.store) == 2)
    }

    /// A database of schema v4 keeps its rows where they were (its replay order), loses the
    /// content-hash index, and still knows its events without seq as duplicates.
    @Test func aVersion4DatabaseStillDeduplicatesItsEventsWithoutSeq() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifeline-v4-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("old.db").path
        let first = EventIdentity.unsequencedRowID(launchID: 1, ordinal: 0)
        do {
            // What version 4 stored for two events without seq: ordinal row ids and a SHA-based hash.
            let old = try DatabaseQueue(path: path)
            try Migrations.migrator.migrate(old, upTo: IngestClaimsMigration.identifier)
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO files (id, path, sha256, compression, status, started_at)
                    VALUES (1, 'a.jsonl', 'abc', 'none', 'done', '2026-01-01T00:00:00Z');
                    INSERT INTO devices (id, name) VALUES (1, 'D1');
                    INSERT INTO launches (id, device_id, name, first_ts, last_ts, events, unsequenced)
                    VALUES (1, 1, 'L1', 5, 5, 2, 2);
                    INSERT INTO contexts (id, app, os) VALUES (1, 'com.example.news', '17.4');
                    """)
                for (ordinal, name) in [(0, "a"), (1, "b")] {
                    try db.execute(sql: """
                        INSERT INTO event_rows (id, ts, mono, event, context_id, attrs, file_id, line, content_hash)
                        VALUES (?, 5, 1.5, ?, 1, '{"x":1}', 1, ?, ?)
                        """, arguments: [first + Int64(ordinal), name, ordinal + 1, 1000 + ordinal])
                }
            }
        }
        let store = try Store(path: path)
        let leftovers = try store.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT count(*) FROM sqlite_master WHERE name = 'event_rows_unsequenced')
                     + (SELECT count(*) FROM event_rows WHERE content_hash IS NOT NULL)
                """)
        }
        #expect(leftovers == 0)
        let outcome = try EventWriter(store: store).write(batch(try file(store, "new"), [event("b"), event("c"), event("a")]))
        #expect(outcome == BatchOutcome(inserted: 1, duplicates: 2, rejects: 0))
        let rows = try store.read { try Row.fetchAll($0, sql: "SELECT id, event FROM events ORDER BY id") }
        #expect(rows.map { $0["event"] as String } == ["a", "b", "c"])
        #expect(rows.map { $0["id"] as Int64 } == [first, first + 1, first + 2])
        #expect(try store.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }
}
