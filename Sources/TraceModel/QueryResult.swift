/// The answer to one SQL query: its column names and its rows, each value as SQLite typed it.
public struct QueryResult: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[QueryValue]]

    public init(columns: [String], rows: [[QueryValue]]) {
        self.columns = columns
        self.rows = rows
    }
}

/// One value of a result, in SQLite's five storage classes, so that a renderer can be exact
/// (an integer stays an integer in JSON, a blob is not mistaken for text).
public enum QueryValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}
