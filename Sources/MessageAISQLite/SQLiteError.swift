import CSQLite

/// A failure reported by SQLite, with what a person needs to act on it: the (extended) result
/// code, SQLite's message and the statement that failed.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
    public let code: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code; self.message = message; self.sql = sql
    }

    /// The disk (or the database's size limit) is full: nothing of the statement was written.
    public var isDiskFull: Bool { code & 0xff == SQLITE_FULL }

    public var description: String {
        var text = "sqlite error \(code): \(message)"
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }
}

/// Extended result codes owners react to (the C macros are expressions and do not import).
public enum SQLiteCode {
    public static let constraintForeignKey: Int32 = 787 // SQLITE_CONSTRAINT | (3 << 8)
    public static let constraintUnique: Int32 = 2067    // SQLITE_CONSTRAINT | (8 << 8)
    public static let constraintPrimaryKey: Int32 = 1555 // SQLITE_CONSTRAINT | (6 << 8)
}
