import Reports

/// A value the user typed (or an input named), as a message on standard error shows it: as it is
/// when short and printable; else cut at 80 characters, control and format characters written as
/// `\u{…}`, and quoted — a 100 kB `--app` or one carrying an escape sequence must not flood or
/// drive the terminal.
public enum ShownValue {
    public static let limit = 80

    public static func shown(_ value: String) -> String {
        let hidden = value.unicodeScalars.contains(where: PrintableText.isHidden)
        guard hidden || value.count > limit || value.isEmpty else { return value }
        var text = ""
        for scalar in value.prefix(limit).unicodeScalars {
            if PrintableText.isHidden(scalar) {
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
}
