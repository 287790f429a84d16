import ArgumentParser
import Foundation
import LifelineKit
import Reports
import TraceModel
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

            --app and --app-version bind the parameters :app and :app_version. The canned queries \
            that break their answer down by launch, version or device take them as optional \
            parameters (left out: every app, every version), as --list shows; a version is per \
            app, and alone it means that version of whichever app logs it. Given to a query that \
            does not take them, they are refused rather than ignored.

            An empty answer is still an answer (exit 0), with a note on standard error when the \
            reason is plain: the database holds no events, none of the device, app or version \
            given, or no check has been run for the findings and derived tables.

            Exit codes: 0 the answer was printed (even with no rows); 2 the database could not be \
            read, or the query failed, would write, or takes no :app or :app_version for --app or \
            --app-version; 64 the command line is wrong (no such canned query, a missing --param, \
            or one the query does not take).
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

    /// Bound to `:app` and `:app_version`.
    @OptionGroup var apps: AppOptions

    @Option(help: "Output format: table (aligned, long cells cut with …), csv, json, jsonl or markdown.")
    var format: Format = .table

    @Option(help: ArgumentHelp("Cut table cells longer than this many characters (0: never; at least 4 otherwise).", valueName: "characters"))
    var width = 40

    @Option(help: ArgumentHelp("Where the canned queries are (default: ./queries, or the one installed with lifeline).", valueName: "dir"))
    var queries: String?

    @OptionGroup var database: DatabaseOption

    func run() throws {
        try CommandFailure.reporting {
            // Checked here, not in `validate()`: the argument parser validates `query --help`
            // too, which printed this error above the help.
            if list == (query != nil) {
                throw CommandFailure.usage(list ? "give either --list or a query, not both" : "give a query (a canned query's name, a .sql file or SQL), or --list")
            }
            if width < 0 || (1 ... 3).contains(width) {
                throw CommandFailure.usage("--width \(width): give 0 (never cut) or a number of characters, at least 4")
            }
            let values = try parsedParameters()
            if list {
                print(try canned().all().map(Self.describe).joined(separator: "\n\n"))
                return
            }
            let resolved = try resolvedQuery()
            let store = try database.open(.readOnly)
            let result: QueryResult
            do {
                result = try store.query(
                    resolved.sql, parameters: values, optional: resolved.optional, filters: Set(values.keys))
            } catch let error as QueryError {
                switch error {
                case .missingParameters: throw CommandFailure.usage("\(error)")
                case .notTaken(let names) where names.contains { filters[$0] == nil }:
                    // A --param the query does not use is most likely a misspelt name: ignored, it
                    // would leave the answer unnarrowed without a word.
                    let unknown = names.filter { filters[$0] == nil }.map { ":" + ShownValue.shown($0) }
                    throw CommandFailure.usage(
                        "\(resolved.label) takes no " + unknown.joined(separator: " or ")
                            + " parameter: check the name given to --param; `lifeline query --list` shows the parameters of each canned query")
                case .notTaken(let names):
                    let flags = names.compactMap { filters[$0] }.joined(separator: " and ")
                    throw CommandFailure.unreadable(
                        "\(resolved.label) takes no " + names.map { ":\($0)" }.joined(separator: " or ")
                            + " parameter, so \(flags) cannot narrow its answer; `lifeline query --list` shows the parameters of each canned query")
                default: throw CommandFailure.unreadable("\(error)")
                }
            }
            print(result.rendered(QueryFormat(rawValue: format.rawValue) ?? .table, width: width == 0 ? .max : width), terminator: "")
            if result.rows.isEmpty, let note = try CommandFailure.reading({ try emptyAnswerNote(store, values, sql: resolved.sql) }) { Terminal.printError("note: " + note) }
        }
    }

    /// The parameters `--app` and `--app-version` bind, by name, with their flag.
    private var filters: [String: String] {
        var filters: [String: String] = [:]
        if apps.app != nil { filters["app"] = "--app" }
        if apps.appVersion != nil { filters["app_version"] = "--app-version" }
        return filters
    }

    /// Why an answer is empty, when the store says so plainly: it holds no events, none of the
    /// device, app or version given, or no check has been run and the query reads what a check
    /// writes.
    private func emptyAnswerNote(_ store: Store, _ values: [String: String], sql: String) throws -> String? {
        let path = database.path
        guard try store.holdsEvents(device: nil) else {
            return "\(path) holds no events: ingest logs first with `lifeline ingest\(database.argument) PATH…`"
        }
        if let device = values["device"], try !store.holdsEvents(device: device) {
            return "no events for device \(ShownValue.shown(device)) in \(path), so the answer is empty; `sqlite3 \(ShellWord.database(path)) 'SELECT name FROM devices'` lists the devices"
        }
        let apps = AppSelection(app: values["app"], version: values["app_version"])
        if apps.isSet, try !store.holdsEvents(app: apps.app, appVersion: apps.version) {
            return "no events of \(apps) in \(path), so the answer is empty; `lifeline query apps\(database.argument)` lists the apps and versions it holds"
        }
        func reads(_ tables: String) -> Bool {
            sql.range(of: #"\b("# + tables + #")\b"#, options: [.regularExpression, .caseInsensitive]) != nil
        }
        if reads("findings|launches|intervals|tasks|requests|runs"), try !store.hasRuns() {
            return "no check has been run on \(path), so `findings` and the derived tables are empty: run `lifeline check\(database.argument)` first"
        }
        if reads("launches|intervals|tasks|requests"), try !store.hasDerivedLaunches() {
            return "the derived tables of \(path) are empty: its latest run was imported with import-findings, which derives none; "
                + "`lifeline check\(database.argument)` derives them again (and replaces the imported findings with its own)"
        }
        return nil
    }

    /// `--param name=value` pairs, and `--app`, `--app-version` as `app`, `app_version`; a name
    /// may be written with its sigil (`:device`).
    private func parsedParameters() throws -> [String: String] {
        var values: [String: String] = [:]
        for pair in parameters {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CommandFailure.usage("--param \(pair): write it as NAME=VALUE, e.g. --param device=1A4922F1-…")
            }
            var name = String(pair[..<equals])
            if let first = name.first, ":$@".contains(first) { name.removeFirst() }
            // The second value of a name was taken without a word, the first dropped.
            if values[name] != nil { throw CommandFailure.usage("--param \(name) is given twice: a parameter takes one value") }
            values[name] = String(pair[pair.index(after: equals)...])
        }
        for (name, value) in [("app", apps.app), ("app_version", apps.appVersion)] {
            guard let value else { continue }
            if values[name] != nil, let flag = filters[name] {
                throw CommandFailure.usage("\(flag) binds :\(name): give it or --param \(name)=…, not both")
            }
            values[name] = value
        }
        return values
    }

    /// The query to run: its SQL, what to call it in a message, and its optional parameters.
    private struct Resolved {
        var sql: String
        var label: String
        var optional: Set<String> = []
    }

    /// The SQL to run: a file's, a canned query's, or the argument itself.
    private func resolvedQuery() throws -> Resolved {
        guard let query else { return Resolved(sql: "", label: "the query") }
        // SQL has spaces and may divide (`first_ts / 1000000`); a path has a `/` or `.sql` and
        // seldom a space: a text with a space is SQL unless it ends in `.sql` or names a file.
        let isSQL = query.contains(where: \.isWhitespace) && !query.hasSuffix(".sql")
            && !FileManager.default.fileExists(atPath: query)
        if !isSQL, query.hasSuffix(".sql") || query.contains("/") || query.contains(where: \.isWhitespace) {
            guard let text = try? String(contentsOfFile: query, encoding: .utf8) else {
                throw CommandFailure.unreadable("cannot read the query file \(ShownValue.shown(query))")
            }
            return Resolved(sql: text, label: "the query in \(query)")
        }
        if isSQL { return Resolved(sql: query, label: "the SQL given") }
        guard let canned = try canned().named(query) else {
            throw CommandFailure.usage("no canned query named '\(query)'; `lifeline query --list` lists them")
        }
        return Resolved(sql: canned.sql, label: "the canned query \(query)", optional: canned.optionalParameters)
    }

    private func canned() throws -> CannedQueries {
        guard let found = CannedQueries.locate(explicit: queries) else {
            throw CommandFailure.unreadable("no queries/ folder found here or beside lifeline; pass --queries DIR or set LIFELINE_QUERIES=DIR")
        }
        return found
    }

    private static func describe(_ query: CannedQuery) -> String {
        var lines = ["\(query.name)", "  \(query.question)"]
        let required = query.parameters.filter { !$0.isOptional }
        if !required.isEmpty {
            lines.append("  parameters: " + required.map { "--param \($0.name)=…  (\($0.meaning))" }.joined(separator: ", "))
        }
        let optional = query.parameters.filter(\.isOptional)
        if !optional.isEmpty {
            lines.append("  optional: " + optional.map(Self.flag).joined(separator: ", "))
        }
        lines.append("  columns: " + query.columns.map(\.name).joined(separator: ", "))
        return lines.joined(separator: "\n")
    }

    /// An optional parameter as it is given: `--app ID` and `--app-version V` for the two the
    /// command has flags for, `--param NAME=…` for any other.
    private static func flag(_ parameter: CannedQuery.Documented) -> String {
        switch parameter.name {
        case "app": "--app ID"
        case "app_version": "--app-version V"
        default: "--param \(parameter.name)=…"
        }
    }
}
