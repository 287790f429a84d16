import TraceModel

/// Decodes lines of the trace format into ``Event`` values, one pass over each line's bytes.
///
/// The whole line is checked (UTF-8, then the JSON grammar, nested values included) while the
/// envelope and the typed attributes are picked out; every other member is copied verbatim, key
/// and value text as they appear, into ``Event/attrs``. A typed attribute whose JSON type does not
/// fit (`"task":"abc"`, `"seq":-1`) is not an error: it goes to `attrs` instead.
///
/// Numbers: a typed number that does not fit its field is ill-typed like a string there — an
/// integer beyond `Int64` in `seq` or `task`, a negative `seq`, a number beyond `Double` (`1e999`)
/// in `mono`: the event is kept, the field is left empty (a duration then falls back to `ts`) and
/// the member is kept verbatim in `attrs`. Rejecting the whole event for one optional field would
/// lose its other evidence. `ts` is required, so a time outside the years 0000–9999 that the
/// text form can write (``TimestampParser/writableRange``: milliseconds logged as seconds, most
/// often, or the text's last year with a negative offset) is a `bad-ts` reject. Huge finite values elsewhere are legal and kept:
/// everything downstream saturates instead of trapping.
///
/// When a key appears more than once, the last occurrence decides a typed field: one that fits sets
/// it, one that does not clears it (and is kept in `attrs`, as every ill-typed occurrence is).
///
/// A decoder keeps the last string of each field and its scratch buffers between lines, so reuse
/// one decoder for a whole stream.
public struct EventDecoder: Sendable {
    private var caches = Array(repeating: FieldCache(), count: EventField.allCases.count)
    /// The `attrs` object of the line being decoded.
    private var attrs: [UInt8] = []
    /// The text of the last string with escapes, once unescaped.
    private var unescaped: [UInt8] = []

    public init() {}

    /// Decodes one line, without its line terminator.
    ///
    /// A UTF-8 byte order mark at the start is skipped; an empty or whitespace-only line is
    /// ``DecodeResult/blank``. Columns in messages are 1-based byte offsets in `line`.
    public mutating func decode(_ line: UnsafeRawBufferPointer) -> DecodeResult {
        var scanner = JSONScanner(line)
        scanner.skipByteOrderMark()
        scanner.skipWhitespace()
        if scanner.isAtEnd { return .blank }

        attrs.removeAll(keepingCapacity: true)
        // Filled in place: `Event.init` copies what it is given, so it only gets placeholders.
        var event = Event(ts: Timestamp(microseconds: 0), device: "", launch: "", name: "")
        var envelope = Envelope()
        do throws(ScanError) {
            guard scanner.current == .openBrace else {
                let value = try scanner.scanValue(depth: 0)
                try scanner.finish()
                return .reject(
                    LineIssue(.notAnObject, "the line is \(value.typeDescription), not an object"))
            }
            try scanMembers(&scanner, into: &event, envelope: &envelope)
            try scanner.finish()
        } catch {
            return .reject(Self.issue(for: error, in: line))
        }
        return complete(consume event, envelope, in: scanner)
    }

    /// Scans the object at the cursor, storing each member as it comes.
    private mutating func scanMembers(
        _ scanner: inout JSONScanner, into event: inout Event, envelope: inout Envelope
    ) throws(ScanError) {
        try scanner.consume(.openBrace, expected: "'{'")
        if scanner.skip(.closeBrace) { return }
        repeat {
            let key = try scanner.scanKey()
            try scanner.consume(.colon, expected: "':'")
            let value = try scanner.scanValue(depth: 1)
            let isStored = field(named: key, in: scanner).map {
                store(value, as: $0, in: &event, envelope: &envelope, scanner)
            }
            if isStored != true {
                appendAttribute(key: key, value: value, in: scanner)
            }
        } while try scanner.consume(either: .comma, or: .closeBrace, expected: "',' or '}'")
            == .comma
    }

    private mutating func field(named key: JSONValue, in scanner: JSONScanner) -> EventField? {
        guard key.kind == .string(escaped: true) else {
            return EventField.named(scanner.slice(key.contents))
        }
        StringUnescaper.unescape(scanner.slice(key.contents), into: &unescaped)
        return unescaped.withUnsafeBytes { EventField.named($0) }
    }

