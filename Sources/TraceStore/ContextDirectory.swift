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
    }

    private var ids: [Key: Int64] = [:]
    private var last: (key: Key, id: Int64)?

    func id(for event: Event, in db: Database) throws -> Int64 {
        if let last, last.key.app == event.app, last.key.appVersion == event.appVersion, last.key.os == event.os,
           last.key.model == event.model, last.key.process == event.process
        {
            return last.id
        }
        let key = Key(event)
        let id = try ids[key] ?? load(key, in: db)
        ids[key] = id
        last = (key, id)
        return id
    }

    func reset() {
        ids.removeAll()
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
