/// FNV-1a over bytes, folded to an `Int`: the hash of the small open-addressed tables that look
/// up short texts by their UTF-8 bytes (event names, the replay's text numbers, the store
/// reader's string cache), where `Hasher`'s SipHash cost more than the lookups.
public enum FNV1a {
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 32))
    }
}