    /// Puts `value` into the typed place of `field`; returns false if its JSON type does not fit.
    private mutating func store(
        _ value: JSONValue, as field: EventField, in event: inout Event,
        envelope: inout Envelope, _ scanner: JSONScanner
    ) -> Bool {
        switch field {
        case .ts: envelope.ts = value
        case .device: envelope.device = value
        case .launch: envelope.launch = value
        case .event: envelope.event = value
        case .seq:
            return assign(&event.seq, integer(value, in: scanner).flatMap { $0 >= 0 ? $0 : nil })
        case .mono:
            guard case .number = value.kind else { return assign(&event.mono, nil) }
            return assign(&event.mono, JSONNumber.double(scanner.slice(value.start ..< value.end)))
        case .task: return assign(&event.task, integer(value, in: scanner))
        case .call:
            return assign(&event.call, text(value, as: field, in: scanner, acceptingIntegers: true))
        case .success:
            guard case .bool(let flag) = value.kind else { return assign(&event.success, nil) }
            return assign(&event.success, flag)
        case .app: return assign(&event.app, text(value, as: field, in: scanner))
        case .appVersion: return assign(&event.appVersion, text(value, as: field, in: scanner))
        case .os: return assign(&event.os, text(value, as: field, in: scanner))
        case .model: return assign(&event.model, text(value, as: field, in: scanner))
        case .process: return assign(&event.process, text(value, as: field, in: scanner))
        case .phase: return assign(&event.phase, text(value, as: field, in: scanner))
        case .reason: return assign(&event.reason, text(value, as: field, in: scanner))
        case .cause: return assign(&event.cause, text(value, as: field, in: scanner))
        case .identifier: return assign(&event.identifier, text(value, as: field, in: scanner))
        case .result: return assign(&event.result, text(value, as: field, in: scanner))
        }
        return true
    }

    private func assign<Value>(_ property: inout Value?, _ value: Value?) -> Bool {
        property = value
        return value != nil
    }

    private func integer(_ value: JSONValue, in scanner: JSONScanner) -> Int64? {
        guard value.kind == .number(integer: true) else { return nil }
        return JSONNumber.int64(scanner.slice(value.start ..< value.end))
    }

    /// The text of a string value, or of an integer as written where `acceptingIntegers`.
    private mutating func text(
        _ value: JSONValue, as field: EventField, in scanner: JSONScanner,
        acceptingIntegers: Bool = false
    ) -> String? {
        switch value.kind {
        case .string(escaped: false):
            return caches[field.rawValue].string(for: scanner.slice(value.contents))
        case .string(escaped: true):
            StringUnescaper.unescape(scanner.slice(value.contents), into: &unescaped)
            return unescaped.withUnsafeBytes { caches[field.rawValue].string(for: $0) }
        case .number(integer: true) where acceptingIntegers:
            return caches[field.rawValue].string(for: scanner.slice(value.start ..< value.end))
        default:
            return nil
        }
    }

    private mutating func appendAttribute(
        key: JSONValue, value: JSONValue, in scanner: JSONScanner
    ) {
        attrs.append(attrs.isEmpty ? .openBrace : .comma)
        attrs.append(contentsOf: scanner.slice(key.start ..< key.end))
        attrs.append(.colon)
        attrs.append(contentsOf: scanner.slice(value.start ..< value.end))
    }

    /// The event of a line whose members have all been scanned, or why it is not one.
    private mutating func complete(
        _ event: consuming Event, _ envelope: Envelope, in scanner: JSONScanner
    ) -> DecodeResult {
        guard let ts = envelope.ts, let device = envelope.device, let launch = envelope.launch,
              let name = envelope.event
        else { return .reject(envelope.missingFieldIssue) }
        guard let deviceText = text(device, as: .device, in: scanner, acceptingIntegers: true)
        else { return .reject(Self.badFieldIssue("device", device)) }
        guard let launchText = text(launch, as: .launch, in: scanner, acceptingIntegers: true)
        else { return .reject(Self.badFieldIssue("launch", launch)) }
        guard let nameText = text(name, as: .event, in: scanner, acceptingIntegers: true)
        else { return .reject(Self.badFieldIssue("event", name)) }
        guard let timestamp = timestamp(ts, in: scanner) else {
            return .reject(Self.badTimestampIssue(ts, in: scanner))
        }
        event.ts = timestamp
        event.device = deviceText
        event.launch = launchText
        event.name = nameText
        if !attrs.isEmpty {
            attrs.append(.closeBrace)
            event.attrs = String(decoding: attrs, as: UTF8.self)
        }
        return .event(consume event)
    }

    /// The time of `ts`: RFC 3339 text if a string, epoch seconds if a number; nil outside
    /// ``TimestampParser/writableRange`` (so that every time kept can be written back as text).
    private mutating func timestamp(_ value: JSONValue, in scanner: JSONScanner) -> Timestamp? {
        guard let time = parsedTimestamp(value, in: scanner), TimestampParser.writableRange.contains(time) else { return nil }
        return time
    }

    private mutating func parsedTimestamp(_ value: JSONValue, in scanner: JSONScanner) -> Timestamp? {
        switch value.kind {
        case .string(escaped: false):
            return TimestampParser.parse(rfc3339: scanner.slice(value.contents))
        case .string(escaped: true):
            StringUnescaper.unescape(scanner.slice(value.contents), into: &unescaped)
            return unescaped.withUnsafeBytes { TimestampParser.parse(rfc3339: $0) }
        case .number:
            return TimestampParser.parse(epochSeconds: scanner.slice(value.start ..< value.end))
        default:
            return nil
        }
    }
}
