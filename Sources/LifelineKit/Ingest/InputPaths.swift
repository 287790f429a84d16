#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TraceRead

/// Turns the paths a user names into the files to read.
///
/// A named file is read whatever its name and kind (the format is told by its first bytes; a
/// FIFO or `<(command)` is read once, see ``FileReadingLoop``); a directory contributes,
/// recursively and in name order, the regular files whose names end like a log (`.jsonl`,
/// `.ndjson`, `.jsonl.zst`, `.jsonl.gz`, …, in any case), so READMEs beside the logs are left
/// alone; a named directory with files but none named so is a mistake (a wrong directory, logs
/// named otherwise), reported as a path that cannot be read rather than ingested as nothing. A FIFO,
/// socket or device inside a directory is not opened (a FIFO would block the ingest); a
/// subdirectory that cannot be listed fails, naming the OS's reason, instead of being skipped.
public enum InputPaths {
    /// Endings of the files taken from a directory.
    public static let logSuffixes = [".jsonl", ".ndjson", ".jsonl.zst", ".ndjson.zst", ".jsonl.gz", ".ndjson.gz", ".zst", ".gz"]

    public enum Input: Sendable, Hashable {
        case file(String)
        case standardInput
        /// A path that does not exist or cannot be listed, with the reason.
        case missing(String, reason: String)
        /// A FIFO, socket or device found in a directory, left alone; `kind` says which.
        case notRegular(String, kind: String)
    }

    /// How directories are looked at; tests substitute a listing that fails, because a test
    /// run as root can read any directory whatever its mode.
    struct FileSystem: Sendable {
        /// The names in a directory, or the OS's reason it cannot be listed.
        var list: @Sendable (String) -> Result<[String], ReadError>
        var kind: @Sendable (String) -> Result<PathKind, ReadError>

        static let system = FileSystem(list: listDirectory, kind: PathKind.of)
    }

    public static func expand(_ paths: [String]) -> [Input] {
        expand(paths, in: .system)
    }

    static func expand(_ paths: [String], in fileSystem: FileSystem) -> [Input] {
        paths.flatMap { path -> [Input] in
            if path == "-" { return [.standardInput] }
            switch fileSystem.kind(path) {
            case .failure(.cannotOpen(_, let reason)), .failure(.readFailed(_, let reason)):
                return [.missing(path, reason: reason.lowercased())]
            case .success(.directory):
                var leftAlone: [String] = []
                let found = logFiles(in: path, fileSystem, leftAlone: &leftAlone)
                guard found.isEmpty, let example = leftAlone.first else { return found }
                let others = leftAlone.count == 1 ? "1 file" : "\(leftAlone.count) files"
                return [.missing(path, reason: "no file in it is named like a log (\(namesRead)): \(others) left alone, "
                    + "such as \(example); name a file on its own to read it whatever its name")]
            case .success: return [.file(path)]
            }
        }
    }

    /// The endings a directory's files are read by, for a message.
    private static let namesRead = ".jsonl, .jsonl.zst, .jsonl.gz, .ndjson and the like"

    /// The log files under `directory`, depth first in name order; the other files (but hidden
    /// ones) are added to `leftAlone`. Symbolic links to directories are not followed (they
    /// could loop); links to files are.
    private static func logFiles(in directory: String, _ fileSystem: FileSystem, leftAlone: inout [String]) -> [Input] {
        let names: [String]
        switch fileSystem.list(directory) {
        case .success(let listed): names = listed.sorted()
        case .failure(let error): return [.missing(directory, reason: "cannot list the directory: \(error.reason)")]
        }
        var inputs: [Input] = []
        for name in names {
            let path = (directory as NSString).appendingPathComponent(name)
            if isDirectoryNotLink(path) {
                inputs += logFiles(in: path, fileSystem, leftAlone: &leftAlone)
                continue
            }
            let lowercased = name.lowercased()
            guard logSuffixes.contains(where: { lowercased.hasSuffix($0) }) else {
                if !name.hasPrefix(".") { leftAlone.append(path) }
                continue
            }
            switch fileSystem.kind(path) {
            case .success(.regular): inputs.append(.file(path))
            case .success(.directory): break
            case .success(.other(let kind)): inputs.append(.notRegular(path, kind: kind))
            case .failure(let error): inputs.append(.missing(path, reason: error.reason))
            }
        }
        return inputs
    }

    private static func isDirectoryNotLink(_ path: String) -> Bool {
        let type = (try? FileManager.default.attributesOfItem(atPath: path)[.type]) as? FileAttributeType
        return type == .typeDirectory
    }

    private static func listDirectory(_ path: String) -> Result<[String], ReadError> {
        guard let directory = opendir(path) else {
            return .failure(.cannotOpen(path: path, reason: String(cString: strerror(errno))))
        }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(directory) else { break }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != ".", name != ".." { names.append(name) }
        }
        if errno != 0 { return .failure(.readFailed(path: path, reason: String(cString: strerror(errno)))) }
        return .success(names)
    }
}
