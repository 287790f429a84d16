/// A few text ids, such as the task identifiers a launch registered: most launches register one
/// or two, and a `Set`'s first insert (making its storage, hashing) cost a thousand instructions
/// a launch. A ``KeyedList`` below: a short list searched in order, indexed once it grows.
public struct TextIDs {
    private var ids = KeyedList<TextID, Void>()

    public init() {}

    public func contains(_ id: TextID) -> Bool { ids.contains(id) }

    mutating func insert(_ id: TextID) { ids.insert(id) }
}
