import Foundation
import MessageAISQLite
import MessageAIProtocol

/// A message as the local cache holds it.
public struct StoredMessage: Equatable {
    public var conversationID: UInt64
    public var seq: UInt64
    public var clientID: String
    public var senderID: UInt64
    public var sender: String
    public var text: String
    public var serverTime: UInt64
    /// Sent from this data directory (what /wait looks at).
    public var sentHere: Bool
    /// The seq this message answers (0: none), when it was last edited, whether it was deleted.
    public var replyTo: UInt64 = 0
    public var editedAt: UInt64 = 0
    public var deleted = false
}

/// A member's markers in one conversation.
public struct Marker: Equatable {
    public var userID: UInt64
    public var username: String
    public var delivered: UInt64
    public var read: UInt64
}

public enum MessageState: String {
    case sending, sent, delivered, read, failed
}

extension LocalStore {
    static let columns = "conversation_id, seq, client_id, sender_id, sender, text, server_time, sent_here"
    static let readColumns = columns + ", reply_to, edited_at, deleted"

    static func row(_ r: Statement) -> StoredMessage {
        StoredMessage(conversationID: r.uint64(0), seq: r.uint64(1), clientID: Hex.encode(r.blob(2)), senderID: r.uint64(3),
                      sender: r.string(4), text: r.string(5), serverTime: r.uint64(6), sentHere: r.int64(7) != 0,
                      replyTo: r.uint64(8), editedAt: r.uint64(9), deleted: r.int64(10) != 0)
    }

    /// Kinds other than text (files, in later protocol versions) are shown as unsupported, as
    /// the spec asks; the seq is still stored so sync positions stay gapless.
    static func shownText(_ m: ChatMessage) -> String {
        m.kind == 1 ? m.text : "(unsupported message)"
    }

    /// Stores the messages not held yet and returns those, in the order given.
    @discardableResult
    public func insert(_ messages: [ChatMessage], sentHere: Set<String> = []) throws -> [ChatMessage] {
        guard !messages.isEmpty else { return [] }
        return try db.transaction {
            var added: [ChatMessage] = []
            for m in messages {
                let hex = Hex.encode(m.clientID)
                let inserted = try db.run("INSERT OR IGNORE INTO messages(\(LocalStore.columns)) VALUES(?,?,?,?,?,?,?,?)",
                                          m.conversationID, m.seq, m.clientID, m.senderID, m.senderUsername,
                                          LocalStore.shownText(m), m.serverTime, sentHere.contains(hex))
                if inserted > 0 {
                    added.append(m)
                    if let a = m.attachment { try insertAttachment(a, of: m) }
                    try db.run("UPDATE conversations SET last_activity=max(last_activity, ?) WHERE id=?", m.serverTime, m.conversationID)
                }
                try storeState(of: m)
            }
            return added
        }
    }

    /// The newest `limit` messages below `before` (0: the newest of all), oldest first.
    public func messages(in conversationID: UInt64, limit: Int, before: UInt64 = 0) throws -> [StoredMessage] {
        try db.query("SELECT \(LocalStore.readColumns) FROM messages WHERE conversation_id=? AND seq<? ORDER BY seq DESC LIMIT ?", 
                     conversationID, before == 0 ? UInt64(Int64.max) : before, limit, row: LocalStore.row).reversed()
    }

    public func message(in conversationID: UInt64, seq: UInt64) throws -> StoredMessage? {
        try db.query("SELECT \(LocalStore.readColumns) FROM messages WHERE conversation_id=? AND seq=?", conversationID, seq, row: LocalStore.row).first
    }

    public func messages(sentHereIn conversationID: UInt64) throws -> [StoredMessage] {
        try db.query("SELECT \(LocalStore.readColumns) FROM messages WHERE conversation_id=? AND sent_here=1 ORDER BY seq", conversationID, row: LocalStore.row)
    }

    /// Whether a message of this user with this client id is stored (it was acknowledged).
    public func hasOwnMessage(clientID: String) throws -> Bool {
        guard let bytes = Hex.decode(clientID) else { return false }
        return try !db.query("SELECT 1 FROM messages WHERE client_id=? AND sender_id=? LIMIT 1", bytes, userID) { $0.int64(0) }.isEmpty
    }

    public func count(in conversationID: UInt64) throws -> Int {
        Int(try db.query("SELECT count(*) FROM messages WHERE conversation_id=?", conversationID) { $0.int64(0) }.first ?? 0)
    }

    /// What SYNC sends: the highest seq held per conversation.
    public func syncPositions() throws -> [SyncPosition] {
        // Changes take seqs too: the position is past the last applied change as well.
        let changes = try lastChangeSeqs()
        return try db.query("""
            SELECT c.id, coalesce((SELECT max(seq) FROM messages m WHERE m.conversation_id=c.id), 0) FROM conversations c
            """) { SyncPosition(conversationID: $0.uint64(0), lastSeq: max($0.uint64(1), changes[$0.uint64(0)] ?? 0)) }
    }

