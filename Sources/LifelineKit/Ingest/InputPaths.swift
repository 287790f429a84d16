import Foundation

/// Turns the paths a user names into the files to read.
///
/// A named file is read whatever its name (the format is told by its first bytes); a directory
/// contributes, recursively and in name order, the files whose names end like a log
/// (`.jsonl`, `.ndjson`, `.jsonl.zst`, `.jsonl.gz`, …), so READMEs beside the logs are left alone.
public enum InputPaths {
    /// Endings of the files taken from a directory.
    public static let logSuffixes = [".jsonl", ".ndjson", ".jsonl.zst", ".ndjson.zst", ".jsonl.gz", ".ndjson.gz", ".zst", ".gz"]

    public enum Input: Sendable, Hashable {
        case file(String)
        case standardInput
        /// A path that does not exist or cannot be listed, with the reason.
        case missing(String, reason: String)
    }

    public static func expand(_ paths: [String]) -> [Input] {
        paths.flatMap { path -> [Input] in
            if path == "-" { return [.standardInput] }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                return [.missing(path, reason: "no such file or directory")]
            }
            guard isDirectory.boolValue else { return [.file(path)] }
            return logFiles(in: path)
        }
    }

    private static func logFiles(in directory: String) -> [Input] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            return [.missing(directory, reason: "cannot list the directory")]
        }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard logSuffixes.contains(where: { relative.hasSuffix($0) }) else { continue }
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files.append(path)
            }
        }
        return files.sorted().map(Input.file)
    }
}
