import ArgumentParser
import LifelineKit

@main
struct Lifeline: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifeline",
        abstract: "Turn iOS apps' lifecycle and background-task logs from the field into answers.",
        discussion: """
            Ingest JSON-lines event logs (.jsonl.zst, .jsonl.gz, .jsonl) into a SQLite database, \
            replay them against Apple's documented sequences, and ask the database anything.
            """,
        version: LifelineVersion.current,
        subcommands: [
            IngestCommand.self, CheckCommand.self, TimelineCommand.self, ExportCommand.self, QueryCommand.self, ReportCommand.self,
            RulesCommand.self,
            GenerateCommand.self, KeyByDeviceCommand.self, ImportFindingsCommand.self,
        ])
}
