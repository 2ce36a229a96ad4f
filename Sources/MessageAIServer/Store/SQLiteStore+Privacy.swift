import MessageAISQLite

// Contact consent and blocking (schema v4).
extension SQLiteStore {
    public func contactLink(_ me: UInt64, _ other: UInt64) throws -> ContactLink {
        var link = ContactLink()
        _ = try db.query("SELECT owner_id, declined FROM contacts WHERE (owner_id = ?1 AND contact_id = ?2) OR (owner_id = ?2 AND contact_id = ?1)", me, other) { s in
            if s.uint64(0) == me { link.iWant = true } else { link.theyWant = true; link.declinedByMe = s.uint64(1) != 0 }
        }
        _ = try db.query("SELECT blocker_id FROM blocks WHERE (blocker_id = ?1 AND blocked_id = ?2) OR (blocker_id = ?2 AND blocked_id = ?1)", me, other) { s in
            if s.uint64(0) == me { link.iBlock = true } else { link.theyBlock = true }
        }
        return link
    }

    /// The people the owner wants, and those who asked the owner and were neither declined nor
    /// blocked by them, ordered by username.
    public func contactEntries(owner: UInt64) throws -> [(UserRecord, ContactLink)] {
        try db.query("""
            SELECT \(Self.userColumns),
                   EXISTS (SELECT 1 FROM contacts m WHERE m.owner_id = ?1 AND m.contact_id = u.id),
                   EXISTS (SELECT 1 FROM contacts t WHERE t.owner_id = u.id AND t.contact_id = ?1),
                   EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = u.id),
                   EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = u.id AND b.blocked_id = ?1)
            FROM users u
            WHERE u.id IN (SELECT contact_id FROM contacts WHERE owner_id = ?1)
               OR u.id IN (SELECT owner_id FROM contacts k WHERE k.contact_id = ?1 AND k.declined = 0
                           AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ?1 AND b.blocked_id = k.owner_id))
            ORDER BY u.username_lower
            """, owner) { s in
            let n = Self.userColumnCount
            return (Self.userRecord(s), ContactLink(iWant: s.uint64(n) != 0, theyWant: s.uint64(n + 1) != 0,
                                                    iBlock: s.uint64(n + 2) != 0, theyBlock: s.uint64(n + 3) != 0))
        }
    }

    /// Marks a pending request from `requester` as declined; false if there was none.
    @discardableResult
    public func declineContact(owner: UInt64, requester: UInt64) throws -> Bool {
        try db.run("UPDATE contacts SET declined = 1 WHERE owner_id = ? AND contact_id = ?", requester, owner) > 0
    }

    /// Idempotent; returns whether the block is new.
    @discardableResult
    public func block(blocker: UInt64, blocked: UInt64, now: UInt64) throws -> Bool {
        do {
            return try db.run("INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", blocker, blocked, now) > 0
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    @discardableResult
    public func unblock(blocker: UInt64, blocked: UInt64) throws -> Bool {
        try db.run("DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", blocker, blocked) > 0
    }

    public func blockedUsers(blocker: UInt64) throws -> [UserRecord] {
        try db.query("""
            SELECT \(Self.userColumns) FROM blocks b JOIN users u ON u.id = b.blocked_id
            WHERE b.blocker_id = ? ORDER BY u.username_lower
            """, blocker) { Self.userRecord($0) }
    }

    /// Membership with what SEND, MARK and TYPING need to know, in one indexed query: nil when
    /// not a member.
    public func membership(conversationID: UInt64, userID: UInt64) throws -> Membership? {
        try db.queryOne("""
            SELECT mb.pending,
                   (SELECT CASE WHEN d.low_user_id = ?2 THEN d.high_user_id ELSE d.low_user_id END
                    FROM direct_pairs d JOIN blocks b
                      ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                      OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                    WHERE d.conversation_id = ?1 LIMIT 1)
            FROM members mb WHERE mb.conversation_id = ?1 AND mb.user_id = ?2
            """, conversationID, userID) { s in
            Membership(pending: s.uint64(0) != 0, blockedPartner: s.isNull(1) ? nil : s.uint64(1))
        }
    }

    @discardableResult
    public func acceptRequest(conversationID: UInt64, userID: UInt64) throws -> Bool {
        try db.run("UPDATE members SET pending = 0 WHERE conversation_id = ? AND user_id = ? AND pending != 0", conversationID, userID) > 0
    }

    public func acceptDirectRequests(_ a: UInt64, _ b: UInt64) throws {
        try db.run("""
            UPDATE members SET pending = 0 WHERE pending != 0 AND conversation_id =
                (SELECT conversation_id FROM direct_pairs WHERE low_user_id = ?1 AND high_user_id = ?2)
            """, min(a, b), max(a, b))
    }

    /// Everyone in a block with the user, in either direction (both indexes).
    public func blockPartners(of userID: UInt64) throws -> Set<UInt64> {
        Set(try db.query("""
            SELECT blocked_id FROM blocks WHERE blocker_id = ?1
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?1
            """, userID) { $0.uint64(0) })
    }

    /// Users among `candidates` who block `userID` (refused as group members added by them).
    public func blockers(of userID: UInt64, among candidates: [UInt64]) throws -> Set<UInt64> {
        guard !candidates.isEmpty else { return [] }
        let wanted = Set(candidates)
        return Set(try db.query("SELECT blocker_id FROM blocks WHERE blocked_id = ?", userID) { $0.uint64(0) }.filter(wanted.contains))
    }
}
