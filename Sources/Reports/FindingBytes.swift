import TraceModel

/// A finding as compact bytes, for ``FindingLog``'s spill file: length-prefixed texts and
/// fixed-width numbers, several times cheaper to write and read back than JSON.
enum FindingBytes {
    static func append(_ finding: Finding, to bytes: inout [UInt8]) {
        var writer = Writer(bytes: bytes)
        bytes = []
        writer.text(finding.rule)
        writer.text(finding.category.rawValue)
        writer.text(finding.severity.rawValue)
        writer.text(finding.device)
        writer.text(finding.launch)
        writer.integer(finding.ts.microseconds)
        writer.events(finding.events)
        writer.optionalText(finding.budget)
        writer.optionalReal(finding.budgetSeconds)
        writer.optionalReal(finding.measured)
        writer.optionalText(finding.unit)
        writer.text(finding.message)
        writer.optionalText(finding.explainedBy?.rule)
        writer.integer(finding.explainedBy?.ts.microseconds ?? 0)
        writer.integer(Int64(finding.factors.count))
        for factor in finding.factors {
            writer.text(factor.kind.rawValue)
            writer.optionalReal(factor.share)
            writer.events(factor.evidence)
        }
        bytes = writer.bytes
    }

    /// Reads the finding that starts at `offset` of `bytes` and moves `offset` past it; nil when
    /// the bytes are not one (a spill file this process did not write whole).
    static func read(_ bytes: [UInt8], at offset: inout Int) -> Finding? {
        var reader = Reader(bytes: bytes, offset: offset)
        guard let rule = reader.text(),
              let category = reader.text().flatMap(RuleCategory.init(rawValue:)),
              let severity = reader.text().flatMap(Severity.init(rawValue:)),
              let device = reader.text(), let launch = reader.text(), let ts = reader.integer(),
              let events = reader.events()
        else { return nil }
        guard let budget = reader.optionalText(), let budgetSeconds = reader.optionalReal(),
              let measured = reader.optionalReal(), let unit = reader.optionalText(), let message = reader.text(),
              let causeRule = reader.optionalText(), let causeTS = reader.integer(),
              let factorCount = reader.integer(), factorCount >= 0, factorCount <= bytes.count
        else { return nil }
        var factors: [Finding.Factor] = []
        for _ in 0 ..< factorCount {
            guard let kind = reader.text().flatMap(Finding.FactorKind.init(rawValue:)), let share = reader.optionalReal(),
                  let evidence = reader.events()
            else { return nil }
            factors.append(Finding.Factor(kind: kind, share: share ?? 0, evidence: evidence))
        }
        offset = reader.offset
        var finding = Finding(
            rule: rule, category: category, severity: severity, device: device, launch: launch,
            ts: Timestamp(microseconds: ts), events: events, budget: budget, budgetSeconds: budgetSeconds,
            measured: measured, message: message,
            explainedBy: causeRule.map { FindingRef(rule: $0, ts: Timestamp(microseconds: causeTS)) },
            factors: factors)
        // As stored: the initialiser would default a missing unit of a measured finding.
        finding.unit = unit
        return finding
    }

    private struct Writer {
        var bytes: [UInt8]

        mutating func integer(_ value: Int64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func text(_ value: String) {
            integer(Int64(value.utf8.count))
            bytes.append(contentsOf: value.utf8)
        }

        mutating func optionalText(_ value: String?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { text(value) }
        }

        mutating func optionalInteger(_ value: Int64?) {
            bytes.append(value == nil ? 0 : 1)
            if let value { integer(value) }
        }

        mutating func optionalReal(_ value: Double?) {
            optionalInteger(value.map { Int64(bitPattern: $0.bitPattern) })
        }

        /// A count, then each event: row id, `seq`, name and time.
        mutating func events(_ events: [EventRef]) {
            integer(Int64(events.count))
            for event in events {
                optionalInteger(event.rowID)
                optionalInteger(event.seq)
                text(event.name)
                integer(event.ts.microseconds)
            }
        }
    }

    /// Reads what ``Writer`` wrote. Each read is doubly optional where the value is: the outer
    /// nil means the bytes ran out or make no sense.
    private struct Reader {
        let bytes: [UInt8]
        var offset: Int

        mutating func integer() -> Int64? {
            guard bytes.count - offset >= 8 else { return nil }
            var value: Int64 = 0
            for index in (0 ..< 8).reversed() { value = value << 8 | Int64(bytes[offset + index]) }
            offset += 8
            return value
        }

        mutating func text() -> String? {
            guard let length = integer(), length >= 0, length <= bytes.count - offset else { return nil }
            let end = offset + Int(length)
            defer { offset = end }
            return String(decoding: bytes[offset ..< end], as: UTF8.self)
        }

        mutating func flag() -> Bool? {
            guard offset < bytes.count, bytes[offset] <= 1 else { return nil }
            defer { offset += 1 }
            return bytes[offset] == 1
        }

        mutating func optionalText() -> String?? {
            guard let present = flag() else { return nil }
            guard present else { return .some(nil) }
            return text().map { .some($0) }
        }

        mutating func optionalInteger() -> Int64?? {
            guard let present = flag() else { return nil }
            guard present else { return .some(nil) }
            return integer().map { .some($0) }
        }

        mutating func optionalReal() -> Double?? {
            optionalInteger().map { $0.map { Double(bitPattern: UInt64(bitPattern: $0)) } }
        }

        mutating func events() -> [EventRef]? {
            guard let count = integer(), count >= 0, count <= bytes.count - offset else { return nil }
            var events: [EventRef] = []
            events.reserveCapacity(Int(count))
            for _ in 0 ..< count {
                guard let rowID = optionalInteger(), let seq = optionalInteger(), let name = text(), let ts = integer()
                else { return nil }
                events.append(EventRef(rowID: rowID, seq: seq, name: name, ts: Timestamp(microseconds: ts)))
            }
            return events
        }
    }
}
