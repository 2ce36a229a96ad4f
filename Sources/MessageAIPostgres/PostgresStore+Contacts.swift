import MessageAIStore
import PostgresNIO

/// Contacts by consent (SQLiteStore+People.swift, +Privacy.swift). A row (owner -> contact)
/// reads "owner wants contact": one each way is an accepted contact, one alone a request.
/// Each write is one transaction, so two nodes accepting each other's request at once end
/// with both rows and no decline left behind.
extension PostgresStore {
    /// Records that `owner` wants `contact`; whether it is new. Accepting a request is the same
    /// wish the other way, and forgets a decline of it. A request to someone who declined the
    /// owner before (the declined row removed since) starts declined: asking again does not
    /// reach them. `notFound` for a user that does not exist.
    @discardableResult
    public func addContact(owner: UInt64, contact: UInt64, now: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            do {
                return try await client.withTransaction(logger: logger) { db in
                    let added = try await db.firstRow("""
                        INSERT INTO contacts (owner_id, contact_id, created_at, declined)
                        VALUES (\(owner), \(contact), \(now),
                                EXISTS (SELECT 1 FROM kept_declines WHERE decliner_id = \(contact) AND requester_id = \(owner)))
                        ON CONFLICT DO NOTHING RETURNING 1
                        """, logger: logger) != nil
                    try await db.query("""
                        UPDATE contacts SET declined = false WHERE owner_id = \(contact) AND contact_id = \(owner) AND declined
                        """, logger: logger)
                    try await db.query("DELETE FROM kept_declines WHERE decliner_id = \(owner) AND requester_id = \(contact)",
                                       logger: logger)
                    return added
                }
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    /// Withdraws `owner`'s wish; the other side's wish, if any, is then treated as declined so
    /// it does not come back as a request. Whether there was a wish to withdraw.
    public func removeContact(owner: UInt64, contact: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await db.query("UPDATE contacts SET declined = true WHERE owner_id = \(contact) AND contact_id = \(owner)",
                                   logger: logger)
                // The owner's row may carry the other side's decline: it outlives the row.
                try await db.query("""
                    INSERT INTO kept_declines (decliner_id, requester_id)
                    SELECT contact_id, owner_id FROM contacts WHERE owner_id = \(owner) AND contact_id = \(contact) AND declined
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
                return try await db.firstRow("DELETE FROM contacts WHERE owner_id = \(owner) AND contact_id = \(contact) RETURNING 1",
                                             logger: logger) != nil
            }
        }
    }

    /// The users `owner` wants (accepted contacts and sent requests), by username.
    public func contacts(owner: UInt64) async throws(StoreError) -> [UserRecord] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.userColumns) FROM contacts k JOIN users u ON u.id = k.contact_id
                WHERE k.owner_id = \(owner) ORDER BY u.username_lower COLLATE "C"
                """, logger: logger).map(Self.user)
        }
    }

    public func isContact(owner: UInt64, other: UInt64) async throws(StoreError) -> Bool {
        try await exists("SELECT 1 FROM contacts WHERE owner_id = \(owner) AND contact_id = \(other)")
    }

    public func sharesConversation(_ a: UInt64, _ b: UInt64) async throws(StoreError) -> Bool {
        try await exists("""
            SELECT 1 FROM members x JOIN members y ON y.conversation_id = x.conversation_id AND y.user_id = \(b)
            WHERE x.user_id = \(a) LIMIT 1
            """)
    }

    /// Who sees the user's presence: accepted contacts (a row each way) that neither side blocks.
    public func presenceAudience(userID: UInt64) async throws(StoreError) -> [UInt64] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT k.owner_id FROM contacts k
                JOIN contacts back ON back.owner_id = \(userID) AND back.contact_id = k.owner_id
                WHERE k.contact_id = \(userID) AND k.owner_id <> \(userID)
                  AND NOT EXISTS (SELECT 1 FROM blocks b WHERE (b.blocker_id = \(userID) AND b.blocked_id = k.owner_id)
                                                         OR (b.blocker_id = k.owner_id AND b.blocked_id = \(userID)))
                ORDER BY 1
                """, logger: logger).map { try $0.decode(UInt64.self) }
        }
    }

    public func contactLink(_ me: UInt64, _ other: UInt64) async throws(StoreError) -> ContactLink {
        try await perform { client, logger in
            // One snapshot for both halves: a link never mixes two moments.
            guard let row = try await client.firstRow("""
                SELECT EXISTS (SELECT 1 FROM contacts WHERE owner_id = \(me) AND contact_id = \(other)),
                       EXISTS (SELECT 1 FROM contacts WHERE owner_id = \(other) AND contact_id = \(me)),
                       EXISTS (SELECT 1 FROM contacts WHERE owner_id = \(other) AND contact_id = \(me) AND declined),
                       EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(me) AND blocked_id = \(other)),
                       EXISTS (SELECT 1 FROM blocks WHERE blocker_id = \(other) AND blocked_id = \(me))
                """, logger: logger) else { return ContactLink() }
            let (iWant, theyWant, declined, iBlock, theyBlock) = try row.decode((Bool, Bool, Bool, Bool, Bool).self)
            return ContactLink(iWant: iWant, theyWant: theyWant, declinedByMe: declined, iBlock: iBlock, theyBlock: theyBlock)
        }
    }

    /// The people the owner wants, and those who asked the owner and were neither declined nor
    /// blocked by them, by username, each with the link (its decline flag unset, as SQLite's).
    public func contactEntries(owner: UInt64) async throws(StoreError) -> [(UserRecord, ContactLink)] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.userColumns),
                       EXISTS (SELECT 1 FROM contacts m WHERE m.owner_id = \(owner) AND m.contact_id = u.id),
                       EXISTS (SELECT 1 FROM contacts t WHERE t.owner_id = u.id AND t.contact_id = \(owner)),
                       EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = \(owner) AND b.blocked_id = u.id),
                       EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = u.id AND b.blocked_id = \(owner))
                FROM users u
                WHERE u.id IN (SELECT contact_id FROM contacts WHERE owner_id = \(owner))
                   OR u.id IN (SELECT owner_id FROM contacts k WHERE k.contact_id = \(owner) AND NOT k.declined
                               AND NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = \(owner) AND b.blocked_id = k.owner_id))
                ORDER BY u.username_lower COLLATE "C"
                """, logger: logger).map { row in
                let (id, username, email, display, hash, created, seen, zone, iWant, theyWant, iBlock, theyBlock) =
                    try row.decode((UInt64, String, String, String, String, UInt64, UInt64, String, Bool, Bool, Bool, Bool).self)
                return (UserRecord(id: id, username: username, email: email, displayName: display, passwordHash: hash,
                             createdAt: created, lastSeen: seen, timeZone: zone),
                        ContactLink(iWant: iWant, theyWant: theyWant, iBlock: iBlock, theyBlock: theyBlock))
            }
        }
    }

    /// Marks a pending request from `requester` as declined; false if there was none.
    @discardableResult
    public func declineContact(owner: UInt64, requester: UInt64) async throws(StoreError) -> Bool {
        try await exists("UPDATE contacts SET declined = true WHERE owner_id = \(requester) AND contact_id = \(owner) RETURNING 1")
    }

    /// Whether the query returns a row (an EXISTS, or a write with RETURNING).
    func exists(_ query: PostgresQuery) async throws(StoreError) -> Bool {
        try await perform { client, logger in try await client.firstRow(query, logger: logger) != nil }
    }
}
