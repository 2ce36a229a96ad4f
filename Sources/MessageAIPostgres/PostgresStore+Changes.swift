import MessageAIVocabulary
import MessageAIStore
import PostgresNIO

/// Reactions, edits and deletes: a change takes the next position of its conversation from
/// the same counter as messages, under the same row lock, and is applied to the message in
/// the same transaction. So a reader that has seen position N has seen every message and
/// change below it in their final order, and an edit or delete is visible to every reader the
/// moment its position is.
extension PostgresStore {
    static let changeColumns = """
        c.conversation_id, c.seq, c.client_id, c.actor_id, u.username, c.server_time, c.target_seq, c.action, c.emoji,
        CASE WHEN c.action = 3 THEN coalesce(m.text, '') ELSE '' END
        """
    /// Changes are read with their actor (`u`) and target message (`m`, for an edit's text now).
    static let changeJoins = """
        FROM message_changes c JOIN users u ON u.id = c.actor_id
        LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.seq = c.target_seq
        """

    static func change(_ row: PostgresRow) throws -> ChangeRecord {
        let (conversation, seq, clientID, actor, username, time, target, action, emoji, text) =
            try row.decode((UInt64, UInt64, ByteBuffer, UInt64, String, UInt64, UInt64, UInt64, String, String).self)
        return ChangeRecord(conversationID: conversation, seq: seq, clientID: Array(clientID.readableBytesView), actorID: actor,
                      actorUsername: username, serverTime: time, targetSeq: target,
                      action: (ChangeAction(rawValue: action) ?? .react).rawValue, emoji: emoji, text: text)
    }

