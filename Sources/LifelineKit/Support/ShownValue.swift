import Foundation
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
        // Quotes and backslashes escaped first, so that those of `\u{…}` are not.
        let text = PrintableText.escaped(
            String(value.prefix(limit))
                .replacingOccurrences(of: "\\", with: "\\\\", options: .literal)
                .replacingOccurrences(of: "\"", with: "\\\"", options: .literal))
        let cut = value.count > limit ? "… (\(value.utf8.count) bytes)" : ""
        return "\"\(text)\"\(cut)"
    }
}
