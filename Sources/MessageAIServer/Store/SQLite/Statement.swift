import CSQLite

/// SQLite copies bound text and blobs at bind time; the Swift buffers are then free to go.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value that can be bound to a statement parameter. `nil` binds NULL.
protocol SQLBindable {
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32
}

extension Int64: SQLBindable {
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 { sqlite3_bind_int64(s, i, self) }
}
extension Int: SQLBindable {
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 { sqlite3_bind_int64(s, i, Int64(self)) }
}
extension UInt64: SQLBindable {
    /// Ids, seqs and times are far below 2^63; the bit pattern keeps any value round-tripping.
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 { sqlite3_bind_int64(s, i, Int64(bitPattern: self)) }
}
extension Bool: SQLBindable {
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 { sqlite3_bind_int(s, i, self ? 1 : 0) }
}
extension String: SQLBindable {
    /// Bound with its byte length, so a NUL inside the text is kept rather than ending it.
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 {
        var text = self
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, and a nil pointer would bind NULL.
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_text(s, i, "", 0, sqliteTransient) }
            return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(s, i, $0, Int32(bytes.count), sqliteTransient)
            }
        }
    }
}
extension Array: SQLBindable where Element == UInt8 {
    func bind(to s: OpaquePointer, at i: Int32) -> Int32 {
        // A nil pointer would bind NULL, so an empty blob needs its own call.
        if isEmpty { return sqlite3_bind_zeroblob(s, i, 0) }
        return withUnsafeBytes { sqlite3_bind_blob(s, i, $0.baseAddress, Int32($0.count), sqliteTransient) }
    }
}

/// A prepared statement. Owned by its `Database`, which caches it by SQL text and resets it
/// after each use, so a hot path (append, markers) prepares once per connection.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let database: Database

    init(database: Database, sql: String) throws {
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw database.error(rc, sql: sql) }
        self.handle = stmt
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ values: [SQLBindable?]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc = value?.bind(to: handle, at: index) ?? sqlite3_bind_null(handle, index)
            guard rc == SQLITE_OK else { throw database.error(rc, sql: sql) }
        }
    }

    /// True when a row is available, false when done.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw database.error(rc, sql: sql)
        }
    }

    /// Releases the statement's read/write state and its bindings so it can be reused.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns (0-based)

    func isNull(_ i: Int32) -> Bool { sqlite3_column_type(handle, i) == SQLITE_NULL }
    func int64(_ i: Int32) -> Int64 { sqlite3_column_int64(handle, i) }
    func int(_ i: Int32) -> Int { Int(sqlite3_column_int64(handle, i)) }
    func uint64(_ i: Int32) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(handle, i)) }
    func bool(_ i: Int32) -> Bool { sqlite3_column_int64(handle, i) != 0 }

    func string(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(handle, i) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, i))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }

    func blob(_ i: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(handle, i))
        guard n > 0, let p = sqlite3_column_blob(handle, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
