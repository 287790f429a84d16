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
        var cursor = Cursor(bytes: bytes)
        return cursor.text()
    }

    /// Reads events back, keeping each text field's last value: the lines of one device repeat
    /// its id, its launch's and its app's, and a text equal to the last is shared, not made again.
    struct Reader {
        private var last: [String] = Array(repeating: "", count: 16)

        /// The event of `bytes` (all of them), or nil when they are not one.
        mutating func event(_ bytes: UnsafeRawBufferPointer) -> Event? {
            var cursor = Cursor(bytes: bytes)
            guard let device = text(&cursor, 0), let ts = cursor.word(UInt64.self), let mask = cursor.word(UInt32.self),
                  mask >> Field.allCases.count == 0
            else { return nil }
            func has(_ value: Field) -> Bool { mask & value.bit != 0 }
            var valid = true
            func integer(_ value: Field) -> Int64? {
                guard has(value) else { return nil }
                guard let word = cursor.word(UInt64.self) else { valid = false; return nil }
                return Int64(bitPattern: word)
            }
            let seq = integer(.seq)
            let mono = integer(.mono).map { Double(bitPattern: UInt64(bitPattern: $0)) }
            let task = integer(.task)
            let rowID = integer(.rowID)
            var success: Bool?
            if has(.success) {
                guard let flag = cursor.byte(), flag <= 1 else { return nil }
                success = flag == 1
            }
            guard valid, let launch = text(&cursor, 1), let name = text(&cursor, 2)
            else { return nil }
            func string(_ value: Field, _ slot: Int) -> String? {
                guard has(value) else { return nil }
                guard let string = text(&cursor, slot) else { valid = false; return nil }
                return string
            }
            let event = Event(
                ts: Timestamp(microseconds: Int64(bitPattern: ts)), device: device, launch: launch, name: name,
                seq: seq, mono: mono, app: string(.app, 3), appVersion: string(.appVersion, 4), os: string(.os, 5),
                model: string(.model, 6), process: string(.process, 7), phase: string(.phase, 8),
                reason: string(.reason, 9), cause: string(.cause, 10), task: task,
                identifier: string(.identifier, 11), call: string(.call, 12), success: success,
                result: string(.result, 13), attrs: string(.attrs, 14), rowID: rowID)
            guard valid, cursor.isAtEnd else { return nil }
            return event
        }

        /// The next text, shared with slot `slot`'s last value when the bytes are the same.
        private mutating func text(_ cursor: inout Cursor, _ slot: Int) -> String? {
            guard let bytes = cursor.text() else { return nil }
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

    /// Where a reading is in an event's bytes.
    private struct Cursor {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func word<Word: FixedWidthInteger>(_: Word.Type) -> Word? {
            guard bytes.count - offset >= MemoryLayout<Word>.size else { return nil }
            defer { offset += MemoryLayout<Word>.size }
            return Word(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Word.self))
        }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// A base-128 varint of at most 10 bytes, least significant group first.
        mutating func varint() -> UInt64? {
            var value: UInt64 = 0
            for shift in stride(from: UInt64(0), to: 70, by: 7) {
                guard let byte = byte() else { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
            }
            return nil
        }

        mutating func text() -> UnsafeRawBufferPointer? {
            guard let length = varint(), length <= UInt64(bytes.count - offset) else { return nil }
            let count = Int(length)
            defer { offset += count }
            return UnsafeRawBufferPointer(rebasing: bytes[offset ..< offset + count])
        }
    }
}
