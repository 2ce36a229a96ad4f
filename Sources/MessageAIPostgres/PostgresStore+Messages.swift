import MessageAIStore
import Logging
import PostgresNIO

extension PostgresStore {
    /// The statements of one message of a batch (`append(_:)`, PostgresStore+AppendBatch.swift),
    /// inside the batch's transaction, so that any number of writers in any number of
    /// processes give each conversation gap-free, duplicate-free seqs:
    ///
    /// 1. the client id row first, `ON CONFLICT DO NOTHING`: a resend stops here, before a seq
    ///    is taken, and answers with the original (a concurrent twin waits on the unique key
    ///    until the first commits or rolls back);
    /// 2. the seq from `UPDATE conversations ... RETURNING last_seq`, which holds the
    ///    conversation row's lock to the commit;
    /// 3. the message row, with its search words.
    ///
    /// Because the row lock is held to the commit, the writer of seq N+1 gets its number only
    /// after seq N committed: a reader that sees N+1 sees N, so positions are never seen out of
    /// commit order. As on SQLite, membership, blocks and the reply target are the caller's
    /// checks; a conversation that does not exist is `notFound` for the whole batch.
    static func append(in db: PostgresConnection, _ new: NewMessage, username: String, search: String,
                       logger: Logger) async throws -> AppendOutcome {
        let id = ByteBuffer(bytes: new.clientID)
        let claimed = try await db.firstRow("""
            INSERT INTO client_ids (user_id, client_id, kind, created_at)
            VALUES (\(new.senderID), \(id), \(ClientIDKind.message), \(new.serverTime))
            ON CONFLICT DO NOTHING RETURNING 1
            """, logger: logger) != nil
        guard claimed else {
            return try await original(in: db, new, logger: logger)
        }
        guard let row = try await db.firstRow("""
            UPDATE conversations c SET last_seq = c.last_seq + 1,
                last_activity = GREATEST(c.last_activity, \(new.serverTime))
            WHERE c.id = \(new.conversationID)
            RETURNING c.last_seq
            """, logger: logger) else {
            throw PostgresStoreError.notFound
        }
        let seq = try row.decode(UInt64.self)
        let attachment = new.attachment
        try await db.query("""
            INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to, file_id,
                                  caption, search)
            VALUES (\(new.conversationID), \(seq), \(new.senderID), \(id), 1, \(new.text), \(new.serverTime),
                    \(new.replyTo), \(attachment.map { ByteBuffer(bytes: $0.fileID) }), \(attachment?.caption ?? ""),
                    \(search)::tsvector)
            """, logger: logger)
        return .stored(StoredMessage(conversationID: new.conversationID, seq: seq, clientID: new.clientID,
                                     senderID: new.senderID, senderUsername: username, serverTime: new.serverTime,
                                     text: new.text, replyTo: new.replyTo, attachment: attachment))
    }

    /// A resend is the same conversation and the same text (or an original edited or deleted
    /// since, which no longer has the text that was sent); any other use of the id, a change's
    /// included, is a reuse, as the SQLite store and PROTOCOL.md have it.
    private static func original(in db: PostgresConnection, _ new: NewMessage, logger: Logger) async throws -> AppendOutcome {
        guard let row = try await db.firstRow("""
            SELECT \(unescaped: messageColumns) \(unescaped: messageJoins)
            WHERE m.sender_id = \(new.senderID) AND m.client_id = \(ByteBuffer(bytes: new.clientID))
            """, logger: logger) else {
            return .clientIDReused(nil)
        }
        let original = try message(row)
        let sameText = original.text == new.text || original.editedAt != 0 || original.deleted
        let resend = original.conversationID == new.conversationID && sameText
        return resend ? .duplicate(original) : .clientIDReused(original)
    }

    // MARK: Reading

    static let messageColumns = """
        m.conversation_id, m.seq, m.client_id, m.sender_id, u.username, m.server_time, m.text, m.reply_to,
        m.edited_at, m.deleted, m.file_id, f.name, f.size, f.media_type, f.sha256, f.width, f.height, m.caption
        """
    /// Messages are read with their sender (`u`) and attached file (`f`).
    static let messageJoins = "FROM messages m JOIN users u ON u.id = m.sender_id LEFT JOIN files f ON f.id = m.file_id"

    static func message(_ row: PostgresRow) throws -> StoredMessage {
        let (conversation, seq, clientID, sender, username, time, text, reply, edited, deleted, file,
             name, size, media, sha, width, height, caption) =
            try row.decode((UInt64, UInt64, ByteBuffer, UInt64, String, UInt64, String, UInt64, UInt64, Bool, ByteBuffer?,
                            String?, UInt64?, String?, ByteBuffer?, UInt64?, UInt64?, String).self)
        var message = StoredMessage(conversationID: conversation, seq: seq, clientID: Array(clientID.readableBytesView),
                                    senderID: sender, senderUsername: username, serverTime: time, text: text, replyTo: reply,
                                    editedAt: edited, deleted: deleted)
        if let file {
            // The thumbnail stays in `files`, as on SQLite: pages of messages stay small.
            message.attachment = AttachmentRecord(fileID: Array(file.readableBytesView), name: name ?? "", size: size ?? 0,
                                                  mediaType: media ?? "", sha256: sha.map { Array($0.readableBytesView) } ?? [],
                                                  width: width ?? 0, height: height ?? 0, caption: caption)
        }
        return message
    }

    /// Ascending by seq, seq > afterSeq, at most `limit` (1...10,000): a sync's read.
    public func messages(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws(StoreError) -> [StoredMessage] {
        let limit = Self.clamp(limit, max: 10_000)
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.conversation_id = \(conversationID) AND m.seq > \(afterSeq) ORDER BY m.seq LIMIT \(limit)
                """, logger: logger).map(Self.message)
        }
    }

    /// The `limit` messages just before `beforeSeq` (0: the newest), ascending: a history page.
    public func messages(conversationID: UInt64, beforeSeq: UInt64, limit: Int) async throws(StoreError) -> [StoredMessage] {
        let limit = Self.clamp(limit, max: 10_000)
        let before = beforeSeq == 0 ? UInt64(Int64.max) : beforeSeq
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.conversation_id = \(conversationID) AND m.seq < \(before) ORDER BY m.seq DESC LIMIT \(limit)
                """, logger: logger).map(Self.message).reversed()
        }
    }

    public func message(conversationID: UInt64, seq: UInt64) async throws(StoreError) -> StoredMessage? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.conversation_id = \(conversationID) AND m.seq = \(seq)
                """, logger: logger).map(Self.message)
        }
    }

    /// The message a sender stored under this client id, if any.
    public func message(senderID: UInt64, clientID: [UInt8]) async throws(StoreError) -> StoredMessage? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                WHERE m.sender_id = \(senderID) AND m.client_id = \(ByteBuffer(bytes: clientID))
                """, logger: logger).map(Self.message)
        }
    }

    /// The seqs of the conversation's stored messages, in order: what a reader would page through.
    public func messageSeqs(conversationID: UInt64) async throws(StoreError) -> [UInt64] {
        try await perform { client, logger in
            try await client.allRows("SELECT seq FROM messages WHERE conversation_id = \(conversationID) ORDER BY seq",
                                     logger: logger).map { try $0.decode(UInt64.self) }
        }
    }

    static func clamp(_ limit: Int, max: Int) -> Int { Swift.min(Swift.max(limit, 1), max) }
}

/// `client_ids.kind`: what an id was first used for.
enum ClientIDKind {
    static let message: Int16 = 1
    static let change: Int16 = 2
}
