import MessageAIProtocol

// User search, contacts, and who may see whom.
extension SQLiteStore {
    /// Above every valid character: `prefix + top` bounds the range of strings starting with
    /// `prefix`, so the search is an index range scan on `username_lower` (no LIKE, and so no
    /// wildcard in user input: `%` and `_` are ordinary characters here).
    static let prefixRangeTop = "\u{10FFFF}"

    public func searchUsers(prefix: String, limit: Int) throws -> [UserRecord] {
        let low = prefix.lowercased()
        return try db.query("""
            SELECT \(Self.userColumns) FROM users u
            WHERE u.username_lower >= ?1 AND u.username_lower < ?2
            ORDER BY u.username_lower LIMIT ?3
            """, low, low + Self.prefixRangeTop, Self.clamp(limit)) { Self.userRecord($0) }
    }

    /// The query plan of `searchUsers`, for the test that it uses the index.
    func searchUsersPlan() throws -> [String] {
        try db.query("""
            EXPLAIN QUERY PLAN SELECT \(Self.userColumns) FROM users u
            WHERE u.username_lower >= ?1 AND u.username_lower < ?2
            ORDER BY u.username_lower LIMIT ?3
            """, "a", "a" + Self.prefixRangeTop, 10) { $0.string(3) }
    }

    public func addContact(owner: UInt64, contact: UInt64, now: UInt64) throws {
        do {
            try db.run("INSERT OR IGNORE INTO contacts (owner_id, contact_id, created_at) VALUES (?, ?, ?)", owner, contact, now)
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    public func removeContact(owner: UInt64, contact: UInt64) throws -> Bool {
        try db.run("DELETE FROM contacts WHERE owner_id = ? AND contact_id = ?", owner, contact) > 0
    }

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

    public func presenceAudience(userID: UInt64) throws -> [UInt64] {
        // UNION removes duplicates (a contact who is also a conversation partner).
        try db.query("""
            SELECT owner_id FROM contacts WHERE contact_id = ?1 AND owner_id != ?1
            UNION
            SELECT y.user_id FROM members x JOIN members y ON y.conversation_id = x.conversation_id
            WHERE x.user_id = ?1 AND y.user_id != ?1
            ORDER BY 1
            """, userID) { $0.uint64(0) }
    }
}
