import GRDB
import TraceModel

/// The writer's cache of `contexts` ids: the envelope fields that stay the same for long runs of
/// events (app, version, OS, model, process) are stored once and referenced by id.
final class ContextDirectory {
    struct Key: Hashable {
        var app, appVersion, os, model, process: String?

        init(_ event: Event) {
            app = event.app
            appVersion = event.appVersion
            os = event.os
            model = event.model
            process = event.process
        }

        init(app: String?, appVersion: String?, os: String?, model: String?, process: String?) {
            (self.app, self.appVersion, self.os, self.model, self.process) = (app, appVersion, os, model, process)
        }

        /// This envelope with each field it leaves out taken from `other`.
        func completed(by other: Key) -> Key {
            Key(app: app ?? other.app, appVersion: appVersion ?? other.appVersion, os: os ?? other.os,
                model: model ?? other.model, process: process ?? other.process)
        }
    }

    private var ids: [Key: Int64] = [:]
    private var keys: [Int64: Key] = [:]
    private var last: (key: Key, id: Int64)?

    func id(for event: Event, in db: Database) throws -> Int64 {
        if let last, last.key.app == event.app, last.key.appVersion == event.appVersion, last.key.os == event.os,
           last.key.model == event.model, last.key.process == event.process
        {
            return last.id
        }
        let key = Key(event)
        let id = try self.id(for: key, in: db)
        last = (key, id)
        return id
    }

    /// The id of an envelope, stored if no context has it yet.
    func id(for key: Key, in db: Database) throws -> Int64 {
        if let id = ids[key] { return id }
        let id = try load(key, in: db)
        ids[key] = id
        keys[id] = key
        return id
    }

    /// The envelope a context id stands for.
    func key(of id: Int64, in db: Database) throws -> Key {
        if let key = keys[id] { return key }
        let select = try db.cachedStatement(sql: "SELECT app, app_version, os, model, process FROM contexts WHERE id = ?")
        let key = try ExactStatement.fetchFirst(select, [.integer(id)]) { row in
            Key(app: ExactStatement.text(row, 0), appVersion: ExactStatement.text(row, 1), os: ExactStatement.text(row, 2),
                model: ExactStatement.text(row, 3), process: ExactStatement.text(row, 4))
        } ?? Key(app: nil, appVersion: nil, os: nil, model: nil, process: nil)
        keys[id] = key
        ids[key] = id
        return key
    }

    func reset() {
        ids.removeAll()
        keys.removeAll()
        last = nil
    }

    /// Values go through ``ExactStatement``: an envelope field may hold a NUL.
    private func load(_ key: Key, in db: Database) throws -> Int64 {
        let values: [ExactValue] = [.text(key.app), .text(key.appVersion), .text(key.os), .text(key.model), .text(key.process)]
        let select = try db.cachedStatement(sql: """
            SELECT id FROM contexts
            WHERE app IS ? AND app_version IS ? AND os IS ? AND model IS ? AND process IS ?
            """)
        if let id = try ExactStatement.integer(select, values) {
            return id
        }
        try ExactStatement.execute(
            db.cachedStatement(sql: "INSERT INTO contexts (app, app_version, os, model, process) VALUES (?, ?, ?, ?, ?)"),
            values)
        return db.lastInsertedRowID
    }
}
