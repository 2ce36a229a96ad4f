@_exported import CSQLite

/// One SQLite connection with a cache of prepared statements, shared by the server's store and
/// the client's local cache. Every value goes through a bound parameter, never into SQL text.
/// Not thread-safe: each owner uses it from one serial queue, so the connection is opened
/// without SQLite's own mutex.
public final class Database {
    public private(set) var handle: OpaquePointer?
    private var statements: [String: Statement] = [:]
    /// Turns SQLite failures into the owner's error type once, here, so callers see one kind of
    /// error (the server's store throws `StoreError`). The default throws `SQLiteError`.
    private let translate: (SQLiteError) -> Error

    public init(path: String, translate: @escaping (SQLiteError) -> Error = { $0 }) throws {
        self.translate = translate
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw translate(SQLiteError(code: rc, message: message, sql: "open \(path)"))
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        // Every connection can fill a search index (triggers included) the one way.
        try defineSearchWords()
    }

    deinit { close() }

    /// Finalizes the cached statements and closes the connection (idempotent). In WAL mode the
    /// last connection to close checkpoints and removes the -wal file.
    public func close() {
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    public func error(_ rc: Int32, sql: String? = nil) -> Error {
        let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "database is closed"
        return translate(SQLiteError(code: rc, message: message, sql: sql))
    }

    /// Runs one or more statements without parameters (schema, pragmas, BEGIN/COMMIT).
    public func execute(_ sql: String) throws {
        guard let handle else { throw error(SQLITE_MISUSE, sql: sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        if rc != SQLITE_OK {
            let text = errorMessage.map { String(cString: $0) } ?? "error \(rc)"
            sqlite3_free(errorMessage)
            throw translate(SQLiteError(code: rc, message: text, sql: sql))
        }
    }

    /// The cached prepared statement for this SQL text (which is always a constant: values
    /// are bound, so the cache stays as small as the number of distinct queries).
    public func statement(_ sql: String) throws -> Statement {
        if let cached = statements[sql] { return cached }
        guard handle != nil else { throw error(SQLITE_MISUSE, sql: sql) }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows; returns the number of rows changed.
    @discardableResult
    public func run(_ sql: String, _ args: SQLBindable?...) throws -> Int {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        while try s.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps every row. `row` must only read columns (it must not run the
    /// same SQL again, which would reset this statement mid-iteration).
    public func query<T>(_ sql: String, _ args: SQLBindable?..., row: (Statement) throws -> T) throws -> [T] {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        var rows: [T] = []
        while try s.step() { rows.append(try row(s)) }
        return rows
    }

    /// The first row, if any.
    public func queryOne<T>(_ sql: String, _ args: SQLBindable?..., row: (Statement) throws -> T) throws -> T? {
        let s = try statement(sql)
        defer { s.reset() }
        try s.bind(args)
        return try s.step() ? row(s) : nil
    }

    public var lastInsertRowID: UInt64 { UInt64(bitPattern: sqlite3_last_insert_rowid(handle)) }

    public var isInTransaction: Bool { handle.map { sqlite3_get_autocommit($0) == 0 } ?? false }

    /// Runs `body` in a write transaction taken up front (BEGIN IMMEDIATE, so it never has to
    /// upgrade a read lock and fail halfway). Any error rolls everything back. Nested calls
    /// join the outer transaction.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try body() }
        // Cached statements, not `execute`: sqlite3_exec parses its SQL every time (~15 mallocs
        // per BEGIN or COMMIT with Debian's SQLite, which has no lookaside allocator).
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { _ = try? run("ROLLBACK") }
            throw error
        }
    }
}
