import MessageAIVocabulary
import MessageAIStore
import PostgresNIO

/// Read and delivered markers, a member's conversation list, and search.
extension PostgresStore {
    // MARK: Markers

    /// Raises the member's markers: never lowered, read implies delivered, capped at the
    /// conversation's last seq; returns the markers after the call and whether they changed.
    /// One statement: the member's row is locked (`FOR UPDATE`) before it is read, so two
    /// nodes raising the same markers at once apply one after the other and the later never
    /// writes a lower value it read before the other's commit. `notFound`: not a member.
    public func raiseMarkers(conversationID: UInt64, userID: UInt64, delivered: UInt64,
                             read: UInt64) async throws(StoreError) -> (delivered: UInt64, read: UInt64, changed: Bool) {
        try await perform { client, logger in
            guard let row = try await client.firstRow("""
                WITH old AS (
                    SELECT mb.delivered_seq, mb.read_seq, c.last_seq
                    FROM members mb JOIN conversations c ON c.id = mb.conversation_id
                    WHERE mb.conversation_id = \(conversationID) AND mb.user_id = \(userID)
                    FOR UPDATE OF mb
                ), new AS (
                    SELECT delivered_seq AS old_delivered, read_seq AS old_read,
                           GREATEST(read_seq, LEAST(\(read), last_seq)) AS read_seq,
                           GREATEST(delivered_seq, LEAST(\(delivered), last_seq), read_seq, LEAST(\(read), last_seq)) AS delivered_seq
                    FROM old
                ), raised AS (
                    UPDATE members mb SET delivered_seq = new.delivered_seq, read_seq = new.read_seq FROM new
                    WHERE mb.conversation_id = \(conversationID) AND mb.user_id = \(userID)
                      AND (new.delivered_seq, new.read_seq) <> (new.old_delivered, new.old_read)
                    RETURNING 1
                )
                SELECT delivered_seq, read_seq, EXISTS (SELECT 1 FROM raised) FROM new
                """, logger: logger) else { throw PostgresStoreError.notFound }
            let (newDelivered, newRead, changed) = try row.decode((UInt64, UInt64, Bool).self)
            return (newDelivered, newRead, changed)
        }
    }

    /// Every member's markers, ordered by username.
    public func markers(conversationID: UInt64) async throws(StoreError) -> [MemberMarker] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT u.id, u.username, u.display_name, mb.delivered_seq, mb.read_seq, mb.pending
                FROM members mb JOIN users u ON u.id = mb.user_id
                WHERE mb.conversation_id = \(conversationID) ORDER BY u.username_lower
                """, logger: logger).map { row in
                let (id, username, display, delivered, read, pending) = try row.decode((UInt64, String, String, UInt64, UInt64, Bool).self)
                return MemberMarker(user: MemberRecord(userID: id, username: username, displayName: display),
                              deliveredSeq: delivered, readSeq: read, pending: pending)
            }
        }
    }

    // MARK: ConversationRecord list

    /// The user's conversations, most recent activity first, each with its members, newest
    /// message, unread count and the user's markers. Read in one REPEATABLE READ transaction,
    /// so the three queries see one snapshot (a last message never newer than `lastSeq`).
    public func conversationList(userID: UInt64) async throws(StoreError) -> [ConversationEntry] {
        try await views(userID: userID, only: nil)
    }

    /// One conversation as `userID` sees it; nil when not a member.
    public func conversationView(id: UInt64, userID: UInt64) async throws(StoreError) -> ConversationEntry? {
        try await views(userID: userID, only: id).first
    }

    private func views(userID: UInt64, only: UInt64?) async throws(StoreError) -> [ConversationEntry] {
        let one = only ?? 0
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await db.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger)
                var views: [ConversationEntry] = []
                for row in try await db.allRows("""
                    SELECT \(unescaped: Self.conversationColumns), mb.delivered_seq, mb.read_seq, mb.pending,
                        (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.seq > mb.read_seq
                                                         AND m.sender_id <> \(userID))
                    FROM members mb JOIN conversations c ON c.id = mb.conversation_id
                    WHERE mb.user_id = \(userID) AND (\(one) = 0 OR c.id = \(one))
                    ORDER BY c.last_activity DESC, c.id DESC
                    """, logger: logger) {
                    let (id, kind, name, created, last, activity, avatar, delivered, read, pending, unread) =
                        try row.decode((UInt64, UInt64, String, UInt64, UInt64, UInt64, ByteBuffer?, UInt64, UInt64, Bool, UInt64).self)
                    _ = created
                    views.append(ConversationEntry(conversationID: id, kind: ConversationKind(rawValue: kind) ?? .group, name: name,
                                                   members: [], lastSeq: last, lastActivity: activity, unread: unread,
                                                   deliveredSeq: delivered, readSeq: read, request: pending,
                                                   avatarID: avatar.map { Array($0.readableBytesView) } ?? []))
                }
                let ids = views.map(\.conversationID)
                guard !ids.isEmpty else { return views }
                var members: [UInt64: [MemberRecord]] = [:]
                for row in try await db.allRows("""
                    SELECT mb.conversation_id, u.id, u.username, u.display_name FROM members mb JOIN users u ON u.id = mb.user_id
                    WHERE mb.conversation_id = ANY(\(ids)::BIGINT[]) ORDER BY u.username_lower
                    """, logger: logger) {
                    let (conversation, id, username, display) = try row.decode((UInt64, UInt64, String, String).self)
                    members[conversation, default: []].append(MemberRecord(userID: id, username: username, displayName: display))
                }
                var last: [UInt64: StoredMessage] = [:]
                for row in try await db.allRows("""
                    SELECT \(unescaped: Self.messageColumns) FROM unnest(\(ids)::BIGINT[]) AS ids(cid)
                    CROSS JOIN LATERAL (SELECT * FROM messages WHERE conversation_id = ids.cid ORDER BY seq DESC LIMIT 1) m
                    JOIN users u ON u.id = m.sender_id LEFT JOIN files f ON f.id = m.file_id
                    """, logger: logger) {
                    let message = try Self.message(row)
                    last[message.conversationID] = message
                }
                for i in views.indices {
                    views[i].members = members[views[i].conversationID] ?? []
                    views[i].lastMessage = last[views[i].conversationID]
                }
                return views
            }
        }
    }

    // MARK: Search

    /// Messages of the user's conversations (or of one of them) holding every word of `query`,
    /// the last as a prefix, newest first; see `SearchVector` for the rules. The membership
    /// test in SQL is what keeps a user to their own conversations, whatever they typed.
    public func search(userID: UInt64, query: String, conversationID: UInt64?, offset: Int,
                       limit: Int) async throws(StoreError) -> [StoredMessage] {
        guard let tsquery = SearchVector.query(query) else { return [] }
        let (scope, limit, offset) = (conversationID ?? 0, Self.clamp(limit, max: 500), max(0, offset))
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.search @@ \(tsquery)::tsquery AND (\(scope) = 0 OR m.conversation_id = \(scope))
                  AND m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = \(userID))
                ORDER BY m.id DESC LIMIT \(limit) OFFSET \(offset)
                """, logger: logger).map(Self.message)
        }
    }
}
