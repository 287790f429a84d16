import Foundation

/// Where a command's document goes: standard output, or the file given with `--output`.
enum OutputDestination {
    /// Writes `text` whole; a file that cannot be written is one line and exit 2.
    ///
    /// A regular file (or a new one) is replaced atomically: a reader never sees half a document.
    /// Anything else — a device, a pipe, a symbolic link such as `/dev/stdout` — is written in
    /// place (``open(_:)``): replacing it would put a new file where it was.
    static func write(_ text: String, to file: String?) throws {
        guard let file else {
            print(text, terminator: "")
            return
        }
        let type = (try? FileManager.default.attributesOfItem(atPath: file))?[.type] as? FileAttributeType
        do {
            if let type, type != .typeRegular {
                let handle = try open(file)
                defer { try? handle.close() }
                try handle.write(contentsOf: Data(text.utf8))
            } else {
                try text.write(toFile: file, atomically: true, encoding: .utf8)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CommandFailure.unreadable("cannot write \(file): there is no directory \(directory); create it first")
            }
            throw CommandFailure.unreadable("cannot write \(file): \(error.localizedDescription)")
        }
    }

    /// `file` opened for writing as a shell's `>` opens it: created or emptied in place, through
    /// a symbolic link, a device or a pipe (which it waits for a reader of); a file that cannot
    /// be opened is one line with the system's reason, exit 2.
    static func open(_ file: String) throws -> FileHandle {
        let descriptor = Foundation.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure.unreadable("cannot write \(file): \(String(cString: strerror(errno)))")
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
