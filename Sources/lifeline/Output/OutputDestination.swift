import Foundation

/// Where a command's document goes: standard output, or the file given with `--output`.
enum OutputDestination {
    /// Writes `text` whole; a file that cannot be written is one line and exit 2.
    static func write(_ text: String, to file: String?) throws {
        guard let file else {
            print(text, terminator: "")
            return
        }
        do {
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw CommandFailure.unreadable("cannot write \(file): \(error.localizedDescription)")
        }
    }
}