    /// The highest seq held in one conversation, messages and changes alike (its SYNC position).
    public func position(in conversationID: UInt64) throws -> UInt64 {
        try db.query("""
            SELECT max(coalesce((SELECT max(seq) FROM messages WHERE conversation_id=?1), 0),
                       coalesce((SELECT max(seq) FROM changes WHERE conversation_id=?1), 0))
            """, conversationID) { $0.uint64(0) }.first ?? 0
    }

    public func lastSeq(in conversationID: UInt64) throws -> UInt64 {
        try db.query("SELECT coalesce(max(seq),0) FROM messages WHERE conversation_id=?", conversationID) { $0.uint64(0) }.first ?? 0
    }

    // MARK: Markers and states

    /// Raises a member's markers (they never go back); returns the markers before and after.
    @discardableResult
    public func raiseMarker(_ conversationID: UInt64, userID: UInt64, username: String,
                            delivered: UInt64, read: UInt64) throws -> (old: Marker, new: Marker) {
        let old = try marker(conversationID, userID: userID) ?? Marker(userID: userID, username: username, delivered: 0, read: 0)
        let newRead = max(old.read, read)
        let new = Marker(userID: userID, username: username, delivered: max(old.delivered, delivered, newRead), read: newRead)
        if new != old {
            try db.run("INSERT OR REPLACE INTO markers VALUES(?,?,?,?,?)", conversationID, userID, username, new.delivered, new.read)
        }
        return (old, new)
    }

    public func marker(_ conversationID: UInt64, userID: UInt64) throws -> Marker? {
        try db.query("SELECT user_id, username, delivered_seq, read_seq FROM markers WHERE conversation_id=? AND user_id=?", conversationID, userID) { Marker(userID: $0.uint64(0), username: $0.string(1), delivered: $0.uint64(2), read: $0.uint64(3)) }.first
    }

    /// The markers of every member but this user (0 for a member with none yet).
    public func otherMarkers(_ conversationID: UInt64) throws -> [Marker] {
        guard let c = try conversation(conversationID) else { return [] }
        return try c.members.filter { $0.userID != userID }.map {
            try marker(conversationID, userID: $0.userID) ?? Marker(userID: $0.userID, username: $0.username, delivered: 0, read: 0)
        }
    }

    /// Up to which seq every other member has received and read: a sent message is delivered
    /// (read) once all recipients have it (for a direct conversation, the other member).
    public func recipientsReached(_ conversationID: UInt64) throws -> (delivered: UInt64, read: UInt64) {
        let others = try otherMarkers(conversationID)
        guard !others.isEmpty else { return (0, 0) }
        return (others.map(\.delivered).min() ?? 0, others.map(\.read).min() ?? 0)
    }

    public func state(of seq: UInt64, in conversationID: UInt64) throws -> MessageState {
        let reached = try recipientsReached(conversationID)
        if reached.read >= seq { return .read }
        if reached.delivered >= seq { return .delivered }
        return .sent
    }

    /// Messages from others above this user's read marker.
    public func unread(in conversationID: UInt64) throws -> Int {
        let read = try marker(conversationID, userID: userID)?.read ?? 0
        return Int(try db.query("SELECT count(*) FROM messages WHERE conversation_id=? AND seq>? AND sender_id != ?", conversationID, read, userID) { $0.int64(0) }.first ?? 0)
    }
}

extension LocalStore {
    /// This user's messages with after < seq <= upTo, ascending.
    public func ownMessages(in conversationID: UInt64, after: UInt64, upTo: UInt64) throws -> [StoredMessage] {
        try db.query("""
            SELECT conversation_id, seq, client_id, sender_id, sender, text, server_time, sent_here FROM messages
            WHERE conversation_id=? AND sender_id=? AND seq>? AND seq<=? ORDER BY seq
            """, conversationID, userID, after, upTo) {
            StoredMessage(conversationID: $0.uint64(0), seq: $0.uint64(1), clientID: Hex.encode($0.blob(2)), senderID: $0.uint64(3),
                          sender: $0.string(4), text: $0.string(5), serverTime: $0.uint64(6), sentHere: $0.int64(7) != 0)
        }
    }
}

extension LocalStore {
    /// The newest message this user sent in the conversation (0 when none).
    public func lastOwnSeq(in conversationID: UInt64) throws -> UInt64 {
        try db.query("SELECT coalesce(max(seq), 0) FROM messages WHERE conversation_id=? AND sender_id=?",
                     conversationID, userID) { $0.uint64(0) }.first ?? 0
    }
}

extension LocalStore {
    /// Every conversation's shown name and unread count in one query, most recent first: the
    /// prompt asks on every change, so not one query per conversation.
    public func unreadCounts() throws -> [(id: UInt64, name: String, unread: Int)] {
        try db.query("""
            SELECT c.id,
                CASE WHEN c.kind = 1 THEN coalesce((SELECT username FROM members WHERE conversation_id = c.id
                    AND user_id != ?1 ORDER BY username LIMIT 1), c.name) ELSE c.name END,
                (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.sender_id != ?1
                    AND m.seq > coalesce((SELECT read_seq FROM markers WHERE conversation_id = c.id AND user_id = ?1), 0))
            FROM conversations c ORDER BY c.last_activity DESC, c.id DESC
            """, userID) { (id: $0.uint64(0), name: $0.string(1), unread: Int($0.int64(2))) }
    }
}
