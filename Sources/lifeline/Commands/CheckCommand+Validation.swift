import Rules

extension CheckCommand {
    /// The mistakes a command line can hold before anything is read: each one line, exit 64.
    func checkArguments() throws {
        if stdin && !paths.isEmpty {
            throw CommandFailure.usage("--stdin reads standard input: give no PATH with it")
        }
        if stdin, let given = database.given {
            throw CommandFailure.usage(
                "--stdin reads standard input and uses no database: drop --db \(given), or drop --stdin to check the database")
        }
        if keyed && !stdin { throw CommandFailure.usage("--keyed describes standard input: give --stdin with it") }
        if grouped && !stdin { throw CommandFailure.usage("--grouped describes standard input: give --stdin with it") }
        if grouped && keyed {
            throw CommandFailure.usage("--keyed records come grouped by device already: drop --grouped")
        }
        if let devicesInMemory {
            if !stdin { throw CommandFailure.usage("--devices-in-memory bounds the replay of standard input: give --stdin with it") }
            if grouped || keyed {
                throw CommandFailure.usage(
                    "--\(grouped ? "grouped" : "keyed") input holds one device at a time already: drop --devices-in-memory")
            }
            if devicesInMemory < 1 { throw CommandFailure.usage("--devices-in-memory must be at least 1, not \(devicesInMemory)") }
        }
        if summaryJson != nil && !stdin {
            throw CommandFailure.usage("--summary-json writes the totals of a stream: give --stdin with it (`lifeline ingest --json` has a database's)")
        }
        if launches != nil && !stdin {
            throw CommandFailure.usage("--launches writes the launches of a stream: give --stdin with it (`check` over a database writes them to its launches table)")
        }
        let known = Set(RuleCatalog.rules.map(\.id))
        if let unknown = rule.first(where: { !known.contains($0) }) {
            throw CommandFailure.usage("unknown rule '\(unknown)'; `lifeline rules` lists them")
        }
    }
}
