import ArgumentParser
import Foundation
import LifelineKit
import TraceStore

/// The `--db` option every command that touches the database shares.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database file (default: lifeline.db; only ingest, check with PATHs and import-findings create it).",
        valueName: "file"))
    var given: String?

    var path: String { given ?? Store.defaultPath }

    /// `--db FILE` for a command printed for the user to run next, when --db was given, so that
    /// following it uses the same database; empty otherwise.
    var argument: String { given.map { " --db \(ShellWord.quoted($0))" } ?? "" }

    /// Whether the file (or, when missing, its directory) can be written: a database that cannot
    /// is opened read-only by the commands that can do without recording.
    var isWritable: Bool {
        let manager = FileManager.default
        guard manager.fileExists(atPath: path) else { return true }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return manager.isWritableFile(atPath: path) && manager.isWritableFile(atPath: directory)
    }

    /// Opens the database; any failure is one line and exit 2. The mistakes a user makes are
    /// named before SQLite meets them (its own words would be "unable to open database file" or
    /// the statement it failed on).
    func open(_ access: Store.Access) throws -> Store {
        // SQLite's name for a database in memory, gone with the process (and never in WAL mode).
        if path == ":memory:" {
            throw CommandFailure.unreadable("--db :memory: would keep nothing once the command ends: give a database file, such as \(Store.defaultPath)")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure.unreadable(
                "\(path) is a directory: --db takes a database file, such as \((path as NSString).appendingPathComponent(Store.defaultPath))")
        }
        if access != .readOnly, !isWritable {
            throw CommandFailure.unreadable(
                "cannot write \(path): the file or its directory is read-only to this user; this command records into it "
                    + "(timeline, query, report, export and check without PATHs read it as it is)")
        }
        do {
            return try Store(path: path, access: access)
        } catch let refusal as StoreOpeningError {
            throw CommandFailure.unreadable(refusal.message(version: LifelineVersion.current))
        } catch {
            throw CommandFailure.unreadable("\(error)")
        }
    }
}

extension DatabaseOption {
    /// The events were replayed, but none of them falls in `--since`/`--until`.
    func nothingInWindow(_ options: CheckOptions, devices: [String]) -> CommandFailure {
        let whose = devices.isEmpty ? "" : " of device \(devices.map(ShownValue.shown).joined(separator: ", "))"
        return .nothingToCheck(
            "no events\(whose) in \(path) fall \(options.windowDescription), so no finding could be reported; "
                + CommandFailure.checkTheDates)
    }

    /// The device has events, but `--launch` names none of them (`narrowed`: in the window or of
    /// the app given).
    func nothingOf(launch: String, device: String, narrowed: Bool = false) -> CommandFailure {
        .nothingToCheck("no events of launch \(ShownValue.shown(launch)) on device \(ShownValue.shown(device)) in \(path)"
            + (narrowed ? " in that window or of that app" : ""))
    }

    /// No event was there to replay: the devices asked for (or the whole file) hold none.
    func nothingToCheck(devices: [String], inWindow: Bool) -> CommandFailure {
        guard !devices.isEmpty else {
            return .nothingToCheck("\(path) holds no events: ingest logs first with `lifeline ingest\(argument) PATH…`")
        }
        let names = devices.map(ShownValue.shown).joined(separator: ", ")
        return .nothingToCheck(
            "no events for device \(names) in \(path)\(inWindow ? " in that window" : "");"
                + " `sqlite3 \(ShellWord.database(path)) 'SELECT name FROM devices'` lists the devices")
    }
}