    /// The change an actor stored under this client id, if any (a resend).
    public func change(actorID: UInt64, clientID: [UInt8]) async throws(StoreError) -> ChangeRecord? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.changeColumns) \(unescaped: Self.changeJoins)
                WHERE c.actor_id = \(actorID) AND c.client_id = \(ByteBuffer(bytes: clientID))
                """, logger: logger).map(Self.change)
        }
    }

    /// Changes with seq > afterSeq, ascending, at most `limit` (an edit carries the text now).
    public func changes(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws(StoreError) -> [ChangeRecord] {
        let limit = Self.clamp(limit, max: 10_000)
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.changeColumns) \(unescaped: Self.changeJoins)
                WHERE c.conversation_id = \(conversationID) AND c.seq > \(afterSeq) ORDER BY c.seq LIMIT \(limit)
                """, logger: logger).map(Self.change)
        }
    }

    /// Stores and applies a change the caller has checked (sender, edit window, emoji). Checked
    /// again here, under the conversation's lock, is what another node could have changed since:
    /// membership (`notMember`) and the target (`noSuchMessage`, `messageDeleted`). A change that
    /// would change nothing takes no seq and leaves its client id free (`unchanged`).
    /// A client id used before, for a change or a message, is `clientIDReused`: as on SQLite,
    /// the caller answered a resend of a change (`change(actorID:clientID:)`) before asking.
    public func apply(_ new: NewChange) async throws(StoreError) -> ChangeOutcome {
        let search = new.action == .edit ? SearchVector.document(new.text) : ""
        return try await perform { client, logger in
            do {
                return try await client.withTransaction(logger: logger) { db in
                    try await Self.applyInTransaction(db, new, search: search, logger: logger)
                }
            } catch let error as PostgresTransactionError where error.closureError is Unchanged {
                return .unchanged
            }
        }
    }

    private static func applyInTransaction(_ db: PostgresConnection, _ new: NewChange, search: String,
                                           logger: Logger) async throws -> ChangeOutcome {
        let (cid, target, actor) = (new.conversationID, new.targetSeq, new.actorID)
        let clientID = ByteBuffer(bytes: new.clientID)
        guard try await db.firstRow("""
            INSERT INTO client_ids (user_id, client_id, kind, created_at)
            VALUES (\(actor), \(clientID), \(ClientIDKind.change), \(new.serverTime))
            ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger) != nil else {
            return .clientIDReused
        }
        // The position first: the lock it takes orders this change with every send and change
        // of the conversation, on every node.
        guard let seqRow = try await db.firstRow("""
            UPDATE conversations c SET last_seq = c.last_seq + 1 WHERE c.id = \(cid)
              AND EXISTS (SELECT 1 FROM members mb WHERE mb.conversation_id = c.id AND mb.user_id = \(actor))
            RETURNING c.last_seq, c.members_version
            """, logger: logger) else { throw PostgresStoreError.notMember }
        let (seq, version) = try seqRow.decode((UInt64, UInt64).self)
        guard let targetRow = try await db.firstRow("""
            SELECT deleted FROM messages WHERE conversation_id = \(cid) AND seq = \(target)
            """, logger: logger) else { throw PostgresStoreError.noSuchMessage }
        guard try !targetRow.decode(Bool.self) else { throw PostgresStoreError.messageDeleted }

        switch new.action {
        case .react:
            guard try await db.firstRow("""
                INSERT INTO reactions (conversation_id, seq, user_id, emoji, change_seq)
                VALUES (\(cid), \(target), \(actor), \(new.emoji), \(seq)) ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger) != nil else { throw Unchanged() }
        case .unreact:
            guard try await db.firstRow("""
                DELETE FROM reactions WHERE conversation_id = \(cid) AND seq = \(target) AND user_id = \(actor)
                  AND emoji = \(new.emoji) RETURNING 1
                """, logger: logger) != nil else { throw Unchanged() }
        case .edit:
            try await db.query("""
                UPDATE messages SET text = \(new.text), edited_at = \(new.serverTime), search = \(search)::tsvector
                WHERE conversation_id = \(cid) AND seq = \(target)
                """, logger: logger)
            // A summary over the old text is not served again (the items are re-extracted after).
            try await dropSummaries(db, conversationID: cid, over: target, logger: logger)
        case .delete:
            // Text and words go in this transaction, for every reader at once; the bytes of
            // the old row version are another matter (see PostgresStore+Purge.swift).
            let attached = try await db.firstRow("""
                WITH old AS (SELECT id, file_id FROM messages WHERE conversation_id = \(cid) AND seq = \(target) FOR UPDATE)
                UPDATE messages m SET text = '', caption = '', deleted = true, file_id = NULL, search = ''::tsvector
                FROM old WHERE m.id = old.id
                RETURNING old.file_id
                """, logger: logger)
            try await db.query("DELETE FROM reactions WHERE conversation_id = \(cid) AND seq = \(target)", logger: logger)
            try await withdrawItems(db, conversationID: cid, seq: target, logger: logger)
            // Its file goes too when nothing else refers to it, and leaves its owner's quota
            // (the blob itself is the caller's to collect).
            if let fileID = try attached?.decode(ByteBuffer?.self) {
                _ = try await deleteFile(db, id: Array(fileID.readableBytesView), onlyIfUnreferenced: true, logger: logger)
            }
        }
        if new.action == .edit || new.action == .delete {
            // The old text stays in a dead row version and the WAL until a purge: owed from now.
            try await db.query("""
                INSERT INTO purge_owed (id, owed_since) VALUES (1, \(new.serverTime))
                ON CONFLICT (id) DO UPDATE SET generation = purge_owed.generation + 1
                """, logger: logger)
        }
        guard let row = try await db.firstRow("""
            WITH inserted AS (
                INSERT INTO message_changes (conversation_id, seq, actor_id, client_id, target_seq, action, emoji, server_time)
                VALUES (\(cid), \(seq), \(actor), \(clientID), \(target), \(new.action.rawValue), \(new.emoji), \(new.serverTime))
                RETURNING actor_id
            )
            SELECT u.username FROM inserted JOIN users u ON u.id = inserted.actor_id
            """, logger: logger) else { throw PostgresStoreError.notFound }
        return .stored(ChangeRecord(conversationID: cid, seq: seq, clientID: new.clientID, actorID: actor,
                              actorUsername: try row.decode(String.self), serverTime: new.serverTime, targetSeq: target,
                              action: new.action.rawValue, emoji: new.emoji, text: new.action == .edit ? new.text : "",
                              membersVersion: version))
    }

    /// Current reactions of the conversation's messages with seqs in `seqs`, by seq, each list
    /// in the order the reactions were made.
    public func reactions(conversationID: UInt64, seqs: ClosedRange<UInt64>) async throws(StoreError) -> [UInt64: [ReactionRecord]] {
        try await perform { client, logger in
            var found: [UInt64: [ReactionRecord]] = [:]
            for row in try await client.allRows("""
                SELECT r.seq, r.emoji, r.user_id, u.username FROM reactions r JOIN users u ON u.id = r.user_id
                WHERE r.conversation_id = \(conversationID) AND r.seq BETWEEN \(seqs.lowerBound) AND \(seqs.upperBound)
                ORDER BY r.change_seq
                """, logger: logger) {
                let (seq, emoji, user, username) = try row.decode((UInt64, String, UInt64, String).self)
                found[seq, default: []].append(ReactionRecord(emoji: emoji, userID: user, username: username))
            }
            return found
        }
    }
}

/// The change would change nothing: its transaction (seq, client id) rolls back.
private struct Unchanged: Error {}
