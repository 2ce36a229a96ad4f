import MessageAISQLite
import MessageAIProtocol

// Appending (group commit), history and markers.
extension SQLiteStore {
    /// Per message: the conversation's last seq read, one INSERT with the next, and one UPDATE
    /// of the conversation row. No `RETURNING`: in SQLite 3.40 it buffers its rows in an
    /// ephemeral table, a B-tree opened and closed per statement, and Debian's build has no
    /// lookaside allocator, so that cost ~40 mallocs per message (BENCHMARKS.md, issue 13);
    /// the read is one seek in a page the INSERT needs anyway. A client id used before is
    /// caught by the (sender_id, client_id) key, so only a resend (rare) pays for looking up
    /// the original, and a sender the caller named costs no username query.
    public func append(_ batch: [NewMessage]) throws -> [AppendOutcome] {
        guard !batch.isEmpty else { return [] }
        var usernames: [UInt64: String] = [:]
        return try db.transaction {
            try batch.map { (new: NewMessage) -> AppendOutcome in
                // The thumbnail stays in `files`: pages of messages stay small.
                var stored = new.attachment
                stored?.thumbnail = []
                guard let last = try db.queryOne("SELECT last_seq FROM conversations WHERE id = ?", new.conversationID,
                                                 row: { $0.uint64(0) }) else {
                    throw StoreError.notFound
                }
                let seq = last + 1
                // The client id first, before the message takes its seq (SchemaV12).
                if try !claimClientID(new.senderID, new.clientID) {
                    // A resend earlier in this same batch is already visible here, so it comes
                    // back as a duplicate too. The statement's failure undid only itself.
                    guard let original = try message(senderID: new.senderID, clientID: new.clientID) else {
                        return .clientIDReused(nil) // the id of one of the sender's changes
                    }
                    // An edited or deleted original no longer has the text that was sent.
                    let sameText = original.text == new.text || original.editedAt != 0 || original.deleted
                    let resend = original.conversationID == new.conversationID && sameText
                    return resend ? .duplicate(original) : .clientIDReused(original)
                }
                do {
                    try db.run("""
                        INSERT INTO messages (conversation_id, seq, sender_id, client_id, kind, text, server_time, reply_to, file_id, attachment)
                        VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
                        """, new.conversationID, seq, new.senderID, new.clientID, new.text, new.serverTime, new.replyTo,
                        stored?.fileID, stored.map { Attachment($0).bytes })
                } catch let error where Self.isMissingReference(error) {
                    throw StoreError.notFound
                }
                try db.run("UPDATE conversations SET last_seq = ?, last_activity = max(last_activity, ?) WHERE id = ?",
                           seq, new.serverTime, new.conversationID)
                if let name = new.senderUsername {
                    usernames[new.senderID] = name
                } else if usernames[new.senderID] == nil {
                    usernames[new.senderID] = try db.queryOne("SELECT username FROM users WHERE id = ?", new.senderID) { $0.string(0) }
                }
                return .stored(StoredMessage(conversationID: new.conversationID, seq: seq, clientID: new.clientID,
                                             senderID: new.senderID, senderUsername: usernames[new.senderID] ?? "",
                                             serverTime: new.serverTime, text: new.text, replyTo: new.replyTo,
                                             attachment: new.attachment))
            }
        }
    }

    /// Records that `userID` used `clientID` (a message or a change); false when the user used
    /// it before, for either (the table's primary key decides, also between two writers).
    func claimClientID(_ userID: UInt64, _ clientID: [UInt8]) throws -> Bool {
        do {
            try db.run("INSERT INTO client_ids (user_id, client_id) VALUES (?, ?)", userID, clientID)
            return true
        } catch StoreError.conflict {
            return false
        } catch let error where Self.isMissingReference(error) {
            throw StoreError.notFound
        }
    }

    public func messages(conversationID: UInt64, afterSeq: UInt64, limit: Int) throws -> [StoredMessage] {
        try db.query("""
            SELECT \(Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
            WHERE m.conversation_id = ? AND m.seq > ? ORDER BY m.seq LIMIT ?
            """, conversationID, afterSeq, Self.clamp(limit, max: 10_000)) { Self.storedMessage($0) }
    }

    public func messages(conversationID: UInt64, beforeSeq: UInt64, limit: Int) throws -> [StoredMessage] {
        let before = beforeSeq == 0 ? UInt64(Int64.max) : beforeSeq
        return try db.query("""
            SELECT \(Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
            WHERE m.conversation_id = ? AND m.seq < ? ORDER BY m.seq DESC LIMIT ?
            """, conversationID, before, Self.clamp(limit, max: 10_000)) { Self.storedMessage($0) }.reversed()
    }

    /// One message by its place in the conversation.
    public func message(conversationID: UInt64, seq: UInt64) throws -> StoredMessage? {
        try db.queryOne("""
            SELECT \(Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
            WHERE m.conversation_id = ? AND m.seq = ?
            """, conversationID, seq) { Self.storedMessage($0) }
    }

    /// The message a sender stored under this client id, if any.
    public func message(senderID: UInt64, clientID: [UInt8]) throws -> StoredMessage? {
        try db.queryOne("""
            SELECT \(Self.messageColumns) FROM messages m JOIN users u ON u.id = m.sender_id
            WHERE m.sender_id = ? AND m.client_id = ?
            """, senderID, clientID) { Self.storedMessage($0) }
    }

    // MARK: Markers

    public func raiseMarkers(conversationID: UInt64, userID: UInt64, delivered: UInt64, read: UInt64) throws -> (delivered: UInt64, read: UInt64, changed: Bool) {
        try db.transaction {
            guard let (oldDelivered, oldRead, lastSeq) = try db.queryOne("""
                SELECT mb.delivered_seq, mb.read_seq, c.last_seq
                FROM members mb JOIN conversations c ON c.id = mb.conversation_id
                WHERE mb.conversation_id = ? AND mb.user_id = ?
                """, conversationID, userID, row: { ($0.uint64(0), $0.uint64(1), $0.uint64(2)) }) else {
                throw StoreError.notFound
            }
            // A client cannot claim more than exists; existing markers are never lowered.
            let newRead = max(oldRead, min(read, lastSeq))
            let newDelivered = max(oldDelivered, min(delivered, lastSeq), newRead)
            let changed = newRead != oldRead || newDelivered != oldDelivered
            if changed {
                try db.run("UPDATE members SET delivered_seq = ?, read_seq = ? WHERE conversation_id = ? AND user_id = ?",
                           newDelivered, newRead, conversationID, userID)
            }
            return (newDelivered, newRead, changed)
        }
    }

    /// Ordered by username.
    public func markers(conversationID: UInt64) throws -> [MemberMarker] {
        try db.query("""
            SELECT \(Self.userInfoColumns), mb.delivered_seq, mb.read_seq, mb.pending FROM members mb JOIN users u ON u.id = mb.user_id
            WHERE mb.conversation_id = ? ORDER BY u.username_lower
            """, conversationID) {
            MemberMarker(user: Self.memberRecord($0), deliveredSeq: $0.uint64(3), readSeq: $0.uint64(4), pending: $0.uint64(5) != 0)
        }
    }
}
