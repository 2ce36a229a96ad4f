import CSQLite

/// Extended result codes we react to (the C macros are expressions and do not import).
enum SQLiteCode {
    static let constraintForeignKey: Int32 = 787 // SQLITE_CONSTRAINT | (3 << 8)
    static let constraintUnique: Int32 = 2067    // SQLITE_CONSTRAINT | (8 << 8)
    static let constraintPrimaryKey: Int32 = 1555 // SQLITE_CONSTRAINT | (6 << 8)
}

/// One SQLite connection with a cache of prepared statements. Not thread-safe: the store is
/// used from one serial queue, so the connection is opened without SQLite's own mutex.
final class Database {
    private(set) var handle: OpaquePointer?
    private var statements: [String: Statement] = [:]

    init(path: String) throws {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw rc & 0xff == SQLITE_FULL ? StoreError.diskFull : StoreError.sqlite(code: rc, message: "\(message) (\(path))")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the connection (idempotent). In WAL mode the
    /// last connection to close checkpoints and removes the -wal file.
    func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    func error(_ rc: Int32, sql: String? = nil) -> StoreError {
        if rc & 0xff == SQLITE_FULL { return .diskFull }
        var message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed"
        if let sql { message += " (in: \(sql.prefix(120)))" }
        return .sqlite(code: rc, message: message)
    }

    /// Runs one or more statements without parameters (schema, pragmas, BEGIN/COMMIT).
    func execute(_ sql: String) throws {
        guard let handle else { throw StoreError.sqlite(code: SQLITE_MISUSE, message: "database is closed") }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let text = errorMessage.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(errorMessage)
            if rc & 0xff == SQLITE_FULL { throw StoreError.diskFull }
            throw StoreError.sqlite(code: rc, message: "\(text) (in: \(sql.prefix(120)))")
        }
    }

    /// The cached prepared statement for this SQL text (which is always a constant: values
    /// are bound, so the cache stays as small as the number of distinct queries).
    func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        guard handle != nil else { throw StoreError.sqlite(code: SQLITE_MISUSE, message: "database is closed") }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    func run(_ sql: String, _ args: SQLBindable?...) throws -> Int {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        while try s.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps every row. `row` must only read columns (it must not run the
    /// same SQL again, which would reset this statement mid-iteration).
    func query<T>(_ sql: String, _ args: SQLBindable?..., row: (Statement) throws -> T) throws -> [T] {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        var rows: [T] = []
        while try s.step() { rows.append(try row(s)) }
        return rows
    }

    /// The first row, if any.
    func queryOne<T>(_ sql: String, _ args: SQLBindable?..., row: (Statement) throws -> T) throws -> T? {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        return try s.step() ? row(s) : nil
    }

    var lastInsertRowID: UInt64 { UInt64(bitPattern: sqlite3_last_insert_rowid(handle)) }

    var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs `body` in a write transaction taken up front (BEGIN IMMEDIATE, so it never has to
    /// upgrade a read lock and fail halfway). Any error rolls everything back. Nested calls
    /// join the outer transaction.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }
}
