import GRDB

extension Store {
    /// How many files were ingested after the latest `check` began: their events are in the
    /// store but not in its findings or derived tables (0 with no check run).
    public func filesIngestedAfterLatestRun() throws -> Int {
        try read { db in
            try Int.fetchOne(db, sql: """
                SELECT count(*) FROM files
                WHERE ingested_at > (SELECT started_at FROM runs ORDER BY id DESC LIMIT 1) AND events > 0
                """) ?? 0
        }
    }
}
