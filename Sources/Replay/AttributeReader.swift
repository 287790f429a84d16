import Foundation
import TraceModel

/// Reads the attributes an event keeps in its `attrs` JSON text (those without a typed field:
/// `priority`, `permitted_identifiers`, `value`, …). Parsing is lazy and only rules that need
/// such an attribute pay for it; they are on rare events.
public struct AttributeReader {
    private let object: [String: Any]

    public init(_ attrs: String?) {
        guard let attrs, let data = attrs.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else {
            self.object = [:]
            return
        }
        self.object = object
    }

    public func string(_ name: String) -> String? { object[name] as? String }

    public func double(_ name: String) -> Double? {
        guard let number = object[name] as? NSNumber, !isBool(number) else { return nil }
        return number.doubleValue
    }

    public func int(_ name: String) -> Int? {
        guard let value = double(name), value == value.rounded() else { return nil }
        return Int(value)
    }

    public func bool(_ name: String) -> Bool? {
        guard let number = object[name] as? NSNumber, isBool(number) else { return nil }
        return number.boolValue
    }

    public func strings(_ name: String) -> [String]? { object[name] as? [String] }

    public func contains(_ name: String) -> Bool { object[name] != nil }

    private func isBool(_ number: NSNumber) -> Bool {
        // JSONSerialization gives booleans as NSNumber too; on Linux the type is told by objCType.
        String(cString: number.objCType) == "c" || type(of: number) == type(of: NSNumber(value: true))
    }
}

extension Event {
    /// This event's `attrs`, parsed for reading.
    public var attributes: AttributeReader { AttributeReader(attrs) }
}
