import Foundation
import MessageAISQLite
import MessageAIProtocol

// User search, contacts, and who may see whom.
extension SQLiteStore {
    /// Above every valid character: `prefix + top` bounds the range of strings starting with
    /// `prefix`, so the username part is an index range scan on `username_lower` (no LIKE, and
    /// so no wildcard in user input: `%` and `_` are ordinary characters here).
    static let prefixRangeTop = "\u{10FFFF}"

    /// At most this many display-name matches are sorted with the username matches (a query
    /// such as "a" may match most names; the answer holds at most 50).
    static let nameMatchLimit = 1_000

    /// ?1 username prefix, ?2 its range's top, ?3 display-name words (FTS5 MATCH), ?4 limit,
    /// ?5 `nameMatchLimit`. Two bounded parts: usernames walked in order on their index, names
    /// from the full-text index; only their union (at most ?4 + ?5 rows) is sorted.
    static let userSearchSQL = """
        SELECT * FROM (
            SELECT \(userColumns), u.username_lower AS k FROM users u
            WHERE u.username_lower >= ?1 AND u.username_lower < ?2 ORDER BY u.username_lower LIMIT ?4)
        UNION
        SELECT * FROM (
            SELECT \(userColumns), u.username_lower AS k FROM users u
            WHERE u.id IN (SELECT rowid FROM users_fts WHERE users_fts MATCH ?3 LIMIT ?5))
        ORDER BY k LIMIT ?4
        """

    /// People as Slack and Signal find them: a username by its prefix, a display name by any of
    /// its words ("Nguyen" and "Ngu" find "Minh Nguyễn"; case and accents folded, the last word
    /// a prefix), and an email address only when given whole (exactly, case aside), so that
    /// nobody learns whose address starts with "car". Every value is bound.
    public func searchUsers(query: String, limit: Int) throws -> [UserRecord] {
        let text = query.trimmingCharacters(in: .whitespaces)
        if text.contains("@") {
            return try db.query("SELECT \(Self.userColumns) FROM users u WHERE u.email_lower = ? LIMIT ?",
                                text.lowercased(), Self.clamp(limit)) { Self.userRecord($0) }
        }
        let low = text.lowercased()
        // A name is letters, digits, spaces, hyphens and apostrophes; a query with other marks
        // ("a_b", "j.doe", "%") is a username's start and is searched as that alone.
        let nameLike = text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || " -'’".unicodeScalars.contains($0) }
        guard nameLike, let words = FullTextQuery.match(text) else {
            return try db.query("""
                SELECT \(Self.userColumns) FROM users u
                WHERE u.username_lower >= ?1 AND u.username_lower < ?2 ORDER BY u.username_lower LIMIT ?3
                """, low, low + Self.prefixRangeTop, Self.clamp(limit)) { Self.userRecord($0) }
        }
        return try db.query(Self.userSearchSQL, low, low + Self.prefixRangeTop, "name : (\(words))", Self.clamp(limit),
                            Self.nameMatchLimit) { Self.userRecord($0) }
    }

    /// The query plan of `searchUsers`, for the test that it uses the indexes.
    func searchUsersPlan() throws -> [String] {
        try db.query("EXPLAIN QUERY PLAN " + Self.userSearchSQL, "a", "a" + Self.prefixRangeTop, "name : (\"a\"*)", 10, 1_000) {
            $0.string(3)
        }
    }

    /// Records that `owner` wants `contact`; returns whether this is new. Accepting a request is
    /// the same wish the other way, and also forgets a decline of that request. A request to
    /// someone who declined the owner before (and whose declined row was removed since) starts
    /// declined: asking again does not reach them.
    @discardableResult
    public func addContact(owner: UInt64, contact: UInt64, now: UInt64) throws -> Bool {
        do {
            return try db.transaction {
                let added = try db.run("""
                    INSERT OR IGNORE INTO contacts (owner_id, contact_id, created_at, declined)
                    VALUES (?1, ?2, ?3, EXISTS (SELECT 1 FROM kept_declines WHERE decliner_id = ?2 AND requester_id = ?1))
                    """, owner, contact, now) > 0
                try db.run("UPDATE contacts SET declined = 0 WHERE owner_id = ? AND contact_id = ? AND declined != 0", contact, owner)
                try db.run("DELETE FROM kept_declines WHERE decliner_id = ? AND requester_id = ?", owner, contact)
                return added
            }
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    /// Withdraws `owner`'s wish; the other side's wish, if any, is then treated as declined so it
    /// does not come back as a request.
    public func removeContact(owner: UInt64, contact: UInt64) throws -> Bool {
        try db.transaction {
            try db.run("UPDATE contacts SET declined = 1 WHERE owner_id = ? AND contact_id = ?", contact, owner)
            // The owner's row may carry the other side's decline: it outlives the row.
            try db.run("""
                INSERT OR IGNORE INTO kept_declines (decliner_id, requester_id)
                SELECT contact_id, owner_id FROM contacts WHERE owner_id = ? AND contact_id = ? AND declined != 0
                """, owner, contact)
            return try db.run("DELETE FROM contacts WHERE owner_id = ? AND contact_id = ?", owner, contact) > 0
        }
    }

    /// The users `owner` wants (accepted contacts and sent requests).
    public func contacts(owner: UInt64) throws -> [UserRecord] {
        try db.query("""
            SELECT \(Self.userColumns) FROM contacts k JOIN users u ON u.id = k.contact_id
            WHERE k.owner_id = ? ORDER BY u.username_lower
            """, owner) { Self.userRecord($0) }
    }

    public func isContact(owner: UInt64, other: UInt64) throws -> Bool {
        try db.queryOne("SELECT 1 FROM contacts WHERE owner_id = ? AND contact_id = ?", owner, other) { _ in true } ?? false
    }

    public func sharesConversation(_ a: UInt64, _ b: UInt64) throws -> Bool {
        try db.queryOne("""
            SELECT 1 FROM members x JOIN members y ON y.conversation_id = x.conversation_id AND y.user_id = ?2
            WHERE x.user_id = ?1 LIMIT 1
            """, a, b) { _ in true } ?? false
    }

    /// Accepted contacts (a row each way) that neither side blocks.
    public func presenceAudience(userID: UInt64) throws -> [UInt64] {
        try db.query("""
            SELECT k.owner_id FROM contacts k
            JOIN contacts back ON back.owner_id = ?1 AND back.contact_id = k.owner_id
            WHERE k.contact_id = ?1 AND k.owner_id != ?1
              AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = ?1 AND b.blocked_id = k.owner_id)
                                                     OR (b.blocker_id = k.owner_id AND b.blocked_id = ?1))
            ORDER BY 1
            """, userID) { $0.uint64(0) }
    }
}
