import MessageAIVocabulary
import MessageAIStore
import PostgresNIO

/// Direct conversations, groups and membership, with the SQLite store's behaviour
/// (Sources/MessageAIServer/Store/SQLiteStore+Conversations.swift). Where SQLite relied on
/// being the only writer, the rule here sits in a key: a pair has one direct conversation
/// because `direct_pairs` has the pair as its primary key.
extension PostgresStore {
    static let conversationColumns = "c.id, c.kind, c.name, c.created_at, c.last_seq, c.last_activity, c.avatar_file_id"

    static func conversation(_ row: PostgresRow) throws -> ConversationRecord {
        let (id, kind, name, created, last, activity, avatar) =
            try row.decode((UInt64, UInt64, String, UInt64, UInt64, UInt64, ByteBuffer?).self)
        var conversation = ConversationRecord(id: id, kind: ConversationKind(rawValue: kind) ?? .group, name: name, createdAt: created,
                                              lastSeq: last, lastActivity: activity)
        conversation.avatarID = avatar.map { Array($0.readableBytesView) } ?? []
        return conversation
    }

    /// The pair's one direct conversation, created on first use; `created` tells whether this
    /// call made it. Two calls racing (two nodes, both users at once) get the same one: the
    /// loser's insert into `direct_pairs` waits on the key until the winner commits, finds the
    /// pair taken, and its transaction (with its would-be conversation) is rolled back.
    /// The one asked (`b`) holds it as a message request unless the two are contacts.
    public func directConversation(_ a: UInt64, _ b: UInt64, now: UInt64) async throws(StoreError) -> (ConversationRecord, created: Bool) {
        guard a != b else { throw StoreError.failed("a direct conversation needs two different users") }
        let (low, high) = (min(a, b), max(a, b))
        let find: PostgresQuery = """
            SELECT \(unescaped: Self.conversationColumns) FROM direct_pairs p JOIN conversations c ON c.id = p.conversation_id
            WHERE p.low_user_id = \(low) AND p.high_user_id = \(high)
            """
        return try await perform { client, logger in
            if let row = try await client.firstRow(find, logger: logger) { return (try Self.conversation(row), false) }
            do {
                return try await client.withTransaction(logger: logger) { db in
                    guard let row = try await db.firstRow("""
                        INSERT INTO conversations (kind, name, created_at, last_activity) VALUES (1, '', \(now), \(now))
                        RETURNING id, kind, name, created_at, last_seq, last_activity, avatar_file_id
                        """, logger: logger) else { throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no row") }
                    let conversation = try Self.conversation(row)
                    guard try await db.firstRow("""
                        INSERT INTO direct_pairs (low_user_id, high_user_id, conversation_id) VALUES (\(low), \(high), \(conversation.id))
                        ON CONFLICT DO NOTHING RETURNING 1
                        """, logger: logger) != nil else { throw LostRace() }
                    try await db.query("""
                        INSERT INTO members (conversation_id, user_id, joined_at, pending)
                        VALUES (\(conversation.id), \(a), \(now), false),
                               (\(conversation.id), \(b), \(now),
                                NOT (EXISTS (SELECT 1 FROM contacts WHERE owner_id = \(a) AND contact_id = \(b))
                                     AND EXISTS (SELECT 1 FROM contacts WHERE owner_id = \(b) AND contact_id = \(a))))
                        """, logger: logger)
                    return (conversation, true)
                }
            } catch let error as PostgresTransactionError where error.closureError is LostRace {
                guard let row = try await client.firstRow(find, logger: logger) else {
                    throw PostgresStoreError.failed(sqlState: nil, message: "direct pair vanished")
                }
                return (try Self.conversation(row), false)
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    /// A group of the creator and `members` (duplicates ignored).
    public func createGroup(name: String, creator: UInt64, members: [UInt64], now: UInt64) async throws(StoreError) -> ConversationRecord {
        try await perform { client, logger in
            do {
                return try await client.withTransaction(logger: logger) { db in
                    guard let row = try await db.firstRow("""
                        INSERT INTO conversations (kind, name, created_at, last_activity) VALUES (2, \(name), \(now), \(now))
                        RETURNING id, kind, name, created_at, last_seq, last_activity, avatar_file_id
                        """, logger: logger) else { throw PostgresStoreError.failed(sqlState: nil, message: "INSERT returned no row") }
                    let conversation = try Self.conversation(row)
                    try await Self.insertMembers(db, conversation.id, [creator] + members, now: now, logger: logger)
                    return conversation
                }
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    /// As above, with the first member as the creator; returns the id (the tests' shorthand).
    public func createGroup(name: String, memberIDs: [UInt64], now: UInt64) async throws(StoreError) -> UInt64 {
        try await createGroup(name: name, creator: memberIDs[0], members: Array(memberIDs.dropFirst()), now: now).id
    }

    /// Idempotent: an existing member keeps their markers.
    public func addMembers(conversationID: UInt64, userIDs: [UInt64], now: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            do {
                try await client.withTransaction(logger: logger) { db in
                    guard try await db.firstRow("SELECT 1 FROM conversations WHERE id = \(conversationID)", logger: logger) != nil else {
                        throw PostgresStoreError.notFound
                    }
                    try await Self.insertMembers(db, conversationID, userIDs, now: now, logger: logger)
                }
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    public func renameGroup(conversationID: UInt64, name: String) async throws(StoreError) {
        try await perform { client, logger in
            guard try await client.firstRow("UPDATE conversations SET name = \(name) WHERE id = \(conversationID) RETURNING 1",
                                            logger: logger) != nil else { throw PostgresStoreError.notFound }
        }
    }

    /// The member's row (and so their markers) goes; `notFound` if they were not a member.
    public func removeMember(conversationID: UInt64, userID: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            guard try await client.firstRow("""
                DELETE FROM members WHERE conversation_id = \(conversationID) AND user_id = \(userID) RETURNING 1
                """, logger: logger) != nil else { throw PostgresStoreError.notFound }
        }
    }

    public func conversation(id: UInt64) async throws(StoreError) -> ConversationRecord? {
        try await perform { client, logger in
            try await client.firstRow("SELECT \(unescaped: Self.conversationColumns) FROM conversations c WHERE c.id = \(id)",
                                      logger: logger).map(Self.conversation)
        }
    }

    /// Ordered by username.
    public func members(conversationID: UInt64) async throws(StoreError) -> [MemberRecord] {
        try await perform { client, logger in
            try await client.allRows("""
                SELECT u.id, u.username, u.display_name FROM members mb JOIN users u ON u.id = mb.user_id
                WHERE mb.conversation_id = \(conversationID) ORDER BY u.username_lower
                """, logger: logger).map(Self.member)
        }
    }

    public func memberIDs(conversationID: UInt64) async throws(StoreError) -> [UInt64] {
        try await perform { client, logger in
            try await client.allRows("SELECT user_id FROM members WHERE conversation_id = \(conversationID)", logger: logger)
                .map { try $0.decode(UInt64.self) }
        }
    }

    /// One statement, so one snapshot: the ids are the members at the version read with them
    /// (v14 raises it in every membership change's transaction). No such conversation: none, 0.
    public func memberList(conversationID: UInt64) async throws(StoreError) -> MemberList {
        try await perform { client, logger in
            var list = MemberList(ids: [], version: 0)
            for row in try await client.allRows("""
                SELECT c.members_version, m.user_id FROM conversations c
                LEFT JOIN members m ON m.conversation_id = c.id WHERE c.id = \(conversationID)
                """, logger: logger) {
                let (version, user) = try row.decode((UInt64, UInt64?).self)
                list.version = version
                if let user { list.ids.append(user) }
            }
            return list
        }
    }

    public func isMember(conversationID: UInt64, userID: UInt64) async throws(StoreError) -> Bool {
        try await perform { client, logger in
            try await client.firstRow("SELECT 1 FROM members WHERE conversation_id = \(conversationID) AND user_id = \(userID)",
                                      logger: logger) != nil
        }
    }

    // MARK: Helpers

    static func member(_ row: PostgresRow) throws -> MemberRecord {
        let (id, username, display) = try row.decode((UInt64, String, String).self)
        return MemberRecord(userID: id, username: username, displayName: display)
    }

    static func insertMembers(_ db: PostgresConnection, _ conversationID: UInt64, _ userIDs: [UInt64], now: UInt64,
                              logger: Logger) async throws {
        try await db.query("""
            INSERT INTO members (conversation_id, user_id, joined_at)
            SELECT \(conversationID), u, \(now) FROM unnest(\(userIDs)::BIGINT[]) AS u
            ON CONFLICT DO NOTHING
            """, logger: logger)
    }

    /// A foreign key found no row: a user or conversation that does not exist (23503).
    static func isMissingReference(_ error: any Error) -> Bool {
        if let psql = error as? PSQLError { return psql.serverInfo?[.sqlState] == "23503" }
        if let transaction = error as? PostgresTransactionError, let inner = transaction.closureError {
            return isMissingReference(inner)
        }
        return false
    }
}

/// Another transaction made the direct conversation first: this one rolls back.
private struct LostRace: Error {}
