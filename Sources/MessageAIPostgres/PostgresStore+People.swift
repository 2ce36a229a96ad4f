import MessageAIStore
import Foundation
import PostgresNIO

/// People search, avatars and the away mark, with the SQLite store's answers
/// (SQLiteStore+People.swift, +Avatars, +Presence).
extension PostgresStore {
    /// Above every valid character: in byte order (`COLLATE "C"`, as SQLite's BINARY), every
    /// string starting with `prefix` lies in [prefix, prefix + top), so a username's start is
    /// an index range, with no LIKE and so no wildcard in what a user types.
    static let prefixRangeTop = "\u{10FFFF}"
    /// At most this many display-name matches are sorted with the username matches.
    static let nameMatchLimit = 1_000

    /// As SQLite's `clamp`: 0 or less asks for nothing (the messages' `clamp` asks for at least one).
    static func bounded(_ limit: Int, max: Int = 1_000) -> Int { Swift.max(0, Swift.min(limit, max)) }

    /// A username by its start, a display name by its words (every word must match, case and
    /// accents folded, the last word a prefix; CJK runs as in message search), an email only
    /// whole. Ordered by username (byte order of its lowercase form), at most `limit`.
    public func searchUsers(query: String, limit: Int) async throws(StoreError) -> [UserRecord] {
        let search = Self.userSearch(query, limit: limit)
        return try await perform { client, logger in try await client.allRows(search, logger: logger).map(Self.user) }
    }

    /// The plan of `searchUsers` with sequential scans made a last resort, for the test that
    /// both of its halves can walk an index.
    func explainUserSearch(query: String) async throws(StoreError) -> String {
        let search = Self.userSearch(query, limit: 50)
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await db.query("SET LOCAL enable_seqscan = off", logger: logger)
                return try await db.allRows(PostgresQuery(unsafeSQL: "EXPLAIN " + search.sql, binds: search.binds), logger: logger)
                    .map { try $0.decode(String.self) }.joined(separator: "\n")
            }
        }
    }

    static func userSearch(_ query: String, limit: Int) -> PostgresQuery {
        let text = query.trimmingCharacters(in: .whitespaces)
        let limit = bounded(limit)
        let low = text.lowercased(), top = low + prefixRangeTop
        if text.contains("@") {
            return "SELECT \(unescaped: userColumns) FROM users u WHERE u.email_lower = \(low) LIMIT \(limit)"
        }
        // As SQLite: a name is letters, digits, spaces, hyphens and apostrophes; anything else
        // ("a_b", "j.doe", "%") is the start of a username and searched as that alone.
        let nameLike = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || " -'’".unicodeScalars.contains($0) }
        guard nameLike, let words = SearchVector.query(text) else {
            return """
                SELECT \(unescaped: userColumns) FROM users u
                WHERE u.username_lower COLLATE "C" >= \(low) AND u.username_lower COLLATE "C" < \(top)
                ORDER BY u.username_lower COLLATE "C" LIMIT \(limit)
                """
        }
        // Two bounded parts, each through its index; only their union is sorted.
        return """
            SELECT \(unescaped: userColumnNames) FROM (
                (SELECT \(unescaped: userColumns), u.username_lower COLLATE "C" AS k FROM users u
                 WHERE u.username_lower COLLATE "C" >= \(low) AND u.username_lower COLLATE "C" < \(top)
                 ORDER BY u.username_lower COLLATE "C" LIMIT \(limit))
                UNION
                (SELECT \(unescaped: userColumns), u.username_lower COLLATE "C" AS k FROM users u
                 WHERE u.name_words @@ \(words)::tsquery LIMIT \(nameMatchLimit))
            ) found ORDER BY k LIMIT \(limit)
            """
    }

    /// `userColumns` as the outer query of a union names them.
    static let userColumnNames = "id, username, email, display_name, password_hash, created_at, last_seen, time_zone"

    // MARK: Avatars

    /// The user's avatar file id, empty for none (or no such user).
    public func avatarID(userID: UInt64) async throws(StoreError) -> [UInt8] {
        try await perform { client, logger in
            try await client.firstRow("SELECT avatar_file_id FROM users WHERE id = \(userID)", logger: logger)
                .flatMap { try $0.decode(ByteBuffer?.self) }.map { Array($0.readableBytesView) } ?? []
        }
    }

    /// Sets (empty: clears) the user's avatar; returns the one it replaced (empty for none).
    /// The old value is read under the row's lock, so two nodes setting at once each get the
    /// one they really replaced (the caller releases it).
    public func setAvatar(userID: UInt64, fileID: [UInt8]) async throws(StoreError) -> [UInt8] {
        try await swapAvatar(table: "users", id: userID, fileID: fileID)
    }

    public func setGroupAvatar(conversationID: UInt64, fileID: [UInt8]) async throws(StoreError) -> [UInt8] {
        try await swapAvatar(table: "conversations", id: conversationID, fileID: fileID)
    }

    private func swapAvatar(table: String, id: UInt64, fileID: [UInt8]) async throws(StoreError) -> [UInt8] {
        let new = fileID.isEmpty ? nil : ByteBuffer(bytes: fileID)
        return try await perform { client, logger in
            // `table` is one of two constants above, never input.
            guard let row = try await client.firstRow("""
                WITH old AS (SELECT id, avatar_file_id FROM \(unescaped: table) WHERE id = \(id) FOR UPDATE)
                UPDATE \(unescaped: table) t SET avatar_file_id = \(new) FROM old WHERE t.id = old.id
                RETURNING old.avatar_file_id
                """, logger: logger) else { throw PostgresStoreError.notFound }
            return try row.decode(ByteBuffer?.self).map { Array($0.readableBytesView) } ?? []
        }
    }

    /// The user whose avatar the file is, if any.
    public func avatarOwner(fileID: [UInt8]) async throws(StoreError) -> UInt64? {
        try await perform { client, logger in
            try await client.firstRow("SELECT id FROM users WHERE avatar_file_id = \(ByteBuffer(bytes: fileID)) LIMIT 1",
                                      logger: logger)?.decode(UInt64.self)
        }
    }

    // MARK: Away (/away, /back)

    /// Marks the user away with `message` (may be empty), replacing an earlier mark.
    public func setAway(userID: UInt64, message: String, now: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            do {
                try await client.query("""
                    INSERT INTO presence_status (user_id, message, since) VALUES (\(userID), \(message), \(now))
                    ON CONFLICT (user_id) DO UPDATE SET message = excluded.message, since = excluded.since
                    """, logger: logger)
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    /// Clears the mark; whether there was one.
    @discardableResult
    public func clearAway(userID: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("DELETE FROM presence_status WHERE user_id = \(userID) RETURNING 1", logger: logger) != nil
        }
    }

    /// The away text (empty for none) when the user is away; nil when not.
    public func awayMessage(userID: UInt64) async throws(StoreError) -> String? {
        try await perform { client, logger in
            try await client.firstRow("SELECT message FROM presence_status WHERE user_id = \(userID)", logger: logger)?
                .decode(String.self)
        }
    }
}
