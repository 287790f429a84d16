/// A value the user typed (or an input named), as a message on standard error shows it: as it is
/// when short and printable; else cut at 80 characters, control and format characters written as
/// `\u{…}`, and quoted — a 100 kB `--app` or one carrying an escape sequence must not flood or
/// drive the terminal.
public enum ShownValue {
    public static let limit = 80

    public static func shown(_ value: String) -> String {
        let hidden = value.unicodeScalars.contains(where: isHidden)
        guard hidden || value.count > limit || value.isEmpty else { return value }
        var text = ""
        for scalar in value.prefix(limit).unicodeScalars {
            if isHidden(scalar) {
                text += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else if scalar == "\"" || scalar == "\\" {
                text += "\\" + String(scalar)
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        let cut = value.count > limit ? "… (\(value.utf8.count) bytes)" : ""
        return "\"\(text)\"\(cut)"
    }

    /// Control characters, format characters (such as a right-to-left override) and separators.
    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: true
        default: false
        }
    }
}
