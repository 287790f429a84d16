import TraceModel

/// The formats `lifeline query` prints a result in: aligned for a terminal, exact for scripts.
public enum QueryFormat: String, Sendable, CaseIterable {
    /// Aligned columns, numbers to the right, long cells cut with `…`, and a row count.
    case table
    /// RFC 4180: a header row, fields quoted where they hold a comma, a quote or a line break.
    case csv
    /// One array of objects, keys in column order, values with their SQLite types.
    case json
    /// One object per line.
    case jsonl
    /// A GitHub table, for a pull request or a chat post.
    case markdown
}

extension QueryResult {
    /// The result as text in `format`; `width` caps a table cell (longer ones end in `…`).
    public func rendered(_ format: QueryFormat, width: Int = 40) -> String {
        switch format {
        case .table: table(width: max(width, 4))
        case .csv: ([columns.map(Self.csvField)] + rows.map { $0.map { Self.csvField($0.plainText) } })
            .map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
        case .json: rows.isEmpty ? "[]\n" : "[\n" + rows.map { "  " + jsonObject($0) }.joined(separator: ",\n") + "\n]\n"
        case .jsonl: rows.map { jsonObject($0) + "\n" }.joined()
        case .markdown: markdown()
        }
    }

    private func table(width: Int) -> String {
        let cells = rows.map { $0.map { Self.cut($0.plainText, width) } }
        let widths = columns.indices.map { column in
            ([Self.cut(columns[column], width)] + cells.map { $0[column] }).map(\.count).max() ?? 0
        }
        let numeric = columns.indices.map { column in
            !rows.isEmpty && rows.allSatisfy { $0[column].isNumber || $0[column] == .null }
        }
        func line(_ values: [String]) -> String {
            values.indices.map { index in
                let padding = String(repeating: " ", count: widths[index] - values[index].count)
                return numeric[index] ? padding + values[index] : values[index] + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }
        var lines = [line(columns.map { Self.cut($0, width) }), line(widths.map { String(repeating: "-", count: $0) })]
        lines += cells.map(line)
        lines.append("(\(rows.count.counted("row")))")
        return lines.joined(separator: "\n") + "\n"
    }

    private func markdown() -> String {
        func row(_ values: [String]) -> String {
            "| " + values.map {
                PrintableText.markdown($0.replacingOccurrences(of: "\n", with: " "), inTable: true)
            }.joined(separator: " | ") + " |"
        }
        return ([row(columns), "|" + String(repeating: "---|", count: columns.count)] + rows.map { row($0.map(\.plainText)) })
            .joined(separator: "\n") + "\n"
    }

    /// Column names as keys; a name that repeats (two `count(*)`) gets `:2`, `:3`, … so none is lost.
    private var keys: [String] {
        var seen: [String: Int] = [:]
        return columns.map { name in
            seen[name, default: 0] += 1
            let count = seen[name] ?? 1
            return count == 1 ? name : "\(name):\(count)"
        }
    }

    private func jsonObject(_ row: [QueryValue]) -> String {
        "{" + zip(keys, row).map { JSONText.quoted($0) + ":" + $1.json }.joined(separator: ",") + "}"
    }

    private static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// At most `width` characters, the last one `…` when something was cut; one line.
    private static func cut(_ text: String, _ width: Int) -> String {
        let flat = PrintableText.escaped(text.replacingOccurrences(of: "\n", with: "⏎"))
        return flat.count <= width ? flat : String(flat.prefix(width - 1)) + "…"
    }
}

extension QueryValue {
    var isNumber: Bool {
        switch self {
        case .integer, .real: true
        default: false
        }
    }

    /// The value as the `sqlite3` shell prints it: NULL as nothing, a blob as `x'…'` hex.
    public var plainText: String {
        switch self {
        case .null: ""
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let bytes): "x'" + bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "'"
        }
    }

    /// The value in JSON: numbers as numbers (a non-finite real, which JSON cannot hold, as
    /// null), texts as strings, a blob as its hex text.
    var json: String {
        switch self {
        case .null: "null"
        case .integer(let value): String(value)
        case .real(let value): value.isFinite ? String(value) : "null"
        case .text(let value): JSONText.quoted(value)
        case .blob: JSONText.quoted(plainText)
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
