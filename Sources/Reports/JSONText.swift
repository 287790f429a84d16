/// JSON text written by hand where the order of keys matters (query results keep their
/// columns' order, which `JSONSerialization` and `JSONEncoder` do not promise).
public enum JSONText {
    /// A JSON string: quotes, backslashes and control characters (NUL included) escaped, as
    /// ``appendQuoted(_:to:)`` writes it.
    public static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string, escaped as `JSONEncoder` escapes it: quotes and
    /// backslashes; `\b`, `\t`, `\n`, `\f`, `\r` by their short escapes and the rest below 0x20
    /// as `\u00XX`; everything else as it is (`/` included). One definition for every JSON
    /// Lifeline writes by hand.
    ///
    /// The bytes between escapes are appended a run at a time: appended one by one, a finding's
    /// message cost some 3,500 instructions, half of writing the finding's JSON.
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart ..< index]))
                appendEscaped(byte, to: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A quote, a backslash or a control character, escaped.
    private static func appendEscaped(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        default:
            bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30])
            bytes.append(contentsOf: [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
