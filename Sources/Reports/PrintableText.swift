/// Text from a log as a human-readable output prints it: control characters (an escape that
/// would drive the terminal, a carriage return that would overwrite the line), format characters
/// (a right-to-left override) and line separators are written as `\u{1B}`; everything else as it
/// is. Device ids, launch ids, identifiers and messages come from the logs, so a log must not be
/// able to reach the terminal of whoever reads its report. Machine formats (JSON, CSV) keep the
/// text exact: their encoders escape what they must.
public enum PrintableText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var escaped = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// Text from a log in Markdown: printable (``escaped(_:)``), with `<` written as `&lt;` (and so
    /// `&` as `&amp;`) so that a name such as `<i>x</i>` is shown, not rendered, and, in a table's cell, `|` as `\|` so that
    /// it does not split the cell (a `terminate` reason is any string).
    public static func markdown(_ text: String, inTable: Bool = false) -> String {
        var text = escaped(text).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        if inTable { text = text.replacingOccurrences(of: "|", with: "\\|") }
        return text
    }

    /// Control characters, format characters (such as a right-to-left override) and separators.
    public static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        // Printable ASCII, most of any log, without the lookup.
        if scalar.value >= 0x20 && scalar.value < 0x7F { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return true
        default: return false
        }
    }
}
