import TraceModel

/// A text of a ``ReplayEvent`` (an identifier, a call id, a value no closed set knows), as its
/// number in the ``TextTable`` of the event's device: comparing two is comparing integers, and
/// an event holding one holds no reference.
public struct TextID: Hashable, Sendable, BitwiseCopyable {
    let index: UInt32

    /// The empty text, which every table holds at the same number: a check can test for it
    /// without a table (`event.cause == .other(.empty)`).
    public static let empty = TextID(index: 0)

    /// No text: a number no table gives (each saturates one below it), which an event stores
    /// for an optional text it lacks (see ``ReplayEvent``).
    static let absent = TextID(index: .max)

    /// This text, or nil for ``absent``.
    var present: TextID? { self == .absent ? nil : self }
}

/// Whatever gives texts their numbers for ``ReplayEvent``: the device's ``TextTable`` itself, or
/// a ``TextTableFeed`` that numbers them on a reading thread and hands the new ones over.
public protocol TextNumbering {
    /// The number of `text`, given it if it is new.
    mutating func id(_ text: String) -> TextID
}

/// The texts of one device's replay, each kept once and numbered in the order first seen.
///
/// One table per device (``DeviceState/texts``), so that everything a device's events named is
/// freed with the device's state when its log ends (`check` over the store replays device after
/// device). It holds what varies little within a device — task identifiers, call ids, session
/// names, values the closed sets do not know, `config` attributes — never a device's or a
/// launch's name (``LaunchState`` keeps those) nor the attributes of an ordinary event (the few
/// the rules read are typed fields of ``ReplayEvent``). It grows with the distinct texts of one
/// device, which is what the device's checks may hold on to anyway. Not checked for exclusivity
/// at run time, for the reason given at ``LaunchState``: a table belongs to one device's replay.
public final class TextTable: TextNumbering {
    @exclusivity(unchecked) private var texts: [String] = []
    @exclusivity(unchecked) private var slots = TextSlots()

    public init() {
        _ = id("")
    }

    /// The number of `text`, given it if it is new.
    public func id(_ text: String) -> TextID {
        let (found, slot) = slots.find(hash: FNV1a.hash(text)) { texts[Int($0)] == text }
        if let found { return TextID(index: found) }
        // More than 4 billion distinct texts in one device cannot be held in memory anyway;
        // saturate rather than trap on input.
        let index = UInt32(truncatingIfNeeded: min(texts.count, Int(UInt32.max - 1)))
        texts.append(text)
        slots.insert(index, at: slot, count: texts.count) { FNV1a.hash(texts[$0]) }
        return TextID(index: index)
    }

    /// Takes the texts a ``TextTableFeed`` numbered since its last hand-over, in order, so that
    /// its numbers are this table's. Only for a table fed by one feed from its start.
    public func append(fedTexts: [String]) {
        for text in fedTexts { _ = id(text) }
    }

    /// The text numbered `id` (empty for a number this table never gave).
    public subscript(id: TextID) -> String {
        let index = Int(id.index)
        return index < texts.count ? texts[index] : ""
    }

    /// How many distinct texts are held (for tests of the memory bound).
    public var count: Int { texts.count }
}
