import ArgumentParser
import Foundation
import LifelineKit
import Reports
import TraceStore

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Answer a question in SQL: a canned query from queries/ by name, a .sql file, or SQL.",
        discussion: """
            Runs one SQL statement on a read-only connection: a statement that would change the \
            database is refused, and the file is never written. Parameters (`:device` in the SQL) \
            come from --param device=VALUE. `lifeline query --list` shows every canned query with \
            the question it answers and its parameters.

            Exit codes: 0 the answer was printed (even with no rows); 2 the database could not be \
            read, or the query failed or would write; 64 the command line is wrong (no such canned \
            query, a missing --param).
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv, json, jsonl, markdown
    }

    @Argument(help: ArgumentHelp("A canned query's name, a .sql file, or one SQL statement.", valueName: "query"))
    var query: String?

    @Flag(help: "List the canned queries with their questions and parameters.")
    var list = false

    @Option(name: .customLong("param"), help: ArgumentHelp("A parameter of the query (repeatable).", valueName: "name=value"))
    var parameters: [String] = []

    @Option(help: "Output format: table (aligned, long cells cut with …), csv, json, jsonl or markdown.")
    var format: Format = .table

    @Option(help: ArgumentHelp("Cut table cells longer than this many characters.", valueName: "characters"))
    var width = 40

    @Option(help: ArgumentHelp("Where the canned queries are (default: ./queries, or the one installed with lifeline).", valueName: "dir"))
    var queries: String?

    @OptionGroup var database: DatabaseOption

    func validate() throws {
        try CommandFailure.reporting {
            if list == (query != nil) {
                throw CommandFailure.usage(list ? "give either --list or a query, not both" : "give a query (a canned query's name, a .sql file or SQL), or --list")
            }
            _ = try parsedParameters()
        }
    }

    func run() throws {
        try CommandFailure.reporting {
            if list {
                print(try canned().all().map(Self.describe).joined(separator: "\n\n"))
                return
            }
            let sql = try resolvedSQL()
            let store = try database.open(.readOnly)
            do {
                let result = try store.query(sql, parameters: try parsedParameters())
                print(result.rendered(QueryFormat(rawValue: format.rawValue) ?? .table, width: width), terminator: "")
            } catch let error as QueryError {
                if case .missingParameters = error { throw CommandFailure.usage("\(error)") }
                throw CommandFailure.unreadable("\(error)")
            }
        }
    }

    /// `--param name=value` pairs; a name may be written with its sigil (`:device`).
    private func parsedParameters() throws -> [String: String] {
        var values: [String: String] = [:]
        for pair in parameters {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandFailure.usage("--param \(pair): write it as NAME=VALUE, e.g. --param device=1A4922F1-…")
            }
            var name = String(pair[..<equals])
            if let first = name.first, ":$@".contains(first) { name.removeFirst() }
            values[name] = String(pair[pair.index(after: equals)...])
        }
        return values
    }

    /// The SQL to run: a file's, a canned query's, or the argument itself.
    private func resolvedSQL() throws -> String {
        guard let query else { return "" }
        if query.hasSuffix(".sql") || query.contains("/") {
            guard let text = try? String(contentsOfFile: query, encoding: .utf8) else {
                throw CommandFailure.unreadable("cannot read the query file \(query)")
            }
            return text
        }
        if query.contains(where: \.isWhitespace) { return query }
        guard let canned = try canned().named(query) else {
            throw CommandFailure.usage("no canned query named '\(query)'; `lifeline query --list` lists them")
        }
        return canned.sql
    }

    private func canned() throws -> CannedQueries {
        guard let found = CannedQueries.locate(explicit: queries) else {
            throw CommandFailure.unreadable("no queries/ folder found here or beside lifeline; pass --queries DIR")
        }
        return found
    }

    private static func describe(_ query: CannedQuery) -> String {
        var lines = ["\(query.name)", "  \(query.question)"]
        if !query.parameters.isEmpty {
            lines.append("  parameters: " + query.parameters.map { "--param \($0.name)=…  (\($0.meaning))" }.joined(separator: ", "))
        }
        lines.append("  columns: " + query.columns.map(\.name).joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}
