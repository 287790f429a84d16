import Foundation
import GRDB
import Testing
@testable import TraceStore

/// What opening refuses, and that a refusal leaves the file exactly as it was.
@Suite struct StoreOpeningTests {
    /// A database of this build, closed, with one migration added by "a newer Lifeline".
    static func futureDatabase() throws -> String {
        let path = try TemporaryDatabase().store.path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations VALUES ('v99: from the future')") }
        try queue.close()
        return path
    }

    /// The file's bytes (whole) and modification time, and which of its -wal and -shm files exist.
    static func snapshot(_ path: String) throws -> [String] {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        return [
            bytes.base64EncodedString(), "\(attributes[.modificationDate] ?? "")",
            "wal \(FileManager.default.fileExists(atPath: path + "-wal"))",
            "shm \(FileManager.default.fileExists(atPath: path + "-shm"))",
        ]
    }

    @Test(arguments: [Store.Access.create, .existing, .readOnly])
    func aNewerSchemaIsRefusedAndTheFileIsUntouched(_ access: Store.Access) throws {
        let path = try Self.futureDatabase()
        let before = try Self.snapshot(path)
        #expect(before.suffix(2) == ["wal false", "shm false"])
        #expect(throws: StoreOpeningError.newerSchema(path: path, unknown: ["v99: from the future"])) {
            try Store(path: path, access: access)
        }
        #expect(try Self.snapshot(path) == before)
    }

    /// The first look goes through a file: URI, so characters that mean something in a URI must
    /// not make it miss the file (and fall back to a connection that leaves -wal and -shm).
    @Test func aNewerSchemaIsRefusedUntouchedWhateverThePathHolds() throws {
        let made = try Self.futureDatabase()
        let directory = URL(fileURLWithPath: made).deletingLastPathComponent().appendingPathComponent("a b?c#d%20é")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("x?.db").path
        try FileManager.default.moveItem(atPath: made, toPath: path)
        let before = try Self.snapshot(path)
        #expect(throws: StoreOpeningError.newerSchema(path: path, unknown: ["v99: from the future"])) {
            try Store(path: path, access: .create)
        }
        #expect(try Self.snapshot(path) == before)
    }

    @Test func theRefusalNamesTheSchemaTheVersionAndWhatToDo() {
        let message = StoreOpeningError.newerSchema(path: "f.db", unknown: ["v9: x"]).message(version: "0.1.0")
        #expect(message == "f.db was written by a newer Lifeline (schema 'v9: x' is unknown to version 0.1.0): upgrade lifeline")
    }

    @Test(arguments: [Store.Access.existing, .readOnly])
    func onlyCreateMakesAMissingFile(_ access: Store.Access) throws {
        let directory = try TemporaryDatabase().directory
        let path = directory.appendingPathComponent("absent.db").path
        #expect(throws: StoreOpeningError.missing(path: path)) { try Store(path: path, access: access) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileInAMissingDirectoryIsNamedWithTheDirectory() throws {
        let directory = try TemporaryDatabase().directory.appendingPathComponent("not-there")
        let path = directory.appendingPathComponent("x.db").path
        #expect(throws: StoreOpeningError.directoryMissing(path: path, directory: directory.path)) { try Store(path: path) }
    }

    @Test func readOnlyReadsAnUpToDateDatabaseAndCannotWriteIt() throws {
        let path = try TemporaryDatabase().store.path
        let store = try Store(path: path, access: .readOnly)
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM events") } == 0)
        #expect(throws: (any Error).self) { try store.write { try $0.execute(sql: "DELETE FROM devices") } }
    }

    @Test func readOnlyRefusesAnOlderSchemaItCannotMigrateAndLeavesIt() throws {
        let path = try TemporaryDatabase().store.path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v2:%'") }
        try queue.close()
        let before = try Self.snapshot(path)
        let refusal = #expect(throws: StoreOpeningError.self) { try Store(path: path, access: .readOnly) }
        guard case .olderSchema(path, let missing) = refusal else {
            Issue.record("expected an older schema, got \(String(describing: refusal))")
            return
        }
        #expect(missing.first == "v2: runs, findings")
        #expect(try Self.snapshot(path) == before)
    }

    @Test func readOnlyRefusesAFileWithNoLifelineSchema() throws {
        let path = try TemporaryDatabase().directory.appendingPathComponent("empty.db").path
        FileManager.default.createFile(atPath: path, contents: Data())
        #expect(throws: StoreOpeningError.notLifeline(path: path)) { try Store(path: path, access: .readOnly) }
    }

    @Test func theVerdictComparesWithAnyListOfKnownMigrations() {
        let known = ["v1", "v2", "v3", "v4"]
        #expect(SchemaCheck.verdict(applied: [], known: known) == .empty)
        #expect(SchemaCheck.verdict(applied: ["v1", "v2"], known: known) == .known(missing: ["v3", "v4"]))
        #expect(SchemaCheck.verdict(applied: Set(known), known: known) == .known(missing: []))
        #expect(SchemaCheck.verdict(applied: ["v1", "v5"], known: known) == .newer(unknown: ["v5"]))
    }
}
