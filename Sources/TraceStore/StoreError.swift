/// Operational failures of the store, each saying what was being done.
public enum StoreError: Error, CustomStringConvertible {
    case cannotOpen(path: String, underlying: String)
    case writeFailed(what: String, underlying: String)
    case readFailed(what: String, underlying: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let underlying):
            "cannot open the database \(path): \(underlying)"
        case .writeFailed(let what, let underlying), .readFailed(let what, let underlying):
            "could not \(what): \(underlying)"
        }
    }
}
