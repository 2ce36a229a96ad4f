import CSQLite
import Foundation

/// An error from SQLite with what a person needs to act on it: the result code, SQLite's
/// message and the statement that failed.
public struct SQLiteError: Error, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String
    public var description: String { "sqlite error \(code): \(message) (in: \(sql))" }
}

/// The few parts of the SQLite C API the client needs. Every value goes through a bound
/// parameter, never into the SQL text. Used from one queue only (the client's main queue).
final class SQLiteDatabase {
    private var handle: OpaquePointer?

    /// `path` ":memory:" opens a private in-memory database (used by tests).
    init(path: String) throws {
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let msg = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw SQLiteError(code: rc, message: msg, sql: "open \(path)")
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
    }

    deinit { sqlite3_close(handle) }

    func execute(_ sql: String) throws {
        var err: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &err)
        if rc != SQLITE_OK {
            let msg = err.map { String(cString: $0) } ?? "error"
            sqlite3_free(err)
            throw SQLiteError(code: rc, message: msg, sql: sql)
        }
    }

    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ args: [SQLiteValue] = []) throws {
        let st = try prepare(sql, args)
        defer { sqlite3_finalize(st) }
        let rc = sqlite3_step(st)
        guard rc == SQLITE_DONE || rc == SQLITE_ROW else { throw error(rc, sql) }
    }

    /// Runs a query and maps each row.
    func query<T>(_ sql: String, _ args: [SQLiteValue] = [], _ map: (SQLiteRow) -> T) throws -> [T] {
        let st = try prepare(sql, args)
        defer { sqlite3_finalize(st) }
        var out: [T] = []
        while true {
            let rc = sqlite3_step(st)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc, sql) }
            out.append(map(SQLiteRow(statement: st)))
        }
        return out
    }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepare(_ sql: String, _ args: [SQLiteValue]) throws -> OpaquePointer? {
        var st: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &st, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, arg) in args.enumerated() {
            let idx = Int32(i + 1)
            switch arg {
            case .int(let v): sqlite3_bind_int64(st, idx, v)
            case .text(let s): sqlite3_bind_text(st, idx, s, -1, transient)
            case .blob(let b): b.withUnsafeBytes { _ = sqlite3_bind_blob(st, idx, $0.baseAddress, Int32(b.count), transient) }
            case .null: sqlite3_bind_null(st, idx)
            }
        }
        return st
    }

    private func error(_ rc: Int32, _ sql: String) -> SQLiteError {
        SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

enum SQLiteValue {
    case int(Int64)
    case text(String)
    case blob([UInt8])
    case null

    static func u(_ v: UInt64) -> SQLiteValue { .int(Int64(bitPattern: v)) }
}

/// One result row; columns are read by index in the order of the SELECT.
struct SQLiteRow {
    let statement: OpaquePointer?

    func int(_ i: Int32) -> Int64 { sqlite3_column_int64(statement, i) }
    func uint(_ i: Int32) -> UInt64 { UInt64(bitPattern: sqlite3_column_int64(statement, i)) }
    func text(_ i: Int32) -> String {
        guard let p = sqlite3_column_text(statement, i) else { return "" }
        return String(cString: p)
    }
    func blob(_ i: Int32) -> [UInt8] {
        let n = Int(sqlite3_column_bytes(statement, i))
        guard n > 0, let p = sqlite3_column_blob(statement, i) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: n))
    }
}
