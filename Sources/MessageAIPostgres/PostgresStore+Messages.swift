import Logging
import PostgresNIO

/// What appending a message gave: its place, and whether it was stored before under the same
/// client id (a resend), in which case nothing new was stored and no seq was taken.
public struct AppendedMessage: Sendable, Equatable {
    public let seq: Int64
    public let serverTime: Int64
    public let duplicate: Bool

    public init(seq: Int64, serverTime: Int64, duplicate: Bool) {
        self.seq = seq
        self.serverTime = serverTime
        self.duplicate = duplicate
    }
}

extension PostgresStore {
    /// Stores one message, in one transaction, so that any number of writers in any number of
    /// processes give each conversation gap-free, duplicate-free seqs:
    ///
    /// 1. the client id row first, `ON CONFLICT DO NOTHING`: a resend stops here, before a seq
    ///    is taken, and answers with the original (a concurrent twin waits on the unique key
    ///    until the first commits or rolls back);
    /// 2. the seq from `UPDATE conversations ... RETURNING last_seq`, which holds the
    ///    conversation row's lock to the commit, with the membership, block (a direct
    ///    conversation where either side blocks the other) and reply checks in the same
    ///    statement (one round trip; a refused send rolls back its client id row, and only
    ///    then is asked which check failed);
    /// 3. the message row, with its search words.
    ///
    /// Because the row lock is held to the commit, the writer of seq N+1 gets its number only
    /// after seq N committed: a reader that sees N+1 sees N, so positions are never seen out of
    /// commit order.
    public func append(_ new: NewMessage) async throws(PostgresStoreError) -> AppendedMessage {
        let search = SearchVector.document(new.text)
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await Self.append(in: db, new, search: search, logger: logger)
            }
        }
    }

    /// The statements of one append inside the caller's transaction (one message, or one of a
    /// batch). A refusal is thrown as a `PostgresStoreError` after its client id row was taken
    /// back, so a batch may go on with its other messages; a database error aborts the
    /// transaction and is thrown as it is.
    static func append(in db: PostgresConnection, _ new: NewMessage, search: String, logger: Logger) async throws -> AppendedMessage {
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
              AND EXISTS (SELECT 1 FROM members m WHERE m.conversation_id = c.id AND m.user_id = \(new.senderID))
              AND NOT EXISTS (SELECT 1 FROM direct_pairs d JOIN blocks b
                                ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
                                OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
                              WHERE d.conversation_id = c.id)
              AND (\(new.replyTo) = 0 OR EXISTS (SELECT 1 FROM messages r WHERE r.conversation_id = c.id
                                                 AND r.seq = \(new.replyTo) AND NOT r.deleted))
            RETURNING c.last_seq
            """, logger: logger) else {
            let refusal = try await whyRefused(db, new, logger: logger)
            try await db.query("DELETE FROM client_ids WHERE user_id = \(new.senderID) AND client_id = \(id)", logger: logger)
            throw refusal
        }
        let seq = try row.decode(Int64.self)
        try await db.query("""
            INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to, file_id, search)
            VALUES (\(new.conversationID), \(seq), \(new.senderID), \(id), 1, \(new.text), \(new.serverTime),
                    \(new.replyTo), \(new.fileID.map { ByteBuffer(bytes: $0) }), \(search)::tsvector)
            """, logger: logger)
        return AppendedMessage(seq: seq, serverTime: new.serverTime, duplicate: false)
    }

    /// A text message without reply or file (the shape of the first tests).
    public func appendMessage(conversationID: Int64, senderID: Int64, clientID: [UInt8], text: String,
                              serverTime: Int64) async throws(PostgresStoreError) -> AppendedMessage {
        try await append(NewMessage(conversationID: conversationID, senderID: senderID, clientID: clientID,
                                    text: text, serverTime: serverTime))
    }

    /// A resend is the same conversation and the same text (or an original edited or deleted
    /// since, which no longer has the text that was sent); any other use of the id, a change's
    /// included, is a reuse, as the SQLite store and PROTOCOL.md have it.
    private static func original(in db: PostgresConnection, _ new: NewMessage, logger: Logger) async throws -> AppendedMessage {
        guard let row = try await db.firstRow("""
            SELECT conversation_id, seq, server_time, text, edited_at, deleted FROM messages
            WHERE sender_id = \(new.senderID) AND client_id = \(ByteBuffer(bytes: new.clientID))
            """, logger: logger) else {
            throw PostgresStoreError.clientIDReused
        }
        let (conversation, seq, time, storedText, editedAt, deleted) =
            try row.decode((Int64, Int64, Int64, String, Int64, Bool).self)
        let sameText = storedText == new.text || editedAt != 0 || deleted
        guard conversation == new.conversationID, sameText else { throw PostgresStoreError.clientIDReused }
        return AppendedMessage(seq: seq, serverTime: time, duplicate: true)
    }

    /// Which of the append's checks failed (asked only on that path).
    private static func whyRefused(_ db: PostgresConnection, _ new: NewMessage, logger: Logger) async throws -> PostgresStoreError {
        guard try await db.firstRow("""
            SELECT 1 FROM members WHERE conversation_id = \(new.conversationID) AND user_id = \(new.senderID)
            """, logger: logger) != nil else { return .notMember }
        if let row = try await db.firstRow("""
            SELECT b.blocker_id = \(new.senderID) FROM direct_pairs d JOIN blocks b
              ON (b.blocker_id = d.low_user_id AND b.blocked_id = d.high_user_id)
              OR (b.blocker_id = d.high_user_id AND b.blocked_id = d.low_user_id)
            WHERE d.conversation_id = \(new.conversationID)
            ORDER BY 1 DESC LIMIT 1
            """, logger: logger) {
            return .blocked(bySender: try row.decode(Bool.self))
        }
        let deleted = try await db.firstRow("""
            SELECT deleted FROM messages WHERE conversation_id = \(new.conversationID) AND seq = \(new.replyTo)
            """, logger: logger).map { try $0.decode(Bool.self) }
        return deleted == nil ? .noSuchMessage : .messageDeleted
    }

    // MARK: Reading

    static let messageColumns = """
        m.conversation_id, m.seq, m.client_id, m.sender_id, u.username, m.server_time, m.text, m.reply_to,
        m.edited_at, m.deleted, m.file_id
        """

    static func message(_ row: PostgresRow) throws -> Message {
        let (conversation, seq, clientID, sender, username, time, text, reply, edited, deleted, file) =
            try row.decode((Int64, Int64, ByteBuffer, Int64, String, Int64, String, Int64, Int64, Bool, ByteBuffer?).self)
        return Message(conversationID: conversation, seq: seq, clientID: Array(clientID.readableBytesView), senderID: sender,
                       senderUsername: username, serverTime: time, text: text, replyTo: reply, editedAt: edited,
                       deleted: deleted, fileID: file.map { Array($0.readableBytesView) })
    }

    /// Ascending by seq, seq > afterSeq, at most `limit` (1...10,000): a sync's read.
    public func messages(conversationID: Int64, afterSeq: Int64, limit: Int) async throws(PostgresStoreError) -> [Message] {
        let limit = Self.clamp(limit, max: 10_000)
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
                WHERE m.conversation_id = \(conversationID) AND m.seq > \(afterSeq) ORDER BY m.seq LIMIT \(limit)
                """, logger: logger).map(Self.message)
        }
    }

    /// The `limit` messages just before `beforeSeq` (0: the newest), ascending: a history page.
    public func messages(conversationID: Int64, beforeSeq: Int64, limit: Int) async throws(PostgresStoreError) -> [Message] {
        let limit = Self.clamp(limit, max: 10_000)
        let before = beforeSeq == 0 ? Int64.max : beforeSeq
        return try await perform { client, logger in
            try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
                WHERE m.conversation_id = \(conversationID) AND m.seq < \(before) ORDER BY m.seq DESC LIMIT \(limit)
                """, logger: logger).map(Self.message).reversed()
        }
    }

    public func message(conversationID: Int64, seq: Int64) async throws(PostgresStoreError) -> Message? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
                WHERE m.conversation_id = \(conversationID) AND m.seq = \(seq)
                """, logger: logger).map(Self.message)
        }
    }

    /// The message a sender stored under this client id, if any.
    public func message(senderID: Int64, clientID: [UInt8]) async throws(PostgresStoreError) -> Message? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT \(unescaped: Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
                WHERE m.sender_id = \(senderID) AND m.client_id = \(ByteBuffer(bytes: clientID))
                """, logger: logger).map(Self.message)
        }
    }

    /// The seqs of the conversation's stored messages, in order: what a reader would page through.
    public func messageSeqs(conversationID: Int64) async throws(PostgresStoreError) -> [Int64] {
        try await perform { client, logger in
            try await client.allRows("SELECT seq FROM messages WHERE conversation_id = \(conversationID) ORDER BY seq",
                                     logger: logger).map { try $0.decode(Int64.self) }
        }
    }

    static func clamp(_ limit: Int, max: Int) -> Int { Swift.min(Swift.max(limit, 1), max) }
}

/// `client_ids.kind`: what an id was first used for.
enum ClientIDKind {
    static let message: Int16 = 1
    static let change: Int16 = 2
}
