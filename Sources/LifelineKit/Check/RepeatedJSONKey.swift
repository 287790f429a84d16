/// Finds a key given twice in one object of a JSON document, which Foundation's parser takes
/// silently (one of the two values wins): in a configuration file, the other value would be
/// ignored without a word. For a document that already parsed: it reads only strings and
/// the brackets around them, and stops at the first repeat.
enum RepeatedJSONKey {
    /// The first key that an object of `bytes` holds twice, with the path of that object
    /// (`budgets`, or empty for the top level); nil when none does.
    static func first(in bytes: [UInt8]) -> (key: String, object: String)? {
        var scanner = Scanner(bytes: bytes)
        return scanner.value(path: "", depth: 0)
    }

    /// Deeper than any configuration file nests; beyond it nothing more is looked at.
    private static let deepest = 64

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        /// Scans one value; returns the first repeat inside it.
        mutating func value(path: String, depth: Int) -> (key: String, object: String)? {
            skipSpace()
            guard depth < RepeatedJSONKey.deepest else {
                index = bytes.count  // too deep to look further: the search ends
                return nil
            }
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var seen = Set<String>()
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] != UInt8(ascii: "}") else { index += 1; return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    let key = string()
                    if !seen.insert(key).inserted { return (key, path) }
                    skipSpace()
                    index += 1  // the colon
                    if let repeated = value(path: path.isEmpty ? key : path + "." + key, depth: depth + 1) { return repeated }
                }
            case UInt8(ascii: "["):
                index += 1
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] != UInt8(ascii: "]") else { index += 1; return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if let repeated = value(path: path, depth: depth + 1) { return repeated }
                }
            case UInt8(ascii: "\""):
                _ = string()
                return nil
            default:
                // A number, true, false or null: up to the next delimiter, and at least one byte,
                // so that a stray one cannot hold the scan in place.
                repeat { index += 1 } while index < bytes.count && !",}] \t\r\n".utf8.contains(bytes[index])
                return nil
            }
        }

        /// Reads a string at `index` (its opening quote), escapes kept as written: two keys are
        /// the same when their text is.
        mutating func string() -> String {
            let start = index + 1
            index += 1
            while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
            }
            defer { index += 1 }
            let end = min(index, bytes.count)
            return start < end ? String(decoding: bytes[start ..< end], as: UTF8.self) : ""
        }

        mutating func skipSpace() {
            while index < bytes.count, " \t\r\n".utf8.contains(bytes[index]) { index += 1 }
        }
    }
}
