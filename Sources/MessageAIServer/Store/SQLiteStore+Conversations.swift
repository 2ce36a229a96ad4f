import MessageAISQLite
import MessageAIProtocol

// Direct conversations, groups and membership.
extension SQLiteStore {
    public func directConversation(_ a: UInt64, _ b: UInt64, now: UInt64) throws -> (ConversationRecord, created: Bool) {
        guard a != b else {
            throw StoreError.sqlite(code: SQLITE_MISUSE, message: "a direct conversation needs two different users")
        }
        let (low, high) = (min(a, b), max(a, b))
        do {
            return try db.transaction {
                if let existing = try db.queryOne("""
                    SELECT \(Self.conversationColumns) FROM direct_pairs p JOIN conversations c ON c.id = p.conversation_id
                    WHERE p.low_user_id = ? AND p.high_user_id = ?
                    """, low, high, row: { Self.conversationRecord($0) }) {
                    return (existing, false)
                }
                let id = try insertConversation(kind: .direct, name: "", now: now)
                try db.run("INSERT INTO direct_pairs (low_user_id, high_user_id, conversation_id) VALUES (?, ?, ?)", low, high, id)
                try insertMember(conversationID: id, userID: low, now: now)
                try insertMember(conversationID: id, userID: high, now: now)
                // The one asked (b) holds it as a message request unless they are contacts.
                try db.run("""
                    UPDATE members SET pending = 1 WHERE conversation_id = ?1 AND user_id = ?3
                    AND NOT (EXISTS (SELECT 1 FROM contacts WHERE owner_id = ?2 AND contact_id = ?3)
                         AND EXISTS (SELECT 1 FROM contacts WHERE owner_id = ?3 AND contact_id = ?2))
                    """, id, a, b)
                let record = ConversationRecord(id: id, kind: .direct, name: "", createdAt: now, lastSeq: 0, lastActivity: now)
                return (record, true)
            }
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    public func createGroup(name: String, creator: UInt64, members: [UInt64], now: UInt64) throws -> ConversationRecord {
        do {
            return try db.transaction {
                let id = try insertConversation(kind: .group, name: name, now: now)
                for user in [creator] + members { try insertMember(conversationID: id, userID: user, now: now) }
                return ConversationRecord(id: id, kind: .group, name: name, createdAt: now, lastSeq: 0, lastActivity: now)
            }
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    public func addMembers(conversationID: UInt64, userIDs: [UInt64], now: UInt64) throws {
        do {
            try db.transaction {
                guard try conversation(id: conversationID) != nil else { throw StoreError.notFound }
                for user in userIDs { try insertMember(conversationID: conversationID, userID: user, now: now) }
            }
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    public func renameGroup(conversationID: UInt64, name: String) throws {
        guard try db.run("UPDATE conversations SET name = ? WHERE id = ?", name, conversationID) > 0 else {
            throw StoreError.notFound
        }
    }

    /// The member's row (and so their markers) goes; throws `.notFound` if they were not a member.
    public func removeMember(conversationID: UInt64, userID: UInt64) throws {
        guard try db.run("DELETE FROM members WHERE conversation_id = ? AND user_id = ?", conversationID, userID) > 0 else {
            throw StoreError.notFound
        }
    }

    public func conversation(id: UInt64) throws -> ConversationRecord? {
        try db.queryOne("SELECT \(Self.conversationColumns) FROM conversations c WHERE c.id = ?", id) { Self.conversationRecord($0) }
    }

    /// Ordered by username.
    public func members(conversationID: UInt64) throws -> [MemberRecord] {
        try db.query("""
            SELECT \(Self.userInfoColumns) FROM members mb JOIN users u ON u.id = mb.user_id
            WHERE mb.conversation_id = ? ORDER BY u.username_lower
            """, conversationID) { Self.memberRecord($0) }
    }

    public func memberIDs(conversationID: UInt64) throws -> [UInt64] {
        try db.query("SELECT user_id FROM members WHERE conversation_id = ?", conversationID) { $0.uint64(0) }
    }

    public func isMember(conversationID: UInt64, userID: UInt64) throws -> Bool {
        try db.queryOne("SELECT 1 FROM members WHERE conversation_id = ? AND user_id = ?", conversationID, userID) { _ in true } ?? false
    }

    public func conversationList(userID: UInt64) throws -> [ConversationEntry] {
        let rows = try db.query("""
            SELECT \(Self.conversationColumns), mb.delivered_seq, mb.read_seq, mb.pending
            FROM members mb JOIN conversations c ON c.id = mb.conversation_id
            WHERE mb.user_id = ? ORDER BY c.last_activity DESC, c.id DESC
            """, userID) { s in (Self.conversationRecord(s), s.uint64(7), s.uint64(8), s.uint64(9) != 0) }
        return try rows.map { try view(of: $0.0, userID: userID, delivered: $0.1, read: $0.2, request: $0.3) }
    }

    public func conversationView(id: UInt64, userID: UInt64) throws -> ConversationEntry? {
        guard let row = try db.queryOne("""
            SELECT \(Self.conversationColumns), mb.delivered_seq, mb.read_seq, mb.pending
            FROM members mb JOIN conversations c ON c.id = mb.conversation_id
            WHERE mb.conversation_id = ? AND mb.user_id = ?
            """, id, userID, row: { s in (Self.conversationRecord(s), s.uint64(7), s.uint64(8), s.uint64(9) != 0) }) else { return nil }
        return try view(of: row.0, userID: userID, delivered: row.1, read: row.2, request: row.3)
    }

    // MARK: Helpers

    private func view(of c: ConversationRecord, userID: UInt64, delivered: UInt64, read: UInt64, request: Bool) throws -> ConversationEntry {
        let unread = try db.queryOne("""
            SELECT count(*) FROM messages WHERE conversation_id = ? AND seq > ? AND sender_id != ?
            """, c.id, read, userID) { $0.uint64(0) } ?? 0
        // The last seq may be a change's (a reaction), which is not a message to preview.
        let last = c.lastSeq == 0 ? nil : try messages(conversationID: c.id, beforeSeq: 0, limit: 1).first
        return ConversationEntry(conversationID: c.id, kind: c.kind, name: c.name, members: try members(conversationID: c.id),
                                 lastSeq: c.lastSeq, lastActivity: c.lastActivity, unread: unread, lastMessage: last,
                                 deliveredSeq: delivered, readSeq: read, request: request, avatarID: c.avatarID)
    }

    private func insertConversation(kind: ConversationKind, name: String, now: UInt64) throws -> UInt64 {
        try db.run("INSERT INTO conversations (kind, name, created_at, last_seq, last_activity) VALUES (?, ?, ?, 0, ?)",
                   kind.rawValue, name, now, now)
        return db.lastInsertRowID
    }

    /// Idempotent: an existing member keeps their markers.
    private func insertMember(conversationID: UInt64, userID: UInt64, now: UInt64) throws {
        try db.run("INSERT OR IGNORE INTO members (conversation_id, user_id, joined_at) VALUES (?, ?, ?)",
                   conversationID, userID, now)
    }
}
