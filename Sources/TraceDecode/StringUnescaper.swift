/// Turns the contents of a JSON string that holds escapes into its UTF-8 text.
enum StringUnescaper {
    /// Replaces `output` with the unescaped `contents`, which ``JSONScanner`` has already checked.
    static func unescape(_ contents: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        output.removeAll(keepingCapacity: true)
        var index = 0
        while index < contents.count {
            let byte = contents[index]
            guard byte == .backslash else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = contents[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(.lineFeed)
            case UInt8(ascii: "r"): output.append(.carriageReturn)
            case UInt8(ascii: "t"): output.append(.tab)
            case UInt8(ascii: "u"):
                var scalar = codeUnit(contents, at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    let low = codeUnit(contents, at: index + 2)
                    index += 6
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                }
                appendUTF8(of: scalar, to: &output)
            default: output.append(escape)  // '"', '\' and '/' stand for themselves
            }
        }
    }

    private static func codeUnit(_ contents: UnsafeRawBufferPointer, at offset: Int) -> UInt32 {
        JSONScanner.hexValue(UnsafeRawBufferPointer(rebasing: contents[offset ..< offset + 4]))!
    }

    private static func appendUTF8(of scalar: UInt32, to output: inout [UInt8]) {
        switch scalar {
        case 0 ..< 0x80:
            output.append(UInt8(scalar))
        case 0x80 ..< 0x800:
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800 ..< 0x10000:
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        default:
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            output.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }
}
