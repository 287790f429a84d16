import Foundation
import Reports
import TraceDecode
import TraceModel
import TraceRead

/// The first pass of a replay spread over machines (the Spark job, `spark/lifeline_spark.py`):
/// reads log files as `ingest` reads them and writes every good line keyed by its device, so
/// that a shuffle by device brings each device's lines together wherever they were uploaded,
/// and `check --stdin --keyed` (``KeyedReplay``) replays each device once and whole.
///
/// One record a line, fields separated by a tab, written in the order the files are read:
///
/// - `E DEVICE FILE LINE TEXT`: an event line. `DEVICE` is its device id as a JSON string (so it
///   holds no tab or newline, and one device always has the same key), `FILE` the input's
///   number (its position in the list, counted from `firstIndex`), `LINE` the line's number in
///   the file, and `TEXT` the line as it was read.
/// - `C DEVICE FILE`: file `FILE` was cut short, and held events of `DEVICE` (one record per
///   device of the file): a launch whose last event lies in it is replayed as cut short, as the
///   store does for a file marked truncated.
/// - `F FILE REPORT`: what became of input `FILE`, after its other records: a ``FileReport`` as
///   JSON, counted as `ingest` counts (lines, events, rejects by reason, blank and lost lines,
///   damage, truncation). `duplicates` is 0: duplicates are only known once a device is whole.
///
/// Lines that are not events (rejects) are counted in the file's report, not written: what the
/// second pass receives are events this decoder accepted, so it decodes them again the same way.
public struct DeviceKeyer {
    /// Lines longer than this are rejected (`line-too-long`), as `ingest` does.
    public var maxLineBytes = 1 << 20
    /// Bytes gathered before they are handed to the output.
    public var flushBytes = 1 << 20

    public init() {}

    /// The record kinds, by their first byte.
    public enum RecordKind: UInt8 {
        case event = 0x45  // E
        case cut = 0x43  // C
        case file = 0x46  // F
    }

    /// Reads every path in order (file `firstIndex + n` is `paths[n]`; `-` is standard input),
    /// writes the records to `output` in chunks, and returns each input's report.
    public func key(
        paths: [String], firstIndex: Int = 0, output: ([UInt8]) throws -> Void
    ) throws -> [FileReport] {
        try withoutActuallyEscaping(output) { output in
            var writer = RecordWriter(flushBytes: flushBytes, output: output)
            var reports: [FileReport] = []
            for (offset, path) in paths.enumerated() {
                let report = try key(path: path, index: firstIndex + offset, into: &writer)
                try writer.fileRecord(index: firstIndex + offset, report: report)
                reports.append(report)
            }
            try writer.flush()
            return reports
        }
    }

    /// Reads one input: its event lines, then, if it was cut short, one `C` record per device.
    private func key(path: String, index: Int, into writer: inout RecordWriter) throws -> FileReport {
        var report = FileReport(path: path, outcome: .ingested)
        let reader: LineReader
        do {
            reader = try LineReader(path: path, maxLineBytes: maxLineBytes)
        } catch {
            report.outcome = .failed
            report.message = "\(path): \(error)"
            return report
        }
        report.compression = reader.compression.rawValue
        var decoder = EventDecoder()
        var devices = Set<String>()
        var lastDevice: String?
        var lastKey: [UInt8] = []
        var outputError: (any Error)?
        do {
            try reader.forEachLine { line in
                report.lines += 1
                switch line.kind {
                case .complete:
                    switch decoder.decode(line.bytes) {
                    case .event(let event):
                        report.events += 1
                        if event.device != lastDevice {
                            lastDevice = event.device
                            lastKey = Array(JSONText.quoted(event.device).utf8)
                            devices.insert(event.device)
                        }
                        do {
                            try writer.eventRecord(device: lastKey, file: index, line: line.number, text: line.bytes)
                        } catch {
                            outputError = error
                            return false
                        }
                    case .blank: report.blankLines += 1
                    case .reject(let issue): report.rejects[issue.reason.rawValue, default: 0] += 1
                    }
                case .tooLong:
                    report.rejects[RejectReason.lineTooLong.rawValue, default: 0] += 1
                }
                return true
            }
        } catch {
            // As `ingest`: a read that fails part way keeps what was read, and the file is cut.
            report.cut = "\(error)"
            report.truncated = true
        }
        if let outputError { throw outputError }
        report.bytes = reader.compressedBytesRead
        report.damage = reader.damage
        report.lostLines = reader.lostLines
        report.lines += reader.lostLines
        if let cut = reader.cut {
            report.truncated = true
            report.cut = cut.description
        }
        if report.truncated {
            for device in devices.sorted() {
                try writer.cutRecord(device: Array(JSONText.quoted(device).utf8), file: index)
            }
        }
        return report
    }
}

/// Gathers records in a buffer and hands it over when it is full.
struct RecordWriter {
    let flushBytes: Int
    let output: ([UInt8]) throws -> Void
    private var buffer: [UInt8] = []

    init(flushBytes: Int, output: @escaping ([UInt8]) throws -> Void) {
        self.flushBytes = flushBytes
        self.output = output
        buffer.reserveCapacity(flushBytes + 4096)
    }

    mutating func eventRecord(device: [UInt8], file: Int, line: Int, text: UnsafeRawBufferPointer) throws {
        begin(.event, device: device)
        appendDecimal(file)
        field()
        appendDecimal(line)
        field()
        buffer.append(contentsOf: text)
        try end()
    }

    mutating func cutRecord(device: [UInt8], file: Int) throws {
        begin(.cut, device: device)
        appendDecimal(file)
        try end()
    }

    mutating func fileRecord(index: Int, report: FileReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        begin(.file)
        appendDecimal(index)
        field()
        buffer.append(contentsOf: try encoder.encode(report))
        try end()
    }

    /// A record's kind and, for a device's record, its device, each followed by a tab.
    private mutating func begin(_ kind: DeviceKeyer.RecordKind, device: [UInt8]? = nil) {
        buffer.append(kind.rawValue)
        field()
        if let device {
            buffer.append(contentsOf: device)
            field()
        }
    }

    private mutating func field() {
        buffer.append(0x09)
    }

    /// Ends the record; hands the buffer over when it is full.
    private mutating func end() throws {
        buffer.append(0x0A)
        if buffer.count >= flushBytes { try flush() }
    }

    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try output(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func appendDecimal(_ value: Int) {
        buffer.append(contentsOf: String(value).utf8)
    }
}
