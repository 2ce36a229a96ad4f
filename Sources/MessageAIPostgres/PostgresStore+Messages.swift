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
    /// Stores one text message, in one transaction, so that any number of writers in any
    /// number of processes give each conversation gap-free, duplicate-free seqs:
    ///
    /// 1. the client id row first, `ON CONFLICT DO NOTHING`: a resend stops here, before a seq
    ///    is taken, and answers with the original (a concurrent twin waits on the unique key
    ///    until the first commits or rolls back);
    /// 2. the seq from `UPDATE conversations ... RETURNING last_seq`, which holds the
    ///    conversation row's lock to the commit, with the membership check in the same
    ///    statement (one round trip; a refused send rolls back its client id row);
    /// 3. the message row.
    public func appendMessage(conversationID: Int64, senderID: Int64, clientID: [UInt8], text: String,
                              serverTime: Int64) async throws(PostgresStoreError) -> AppendedMessage {
        try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                let id = ByteBuffer(bytes: clientID)
                let claimed = try await db.firstRow("""
                    INSERT INTO client_ids (user_id, client_id, kind, created_at)
                    VALUES (\(senderID), \(id), \(ClientIDKind.message), \(serverTime))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: logger) != nil
                guard claimed else {
                    return try await Self.original(in: db, conversationID: conversationID, senderID: senderID,
                                                   clientID: id, text: text, logger: logger)
                }
                guard let row = try await db.firstRow("""
                    UPDATE conversations c SET last_seq = c.last_seq + 1,
                        last_activity = GREATEST(c.last_activity, \(serverTime))
                    WHERE c.id = \(conversationID)
                      AND EXISTS (SELECT 1 FROM members m WHERE m.conversation_id = c.id AND m.user_id = \(senderID))
                    RETURNING c.last_seq
                    """, logger: logger) else {
                    throw PostgresStoreError.notMember
                }
                let seq = try row.decode(Int64.self)
                try await db.query("""
                    INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time)
                    VALUES (\(conversationID), \(seq), \(senderID), \(id), 1, \(text), \(serverTime))
                    """, logger: logger)
                return AppendedMessage(seq: seq, serverTime: serverTime, duplicate: false)
            }
        }
    }

    /// A resend is the same conversation and the same text (or an original edited or deleted
    /// since, which no longer has the text that was sent); any other use of the id, a change's
    /// included, is a reuse, as the SQLite store and PROTOCOL.md have it.
    private static func original(in db: PostgresConnection, conversationID: Int64, senderID: Int64,
                                 clientID: ByteBuffer, text: String, logger: Logger) async throws -> AppendedMessage {
        guard let row = try await db.firstRow("""
            SELECT conversation_id, seq, server_time, text, edited_at, deleted FROM messages
            WHERE sender_id = \(senderID) AND client_id = \(clientID)
            """, logger: logger) else {
            throw PostgresStoreError.clientIDReused
        }
        let (conversation, seq, time, storedText, editedAt, deleted) =
            try row.decode((Int64, Int64, Int64, String, Int64, Bool).self)
        let sameText = storedText == text || editedAt != 0 || deleted
        guard conversation == conversationID, sameText else { throw PostgresStoreError.clientIDReused }
        return AppendedMessage(seq: seq, serverTime: time, duplicate: true)
    }
}

/// `client_ids.kind`: what an id was first used for.
enum ClientIDKind {
    static let message: Int16 = 1
    static let change: Int16 = 2
}
