import TraceModel

/// What became of one input path in one ingest.
///
/// Every line is accounted for: `lines` = `events` + `duplicates` + rejected + `blankLines` +
/// `lostLines`.
public struct FileReport: Sendable, Codable, Hashable {
    public enum Outcome: String, Sendable, Codable, Hashable {
        /// Read from its first line.
        case ingested
        /// Read on from where an interrupted ingest of the same content stopped.
        case resumed
        /// Its content is already stored; nothing was read.
        case skipped
        /// Another ingest that is still running holds it (see `FileSkip`): this one left it to
        /// that one, and a later run skips or resumes it by its content.
        case elsewhere
        /// It could not be read at all (missing, unreadable, or the database failed).
        case failed
        /// Found in a directory but not a regular file (a FIFO, socket or device): not opened,
        /// because opening a FIFO waits for a writer that may never come.
        case ignored
    }

    public var path: String
    public var outcome: Outcome
    public var compression: String?
    /// Input lines seen in this run: read, or lost to damage.
    public var lines = 0
    /// Events newly stored in this run.
    public var events = 0
    /// Events that were already stored (same identity), not stored again.
    public var duplicates = 0
    /// Lines kept aside in `rejects`, by reason code.
    public var rejects: [String: Int] = [:]
    /// Lines with nothing but whitespace, which are neither events nor rejects.
    public var blankLines = 0
    /// Lines lost to damaged compressed frames and to a cut (see `damage`).
    public var lostLines = 0
    /// Where the compressed input was damaged or cut, and the lines each stretch took.
    public var damage: [StreamDamage] = []
    public var truncated = false
    /// Where and why the stream was cut short, when it was.
    public var cut: String?
    /// Why it was skipped or failed.
    public var message: String?
    /// Bytes read from the file (compressed).
    public var bytes = 0
    /// The first lines of this run kept aside (up to ``rejectsShown``), for standard error: the
    /// `rejects` table holds every one. Not in the JSON summary, which counts them by reason.
    public var firstRejects: [RejectedAt] = []

    /// How many of a file's bad lines an ingest names one by one.
    public static let rejectsShown = 5

    /// A line kept aside, and why.
    public struct RejectedAt: Sendable, Hashable {
        public var line: Int
        public var issue: LineIssue
    }

    private enum CodingKeys: String, CodingKey {
        case path, outcome, compression, lines, events, duplicates, rejects, blankLines, lostLines, damage, truncated, cut,
             message, bytes
    }

    public init(path: String, outcome: Outcome) {
        self.path = path
        self.outcome = outcome
    }

    public var rejectCount: Int { rejects.values.reduce(0, +) }
    /// Damaged other than by a cut at the end: a frame or member failed to decode or verify.
    public var corrupt: Bool { damage.contains { $0.kind == .corrupt } }
}

/// The totals of one ingest, for people (``IngestSummary`` is printed by the CLI) and scripts
/// (`--json` prints it as one JSON object).
public struct IngestSummary: Sendable, Codable, Hashable {
    public var database: String
    public var files: [FileReport]
    public var wallSeconds: Double

    public init(database: String, files: [FileReport], wallSeconds: Double) {
        self.database = database
        self.files = files
        self.wallSeconds = wallSeconds
    }

    public func count(_ outcome: FileReport.Outcome) -> Int { files.filter { $0.outcome == outcome }.count }
    public var truncatedFiles: Int { files.filter(\.truncated).count }
    /// Files with a damaged frame or member (see ``FileReport/corrupt``).
    public var damagedFiles: Int { files.filter(\.corrupt).count }
    public var lostLines: Int { files.reduce(0) { $0 + $1.lostLines } }
    public var events: Int { files.reduce(0) { $0 + $1.events } }
    public var duplicates: Int { files.reduce(0) { $0 + $1.duplicates } }
    public var lines: Int { files.reduce(0) { $0 + $1.lines } }
    public var blankLines: Int { files.reduce(0) { $0 + $1.blankLines } }
    public var bytes: Int { files.reduce(0) { $0 + $1.bytes } }
    public var rejectsByReason: [String: Int] {
        files.reduce(into: [:]) { totals, file in totals.merge(file.rejects, uniquingKeysWith: +) }
    }
    public var rejects: Int { rejectsByReason.values.reduce(0, +) }
    /// Lines (stored, duplicate or rejected) per second of wall time.
    public var eventsPerSecond: Double { wallSeconds > 0 ? Double(events + duplicates) / wallSeconds : 0 }

    /// Clean, some input was bad (all good data stored), or some path failed.
    public var status: IngestStatus {
        if count(.failed) > 0 { return .failed }
        if rejects > 0 || truncatedFiles > 0 || damagedFiles > 0 || lostLines > 0 { return .badInput }
        return .clean
    }
}

/// The outcome of an ingest as a whole, which the CLI maps to its exit code.
public enum IngestStatus: String, Sendable, Codable {
    case clean
    case badInput = "bad-input"
    case failed
}

extension IngestSummary {
    /// An encoder whose `userInfo` holds a string under this key gets that string, alone in an
    /// array, in place of the files' reports: for a writer that streams them (the CLI's `--json`).
    /// A constant key, on which `CodingUserInfoKey`'s failable initializer cannot fail.
    public static let filesMarker = CodingUserInfoKey(rawValue: "lifeline.ingest.files")!

    private enum CodingKeys: String, CodingKey {
        case database, files, wallSeconds, status, events, duplicates, rejects, rejectsByReason
        case filesIngested, filesResumed, filesSkipped, filesFailed, filesTruncated, eventsPerSecond
        case filesIgnored, filesDamaged, lostLines, filesElsewhere, lines, blankLines
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(database, forKey: .database)
        try container.encode(count(.ingested), forKey: .filesIngested)
        try container.encode(count(.resumed), forKey: .filesResumed)
        try container.encode(count(.skipped), forKey: .filesSkipped)
        try container.encode(count(.failed), forKey: .filesFailed)
        try container.encode(truncatedFiles, forKey: .filesTruncated)
        try container.encode(damagedFiles, forKey: .filesDamaged)
        try container.encode(count(.ignored), forKey: .filesIgnored)
        try container.encode(count(.elsewhere), forKey: .filesElsewhere)
        // The whole run's accounting, as each file's: lines = events + duplicates + rejects +
        // blankLines + lostLines.
        try container.encode(lines, forKey: .lines)
        try container.encode(events, forKey: .events)
        try container.encode(duplicates, forKey: .duplicates)
        try container.encode(rejects, forKey: .rejects)
        try container.encode(rejectsByReason, forKey: .rejectsByReason)
        try container.encode(blankLines, forKey: .blankLines)
        try container.encode(lostLines, forKey: .lostLines)
        try container.encode(wallSeconds, forKey: .wallSeconds)
        try container.encode(eventsPerSecond.rounded(), forKey: .eventsPerSecond)
        if let marker = encoder.userInfo[Self.filesMarker] as? String {
            try container.encode([marker], forKey: .files)
        } else {
            try container.encode(files, forKey: .files)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        database = try container.decode(String.self, forKey: .database)
        files = try container.decode([FileReport].self, forKey: .files)
        wallSeconds = try container.decode(Double.self, forKey: .wallSeconds)
    }
}
