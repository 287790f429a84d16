import ArgumentParser

/// The exit codes every command documents (README, "Exit codes").
enum ExitStatus: Int32 {
    case ok = 0
    /// A reported finding reached --fail-on, or (ingest) some input was bad.
    case findingsOrBadInput = 1
    /// A database, file or configuration could not be read or written.
    case unreadable = 2
    /// Nothing to check: no events matched (an empty database, an unknown device, empty input).
    case nothingToCheck = 3
    /// The command line is wrong.
    case usage = 64
}

/// A mistake or failure the user reads as one line on standard error, with its exit code.
struct CommandFailure: Error {
    var status: ExitStatus
    var message: String

    static func usage(_ message: String) -> CommandFailure { CommandFailure(status: .usage, message: message) }
    static func unreadable(_ message: String) -> CommandFailure { CommandFailure(status: .unreadable, message: message) }
    /// The end of a message about a window no event falls in.
    static let checkTheDates = "check the dates (UTC: 2026-11-21 or 2026-11-21T08:00:00Z)"

    static func nothingToCheck(_ message: String) -> CommandFailure {
        CommandFailure(status: .nothingToCheck, message: "nothing to check: " + message)
    }

    /// Runs `body`, a read of the database: any other error it throws is one line and exit 2.
    static func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure.unreadable("\(error)")
        }
    }

    /// Runs `body`; a failure it throws is printed as its one line and becomes its exit code.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as CommandFailure {
            Terminal.printError(failure.status == .nothingToCheck ? failure.message : "error: " + failure.message)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
