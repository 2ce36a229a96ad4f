import MessageAIStore
import PostgresNIO

/// Blocking and message requests (SQLiteStore+Privacy.swift).
extension PostgresStore {
    /// Idempotent; whether the block is new. `notFound` for a user that does not exist.
    @discardableResult
    public func block(blocker: UInt64, blocked: UInt64, now: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            do {
                return try await client.firstRow("""
                    INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(blocker), \(blocked), \(now))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger) != nil
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    @discardableResult
    public func unblock(blocker: UInt64, blocked: UInt64) async throws(StoreError) -> Bool {
        try await exists("DELETE FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked) RETURNING 1")
    }

    /// The users `blocker` blocks, by username.
    public func blockedUsers(blocker: UInt64) async throws(StoreError) -> [UserRecord] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.userColumns) FROM blocks b JOIN users u ON u.id = b.blocked_id
                WHERE b.blocker_id = \(blocker) ORDER BY u.username_lower COLLATE "C"
                """, logger: logger).map(Self.user)
        }
    }

    /// Users among `candidates` who block `userID` (refused as group members added by them).
    public func blockers(of userID: UInt64, among candidates: [UInt64]) async throws(StoreError) -> Set<UInt64> {
        guard !candidates.isEmpty else { return [] }
        return Set(try await ids("""
            SELECT blocker_id FROM blocks WHERE blocked_id = \(userID) AND blocker_id = ANY(\(candidates)::BIGINT[])
            """))
    }

    /// Everyone in a block with the user, either direction (typing fan-out).
    public func blockPartners(of userID: UInt64) async throws(StoreError) -> Set<UInt64> {
        Set(try await ids("""
            SELECT blocked_id FROM blocks WHERE blocker_id = \(userID)
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(userID)
            """))
    }

    /// Membership, message request and block in one query: nil when not a member. SEND is
    /// refused where `blockedPartner` is set (the caller answers; the store only tells).
    public func membership(conversationID: UInt64, userID: UInt64) async throws(StoreError) -> Membership? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT mb.pending,
                       (SELECT CASE WHEN d.low_user_id = \(userID) THEN d.high_user_id ELSE d.low_user_id END
                        FROM direct_pairs d JOIN blocks b
                          ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                          OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                        WHERE d.conversation_id = \(conversationID) LIMIT 1)
                FROM members mb WHERE mb.conversation_id = \(conversationID) AND mb.user_id = \(userID)
                """, logger: logger).map { row in
                let (pending, partner) = try row.decode((Bool, UInt64?).self)
                return Membership(pending: pending, blockedPartner: partner)
            }
        }
    }

    /// Accepts the message request the member holds, if any; whether there was one.
    @discardableResult
    public func acceptRequest(conversationID: UInt64, userID: UInt64) async throws(StoreError) -> Bool {
        try await exists("""
            UPDATE members SET pending = false WHERE conversation_id = \(conversationID) AND user_id = \(userID) AND pending
            RETURNING 1
            """)
    }

    /// Accepts the direct conversation of two users on both sides (they became contacts).
    public func acceptDirectRequests(_ a: UInt64, _ b: UInt64) async throws(StoreError) {
        let (low, high) = (min(a, b), max(a, b))
        try await perform { client, logger in
            _ = try await client.query("""
                UPDATE members SET pending = false WHERE pending AND conversation_id =
                    (SELECT conversation_id FROM direct_pairs WHERE low_user_id = \(low) AND high_user_id = \(high))
                """, logger: logger)
        }
    }

    /// The first column of every row, as ids.
    func ids(_ query: PostgresQuery) async throws(StoreError) -> [UInt64] {
        try await perform { client, logger in
            try await client.allRows(query, logger: logger).map { try $0.decode(UInt64.self) }
        }
    }
}
