import ArgumentParser
import TraceStore

/// The `--db` option every command that touches the database shares.
struct DatabaseOption: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The SQLite database file (created if missing).", valueName: "file"))
    var path: String = Store.defaultPath

    func open() throws -> Store {
        do {
            return try Store(path: path)
        } catch {
            Terminal.printError("error: \(error)")
            throw ExitCode(2)
        }
    }
}
