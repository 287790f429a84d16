import Foundation

/// One file of `queries/`: SQL that answers one everyday question, opening with a comment that
/// says the question, the parameters it takes and what each output column means:
///
///     -- Which app versions and OS releases break which rules?
///     -- Parameters:
///     --   device   the device id
///     --   app      optional: only launches of this app (bundle id); every app when absent
///     -- Columns:
///     --   rule     the rule id
///     SELECT …
///
/// A parameter whose meaning begins with `optional` may be left out: it is then NULL, as the
/// `sqlite3` shell leaves a parameter it was not given, and the SQL reads NULL as "all"
/// (`:app IS NULL OR l.app = :app`). `lifeline query --app`/`--app-version` bind the parameters
/// `app` and `app_version`.
///
/// Adding a query is adding such a file (and its diff test: a trace, the query's expected CSV).
public struct CannedQuery: Sendable, Hashable {
    /// The file name without `.sql`: what `lifeline query NAME` takes.
    public var name: String
    public var path: String
    public var sql: String
    /// The opening comment's first line.
    public var question: String
    public var parameters: [Documented]
    public var columns: [Documented]

    /// A parameter or a column, with its one-line meaning.
    public struct Documented: Sendable, Hashable {
        public var name: String
        public var meaning: String

        /// For a parameter: whether it may be left out (its meaning begins with `optional`).
        public var isOptional: Bool { meaning.hasPrefix("optional") }
    }

    /// The parameters that may be left out.
    public var optionalParameters: Set<String> { Set(parameters.filter(\.isOptional).map(\.name)) }

    public init(path: String) throws {
        self.path = path
        name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        sql = try String(contentsOfFile: path, encoding: .utf8)
        (question, parameters, columns) = Self.header(of: sql)
    }

    private enum Section { case none, parameters, columns }

    /// Reads the opening comment: its first line, then the indented lines under `Parameters:`
    /// and `Columns:` as a name and its meaning.
    private static func header(of sql: String) -> (String, [Documented], [Documented]) {
        var question = ""
        var parameters: [Documented] = []
        var columns: [Documented] = []
        var section = Section.none
        for line in sql.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("--") else { break }
            let text = line.dropFirst(2)
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let words = trimmed.split(separator: " ", maxSplits: 1)
            if question.isEmpty {
                question = trimmed
            } else if trimmed == "Parameters:" {
                section = .parameters
            } else if trimmed == "Columns:" {
                section = .columns
            } else if text.hasPrefix("   "), let first = words.first {
                let item = Documented(name: String(first), meaning: words.count > 1 ? words[1].trimmingCharacters(in: .whitespaces) : "")
                switch section {
                case .parameters: parameters.append(item)
                case .columns: columns.append(item)
                case .none: break
                }
            } else {
                section = .none
            }
        }
        return (question, parameters, columns)
    }
}

/// Where the canned queries are, and finding one by name.
public struct CannedQueries: Sendable {
    public let directory: String

    /// The first of: `explicit` (`--queries DIR`), `$LIFELINE_QUERIES`, `./queries`, and a
    /// `queries` folder beside or above the executable (a checkout's `.build/…/lifeline`, or
    /// `share/lifeline/queries` of an installation). Nil when none holds a `.sql` file.
    public static func locate(explicit: String?, executable: String = CommandLine.arguments[0]) -> CannedQueries? {
        if let explicit { return CannedQueries(directory: explicit) }
        var candidates: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment["LIFELINE_QUERIES"] { candidates.append(fromEnvironment) }
        candidates.append(FileManager.default.currentDirectoryPath + "/queries")
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("queries").path)
            candidates.append(folder.appendingPathComponent("share/lifeline/queries").path)
            folder.deleteLastPathComponent()
        }
        return candidates.first { !sqlFiles(in: $0).isEmpty }.map(CannedQueries.init(directory:))
    }

    /// Every query, by name.
    public func all() throws -> [CannedQuery] {
        try Self.sqlFiles(in: directory).map { try CannedQuery(path: (directory as NSString).appendingPathComponent($0)) }
    }

    public func named(_ name: String) throws -> CannedQuery? {
        let path = (directory as NSString).appendingPathComponent(name + ".sql")
        return FileManager.default.fileExists(atPath: path) ? try CannedQuery(path: path) : nil
    }

    private static func sqlFiles(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".sql") }.sorted()
    }
}
