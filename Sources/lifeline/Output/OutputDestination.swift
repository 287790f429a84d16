import Foundation

/// Where a command's document goes: standard output, or the file given with `--output`.
enum OutputDestination {
    /// Writes `text` whole; a file that cannot be written is one line and exit 2.
    ///
    /// A regular file (or a new one) is replaced atomically: a reader never sees half a document.
    /// Anything else — a device, a pipe, a symbolic link such as `/dev/stdout` — is written in
    /// place, as a shell's `>` writes it: replacing it would put a new file where it was.
    static func write(_ text: String, to file: String?) throws {
        guard let file else {
            print(text, terminator: "")
            return
        }
        do {
            let type = (try? FileManager.default.attributesOfItem(atPath: file))?[.type] as? FileAttributeType
            if let type, type != .typeRegular {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
                defer { try? handle.close() }
                try handle.write(contentsOf: Data(text.utf8))
            } else {
                try text.write(toFile: file, atomically: true, encoding: .utf8)
            }
        } catch {
            throw CommandFailure.unreadable("cannot write \(file): \(error.localizedDescription)")
        }
    }
}
