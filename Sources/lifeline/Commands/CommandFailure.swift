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
        CommandFailure(status: .nothingToCheck, message: nothingPrefix("check") + message)
    }

    private static func nothingPrefix(_ verb: String) -> String { "nothing to \(verb): " }

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
    /// Runs a command's `body`, printing its failure as one line on standard error and exiting
    /// with its status; exit 3 says "nothing to `verb`", the command's own word (the checks that
    /// find nothing are shared, and say "check").
    static func reporting<T>(nothingTo verb: String = "check", _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as CommandFailure {
            guard failure.status == .nothingToCheck else {
                Terminal.printError("error: " + failure.message)
                throw ExitCode(failure.status.rawValue)
            }
            let checkPrefix = nothingPrefix("check")
            Terminal.printError(failure.message.hasPrefix(checkPrefix)
                ? nothingPrefix(verb) + failure.message.dropFirst(checkPrefix.count) : failure.message)
            throw ExitCode(failure.status.rawValue)
        }
    }
}
