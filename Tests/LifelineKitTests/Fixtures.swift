import Foundation
import GRDB
import Testing
import LifelineKit
import TraceModel
import TraceStore
import TraceSynth
import TestScratch

/// A temporary directory with a database path, removed when the test process exits.
struct Workspace {
    let directory: URL

    init() throws {
        directory = try ScratchDirectory.make("kit")
    }

    var databasePath: String { path("lifeline.db") }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @discardableResult
    func write(_ name: String, lines: [String], trailingNewline: Bool = true) throws -> String {
        let target = path(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let text = lines.joined(separator: "\n") + (trailingNewline ? "\n" : "")
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
        return target
    }

    func store() throws -> Store { try Store(path: databasePath) }
}

extension Workspace {
    /// A field-like v1.1 corpus with breaches injected in three launches of ten, written to
    /// `corpus/`: devices without `seq`, gzip and plain files, offsets and epoch times, unknown
    /// and nested fields, bad lines, and at least one file cut short. Returns its directory.
    func fieldCorpus(devices: Int, seed: UInt64) throws -> String {
        var spec = CorpusSpec(devices: devices, days: 2, seed: seed, breachRate: 0.3)
        spec.features = .v1_1
        let written = try FieldCorpusWriter.write(spec: spec, to: path("corpus"))
        #expect(written.cutFiles >= 1)
        return path("corpus")
    }

    /// A zstd file at `name` of two frames, `first` then `second`, the second cut in the middle
    /// (a file being written when its device died): only the first frame's lines survive.
    func zstdCutShort(_ name: String, first: [String], second: [String]) throws -> String {
        let target = path(name)
        let firstPart = try write(name + ".first", lines: first)
        let secondPart = try write(name + ".second", lines: second)
        #expect(try shell("zstd -q -c \(firstPart) > \(target) && zstd -q -c \(secondPart) > \(secondPart).zst") == 0)
        let tail = try Data(contentsOf: URL(fileURLWithPath: secondPart + ".zst"))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: target))
        handle.seekToEndOfFile()
        handle.write(tail.prefix(tail.count / 2))
        handle.closeFile()
        for part in [firstPart, secondPart, secondPart + ".zst"] { try FileManager.default.removeItem(atPath: part) }
        return target
    }
}

/// Lines of one small launch of device `device`, with `seq` from 0.
func launchLines(device: String = "D1", launch: String = "L1", count: Int, start: Int = 0) -> [String] {
    (start..<(start + count)).map { seq in
        #"{"ts":\#(1_763_712_000 + seq),"device":"\#(device)","launch":"\#(launch)","seq":\#(seq),"event":"snapshot","extra":{"n":\#(seq)}}"#
    }
}

/// Runs a command line tool and returns its exit status.
@discardableResult
func shell(_ command: String) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
}

/// The launches whose last event lies in a file cut short, asked of the whole store in one query:
/// what `check`'s reader must find launch by launch as it reads.
func cutShortLaunches(in store: Store) throws -> [(device: String, launch: String)] {
    try store.read { db in
        try Row.fetchAll(db, sql: """
            SELECT d.name AS device, l.name AS launch
            FROM launch_rows l JOIN devices d ON d.id = l.device_id
            WHERE (SELECT f.truncated FROM event_rows e JOIN files f ON f.id = e.file_id
                   WHERE e.id >= (l.id << 32) AND e.id < ((l.id + 1) << 32)
                   ORDER BY e.id DESC LIMIT 1) = 1
            ORDER BY d.name, l.first_ts, l.id
            """)
        .map { (device: $0["device"] as String, launch: $0["launch"] as String) }
    }
}

/// An order of findings that does not depend on when a replay reported them (a stream replayed
/// device after device reports the same findings as one held whole, in another order).
func inStreamOrder(_ a: Finding, _ b: Finding) -> Bool {
    (a.device, a.launch, a.ts, a.rule, a.message) < (b.device, b.launch, b.ts, b.rule, b.message)
}

/// A launch record with its number (the order launches began in, across devices) left out.
func withoutNumber(_ record: LaunchRecord) -> LaunchRecord {
    var record = record
    record.number = 0
    return record
}
