/// The fields of a line that have a place of their own in ``Event``; every other key goes to
/// `attrs`.
enum EventField: Int, CaseIterable {
    case ts, device, launch, event
    case seq, mono, task, call, success
    case app, appVersion, os, model, process, phase, reason, cause, identifier, result

    /// The field named by `key` (the unescaped bytes of an object key), if it is one of these.
    static func named(_ key: UnsafeRawBufferPointer) -> EventField? {
        guard let first = key.first else { return nil }
        // The length and first byte leave at most two candidates to compare in full.
        switch (key.count, first) {
        case (2, UInt8(ascii: "t")): return match(key, "ts", .ts)
        case (2, UInt8(ascii: "o")): return match(key, "os", .os)
        case (3, UInt8(ascii: "s")): return match(key, "seq", .seq)
        case (3, UInt8(ascii: "a")): return match(key, "app", .app)
        case (4, UInt8(ascii: "m")): return match(key, "mono", .mono)
        case (4, UInt8(ascii: "t")): return match(key, "task", .task)
        case (4, UInt8(ascii: "c")): return match(key, "call", .call)
        case (5, UInt8(ascii: "e")): return match(key, "event", .event)
        case (5, UInt8(ascii: "m")): return match(key, "model", .model)
        case (5, UInt8(ascii: "p")): return match(key, "phase", .phase)
        case (5, UInt8(ascii: "c")): return match(key, "cause", .cause)
        case (6, UInt8(ascii: "d")): return match(key, "device", .device)
        case (6, UInt8(ascii: "l")): return match(key, "launch", .launch)
        case (6, UInt8(ascii: "r")):
            return match(key, "reason", .reason) ?? match(key, "result", .result)
        case (7, UInt8(ascii: "p")): return match(key, "process", .process)
        case (7, UInt8(ascii: "s")): return match(key, "success", .success)
        case (10, UInt8(ascii: "i")): return match(key, "identifier", .identifier)
        case (11, UInt8(ascii: "a")): return match(key, "app_version", .appVersion)
        default: return nil
        }
    }

    /// `field` if `key` spells `name`; the lengths are equal.
    @inline(__always)
    private static func match(
        _ key: UnsafeRawBufferPointer, _ name: StaticString, _ field: EventField
    ) -> EventField? {
        let spelling = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for index in 1 ..< key.count where key[index] != spelling[index] {
            return nil
        }
        return field
    }
}
