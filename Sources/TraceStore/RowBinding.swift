import GRDBSQLite

/// Binds one row's values onto a prepared statement without a heap allocation per value.
///
/// Text bound with `SQLITE_TRANSIENT` makes SQLite malloc a copy per value, and its allocator
/// takes a global mutex each time: the profile of a bulk load showed more time in that mutex
/// than in SQLite's own work. Instead a row's texts are copied into one reused buffer and bound
/// `SQLITE_STATIC`, valid until the statement has stepped.
struct RowBinding {
    private var bytes: [UInt8] = []
    private var texts: [(index: Int32, offset: Int, count: Int)] = []
    private var integers: [(index: Int32, value: Int64?)] = []
    private var doubles: [(index: Int32, value: Double?)] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    mutating func text(_ value: String?, _ index: Int32) {
        guard let value else {
            texts.append((index, -1, 0))
            return
        }
        let offset = bytes.count
        bytes.append(contentsOf: value.utf8)
        texts.append((index, offset, bytes.count - offset))
    }

    mutating func integer(_ value: Int64?, _ index: Int32) {
        integers.append((index, value))
    }

    mutating func double(_ value: Double?, _ index: Int32) {
        doubles.append((index, value))
    }

    /// Binds everything collected, runs the statement once, and clears the row.
    mutating func step(_ stmt: OpaquePointer) -> Int32 {
        for (index, value) in integers {
            if let value { sqlite3_bind_int64(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
        }
        for (index, value) in doubles {
            if let value { sqlite3_bind_double(stmt, index, value) } else { sqlite3_bind_null(stmt, index) }
        }
        let code = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            for (index, offset, count) in texts {
                if offset < 0 {
                    sqlite3_bind_null(stmt, index)
                } else {
                    sqlite3_bind_text(stmt, index, UnsafeRawPointer(buffer.baseAddress! + offset)
                        .assumingMemoryBound(to: CChar.self), Int32(count), staticText)
                }
            }
            return sqlite3_step(stmt)
        }
        sqlite3_reset(stmt)
        bytes.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
        integers.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        return code
    }
}

/// SQLite reads bound text in place: the buffer outlives the step that uses it.
let staticText = unsafeBitCast(0, to: sqlite3_destructor_type.self)
