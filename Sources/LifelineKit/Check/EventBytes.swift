#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TraceModel
import TraceStore

/// A decoded event as compact bytes, for ``DeviceSpill``: a spilled line is kept as the event it
/// decoded to, so that reading it back costs a copy of its texts, not a second JSON decoding
/// (which is most of the work of `check --stdin`).
///
/// The bytes: the device id first (so that a spill sorts by it in place), the time (8), a mask of
/// the optional values present (4), the numbers present (`seq`, `mono`, `task`, row id: 8 bytes
/// each), `success` (a byte) if present, then the launch, the name and the optional texts present.
/// A text is its length (a varint) and its UTF-8 bytes.
enum EventBytes {
    /// The optional values, each a bit of the mask.
    private enum Field: Int, CaseIterable {
        case seq, mono, app, appVersion, os, model, process, phase, reason, cause, task, identifier, call, success
        case result, attrs, rowID

        var bit: UInt32 { 1 << UInt32(rawValue) }
    }

    /// Appends `event` to `buffer`.
    static func append(_ event: borrowing Event, to buffer: ByteBuffer) {
        var mask: UInt32 = 0
        func mark(_ value: Field, _ present: Bool) { if present { mask |= value.bit } }
        mark(.seq, event.seq != nil)
        mark(.mono, event.mono != nil)
        mark(.app, event.app != nil)
        mark(.appVersion, event.appVersion != nil)
        mark(.os, event.os != nil)
        mark(.model, event.model != nil)
        mark(.process, event.process != nil)
        mark(.phase, event.phase != nil)
        mark(.reason, event.reason != nil)
        mark(.cause, event.cause != nil)
        mark(.task, event.task != nil)
        mark(.identifier, event.identifier != nil)
        mark(.call, event.call != nil)
        mark(.success, event.success != nil)
        mark(.result, event.result != nil)
        mark(.attrs, event.attrs != nil)
        mark(.rowID, event.rowID != nil)
        buffer.text(event.device)
        // The time, the mask and the four numbers and flag there may be; each text makes room for itself.
        buffer.reserve(8 + 4 + 4 * 8 + 1)
        buffer.littleEndian(UInt64(bitPattern: event.ts.microseconds))
        buffer.littleEndian(mask)
        if let seq = event.seq { buffer.littleEndian(UInt64(bitPattern: seq)) }
        if let mono = event.mono { buffer.littleEndian(mono.bitPattern) }
        if let task = event.task { buffer.littleEndian(UInt64(bitPattern: task)) }
        if let rowID = event.rowID { buffer.littleEndian(UInt64(bitPattern: rowID)) }
        if let success = event.success { buffer.byte(success ? 1 : 0) }
        buffer.text(event.launch)
        buffer.text(event.name)
        buffer.text(event.app)
        buffer.text(event.appVersion)
        buffer.text(event.os)
        buffer.text(event.model)
        buffer.text(event.process)
        buffer.detailTexts(of: event)
    }

    /// The device id's bytes at the start of an event's `bytes` (nil when they hold none).
    static func device(in bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        var reader = ByteReader(bytes)
        return try? reader.text()
    }

    /// Reads events back, keeping each text field's last value: the lines of one device repeat
    /// its id, its launch's and its app's, and a text equal to the last is shared, not made again.
    struct Reader {
        private var last: [String] = Array(repeating: "", count: 16)

        /// The event of `bytes` (all of them), or nil when they are not one.
        mutating func event(_ bytes: UnsafeRawBufferPointer) -> Event? {
            var reader = ByteReader(bytes)
            do {
                let device = try text(&reader, 0)
                let ts = try reader.littleEndian(UInt64.self)
                let mask = try reader.littleEndian(UInt32.self)
                guard mask >> Field.allCases.count == 0 else { return nil }
                func has(_ value: Field) -> Bool { mask & value.bit != 0 }
                func integer(_ value: Field) throws(ByteReader.Malformed) -> Int64? {
                    has(value) ? Int64(bitPattern: try reader.littleEndian(UInt64.self)) : nil
                }
                func string(_ value: Field, _ slot: Int) throws(ByteReader.Malformed) -> String? {
                    has(value) ? try text(&reader, slot) : nil
                }
                let seq = try integer(.seq)
                let mono = try integer(.mono).map { Double(bitPattern: UInt64(bitPattern: $0)) }
                let task = try integer(.task)
                let rowID = try integer(.rowID)
                var success: Bool?
                if has(.success) {
                    let flag = try reader.byte()
                    guard flag <= 1 else { return nil }
                    success = flag == 1
                }
                let launch = try text(&reader, 1)
                let name = try text(&reader, 2)
                let event = try Event(
                    ts: Timestamp(microseconds: Int64(bitPattern: ts)), device: device, launch: launch, name: name,
                    seq: seq, mono: mono, app: string(.app, 3), appVersion: string(.appVersion, 4), os: string(.os, 5),
                    model: string(.model, 6), process: string(.process, 7), phase: string(.phase, 8),
                    reason: string(.reason, 9), cause: string(.cause, 10), task: task,
                    identifier: string(.identifier, 11), call: string(.call, 12), success: success,
                    result: string(.result, 13), attrs: string(.attrs, 14), rowID: rowID)
                return reader.isAtEnd ? event : nil
            } catch {
                return nil
            }
        }

        /// The next text, shared with slot `slot`'s last value when the bytes are the same.
        private mutating func text(_ reader: inout ByteReader, _ slot: Int) throws(ByteReader.Malformed) -> String {
            let bytes = try reader.text()
            var previous = last[slot]
            let same = previous.withUTF8 { known in
                guard known.count == bytes.count else { return false }
                guard let a = known.baseAddress, let b = bytes.baseAddress else { return true }
                return memcmp(a, b, known.count) == 0
            }
            if same { return previous }
            let value = String(decoding: bytes, as: UTF8.self)
            last[slot] = value
            return value
        }
    }
}
