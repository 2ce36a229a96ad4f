import MessageAIStore
import Logging
import PostgresNIO

extension PostgresStore {
    /// A resend is the same conversation and the same text (or an original edited or deleted
    /// since, which no longer has the text that was sent); any other use of the id, a change's
    /// included, is a reuse, as the SQLite store and PROTOCOL.md have it.
    static func original(_ client: PostgresClient, _ new: NewMessage, logger: Logger) async throws -> AppendOutcome {
        guard let row = try await client.firstRow("""
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
        var columns = Columns(row)
        return try message(&columns)
    }

    /// `messageColumns` from where `columns` stands (the event log's joined read has them after its own).
    static func message(_ columns: inout Columns) throws -> StoredMessage {
        let (conversation, seq, clientID, sender, username, time, text, reply, edited, deleted) =
            (try columns.next(UInt64.self), try columns.next(UInt64.self), try columns.next(ByteBuffer.self),
             try columns.next(UInt64.self), try columns.next(String.self), try columns.next(UInt64.self),
             try columns.next(String.self), try columns.next(UInt64.self), try columns.next(UInt64.self),
             try columns.next(Bool.self))
        let (file, name, size, media, sha, width, height, caption) =
            (try columns.next(ByteBuffer?.self), try columns.next(String?.self), try columns.next(UInt64?.self),
             try columns.next(String?.self), try columns.next(ByteBuffer?.self), try columns.next(UInt64?.self),
             try columns.next(UInt64?.self), try columns.next(String.self))
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
