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
                throw noDirectory(file, directory)
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

extension OutputDestination {
    /// A file written as a stream and put in place whole when done (``commit()``), so that a
    /// reader — or the next step of a pipeline — never takes a run that failed or was killed
    /// for a finished one: a regular file (or a new one) is written under a hidden name beside
    /// it (`.<name>.XXXXXX`, with the old file's permissions, else 0644 less the umask) and
    /// renamed over it. A symbolic link, a device or a pipe is written in place, as ``open(_:)``
    /// does. A run that dies leaves its hidden file behind; nothing at the name changes.
    final class Staged {
        let handle: FileHandle
        private let file: String
        /// The hidden file, or nil when written in place.
        private let temporary: String?

        init(_ file: String) throws {
            self.file = file
            let attributes = try? FileManager.default.attributesOfItem(atPath: file)
            if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
                handle = try OutputDestination.open(file)
                temporary = nil
                return
            }
            let url = URL(fileURLWithPath: file)
            var template = Array(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).XXXXXX").path.utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
            guard descriptor >= 0 else {
                throw CommandFailure.unreadable("cannot write \(file): \(String(cString: strerror(errno)))")
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let mask = umask(0)
            umask(mask)
            let mode = (attributes?[.posixPermissions] as? NSNumber).map { mode_t($0.uint16Value) } ?? (0o644 & ~mask)
            fchmod(descriptor, mode)
            temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }

        /// Puts the written file at its name (the caller has closed ``handle``).
        func commit() throws {
            guard let temporary else { return }
            guard rename(temporary, file) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw CommandFailure.unreadable("cannot write \(file): \(reason)")
            }
        }

        /// Drops what was written: the name keeps what it held.
        func discard() {
            try? handle.close()
            if let temporary { unlink(temporary) }
        }
    }
}

extension OutputDestination {
    /// Refuses, before any work, output files that would destroy input or each other or could not
    /// be written: an empty name, a directory, a file in a directory that does not exist, the
    /// database the command reads (or its `-wal`, `-shm` or `-journal`, by name or through a
    /// link), and one file given to two options. Each is one line, exit 2.
    static func checkBeforehand(
        _ outputs: [(option: String, file: String?)], database: String? = nil, standardOutputCarries: String? = nil
    ) throws {
        let given = outputs.compactMap { output in output.file.map { (output.option, $0) } }
        var seen: [(option: String, identity: FileIdentity)] = []
        for (option, file) in given {
            guard !file.isEmpty else { throw CommandFailure.unreadable("\(option) needs a file name, not an empty one") }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                throw CommandFailure.unreadable("cannot write \(file): it is a directory; give \(option) a file name")
            }
            let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw noDirectory(file, directory)
            }
            let identity = FileIdentity(file)
            if let database, ["", "-wal", "-shm", "-journal"].contains(where: { FileIdentity(database + $0) == identity }) {
                throw CommandFailure.unreadable(
                    "\(option) \(file) is the database \(database) (or one of its files): writing there would destroy it; choose another file")
            }
            // Two writers on one file: reopening a file that standard output was redirected to
            // emptied what had been written to it, and on a pipe the two interleaved mid-line.
            if let carried = standardOutputCarries, identity == FileIdentity(descriptor: STDOUT_FILENO) {
                throw CommandFailure.unreadable(
                    "\(option) \(file) is standard output, which carries \(carried): give \(option) a file of its own")
            }
            if let earlier = seen.first(where: { $0.identity == identity }) {
                throw CommandFailure.unreadable("\(earlier.option) and \(option) both name \(file): give each its own file")
            }
            seen.append((option, identity))
        }
    }

    private static func noDirectory(_ file: String, _ directory: String) -> CommandFailure {
        CommandFailure.unreadable("cannot write \(file): there is no directory \(directory); create it first")
    }

    /// What a path names: the file's device and inode when it exists (so a link or another spelling
    /// is the same file), else its absolute, standardized path.
    private enum FileIdentity: Equatable {
        case file(device: UInt64, inode: UInt64)
        case name(String)

        /// What an open descriptor is (nil-like `.name("")` when it cannot be read).
        init(descriptor: Int32) {
            var status = stat()
            self = fstat(descriptor, &status) == 0
                ? .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino)) : .name("")
        }

        init(_ path: String) {
            var status = stat()
            if stat(path, &status) == 0 {
                self = .file(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            } else {
                self = .name(URL(fileURLWithPath: path).standardizedFileURL.path)
            }
        }
    }
}
