import Foundation
import TraceStore

/// Quoting for the shell, for commands Lifeline prints for the user to copy.
public enum ShellWord {
    public static func quoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "-_./:@%+=,".unicodeScalars.contains($0)
        }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A database file for a `sqlite3` command line: quoted, and named as Lifeline names it to
    /// SQLite (`./file:…` for a relative path `sqlite3` would read as a URI).
    public static func database(_ path: String) -> String {
        quoted(Store.sqlitePath(for: path))
    }
}
