import TraceDecode
import TraceModel

/// Reads the attributes an event keeps in its `attrs` JSON text (those without a typed field:
/// `permitted_identifiers`, `scene`, …) by parsing it whole: for a launch's `config`
/// (``LaunchConfig``), a scene id of an uncommon shape, and the timeline. The kinds read for every
/// event go through visitors instead (``KindAttributes``, ``Readings``), which tests compare with
/// this reader on hostile and seeded texts.
public struct AttributeReader {
    private let attributes: JSONAttributes?

    /// Reads `attrs`; with `names`, only the attributes so named can be read (the text is still
    /// judged whole: one that is not a JSON object has none).
    public init(_ attrs: String?, only names: [String]? = nil) {
        attributes = attrs.flatMap { JSONAttributes($0, keeping: names) }
    }

    public func string(_ name: String) -> String? { attributes?[name]?.text }

    public func double(_ name: String) -> Double? { attributes?[name]?.double }

    public func int(_ name: String) -> Int? { attributes?[name]?.int }

    public func bool(_ name: String) -> Bool? { attributes?[name]?.bool }

    public func strings(_ name: String) -> [String]? {
        guard case .strings(let value) = attributes?[name] else { return nil }
        return value
    }

    /// An id: a string as it is, a whole number as its decimal text (as `call` is kept).
    public func identifier(_ name: String) -> String? { attributes?[name]?.identifier }

    /// A time: RFC 3339 text or a number of epoch seconds (saturated at the ends of the range).
    public func time(_ name: String) -> Timestamp? { attributes?[name]?.time }
}
