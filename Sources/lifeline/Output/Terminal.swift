import Foundation

enum Terminal {
    enum Stream { case standardOutput, standardError }

    /// True when the stream is a terminal a person watches (not a pipe, file or CI log).
    static func isInteractive(_ stream: Stream) -> Bool {
        isatty(stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO) == 1
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
