import MessageAISQLite
import MessageAIProtocol

// Reactions, edits and deletes: stored as changes in the conversation's sequence and applied
// to the message in the same transaction.
extension SQLiteStore {
    static let changeColumns = """
        c.conversation_id, c.seq, c.client_id, c.actor_id, u.username, c.server_time, c.target_seq, c.action, c.emoji,
        CASE WHEN c.action = 3 THEN coalesce(m.text, '') ELSE '' END
        """
    /// Changes are read joined with their actor (`u`) and target message (`m`, for an edit's text now).
    static let changeJoins = """
        FROM message_changes c JOIN users u ON u.id = c.actor_id
        LEFT JOIN messages m ON m.conversation_id = c.conversation_id AND m.seq = c.target_seq
        """

    static func changeRecord(_ s: Statement) -> ChangeRecord {
        ChangeRecord(conversationID: s.uint64(0), seq: s.uint64(1), clientID: s.blob(2), actorID: s.uint64(3),
                     actorUsername: s.string(4), serverTime: s.uint64(5), targetSeq: s.uint64(6),
                     action: (ChangeAction(rawValue: s.uint64(7)) ?? .react).rawValue, emoji: s.string(8), text: s.string(9))
    }

    public func change(actorID: UInt64, clientID: [UInt8]) throws -> ChangeRecord? {
        try db.queryOne("SELECT \(Self.changeColumns) \(Self.changeJoins) WHERE c.actor_id = ? AND c.client_id = ?",
                        actorID, clientID) { Self.changeRecord($0) }
    }

    public func changes(conversationID: UInt64, afterSeq: UInt64, limit: Int) throws -> [ChangeRecord] {
        try db.query("""
            SELECT \(Self.changeColumns) \(Self.changeJoins)
            WHERE c.conversation_id = ? AND c.seq > ? ORDER BY c.seq LIMIT ?
            """, conversationID, afterSeq, Self.clamp(limit, max: 10_000)) { Self.changeRecord($0) }
    }

    public func apply(_ change: NewChange) throws -> ChangeOutcome {
        if change.action == .edit || change.action == .delete {
            // The index must hold the message before its old text can be taken out of it.
            try indexPendingMessages()
        }
        let outcome: ChangeOutcome
        do {
            outcome = try applyInTransaction(change)
        } catch is ClientIDClash {
            return .clientIDReused
        }
        if case .stored = outcome, change.action == .delete { scrubPending = true }
        return outcome
    }

    private func applyInTransaction(_ change: NewChange) throws -> ChangeOutcome {
        try db.transaction {
            // The client id first (SchemaV12). The actor's earlier change with this id was
            // answered before the store was asked, so a clash is one of their messages.
            guard try claimClientID(change.actorID, change.clientID) else { throw ClientIDClash() }
            guard try applyToMessage(change) else {
                // Nothing stored, so the id stays free, as before: a resend is answered alike.
                try db.run("DELETE FROM client_ids WHERE user_id = ? AND client_id = ?", change.actorID, change.clientID)
                return .unchanged
            }
            guard let seq = try db.queryOne("UPDATE conversations SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq",
                                            change.conversationID, row: { $0.uint64(0) }) else { throw StoreError.notFound }
            try db.run("""
                INSERT INTO message_changes (conversation_id, seq, actor_id, client_id, target_seq, action, emoji, server_time)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, change.conversationID, seq, change.actorID, change.clientID, change.targetSeq,
                change.action.rawValue, change.emoji, change.serverTime)
            if change.action == .react {
                try db.run("UPDATE reactions SET change_seq = ? WHERE conversation_id = ? AND seq = ? AND user_id = ? AND emoji = ?",
                           seq, change.conversationID, change.targetSeq, change.actorID, change.emoji)
            }
            let username = try db.queryOne("SELECT username FROM users WHERE id = ?", change.actorID) { $0.string(0) } ?? ""
            return .stored(ChangeRecord(conversationID: change.conversationID, seq: seq, clientID: change.clientID,
                                        actorID: change.actorID, actorUsername: username, serverTime: change.serverTime,
                                        targetSeq: change.targetSeq, action: change.action.rawValue, emoji: change.emoji,
                                        text: change.action == .edit ? change.text : ""))
        }
    }

    /// The message side of a change; false when it changes nothing.
    private func applyToMessage(_ change: NewChange) throws -> Bool {
        let (cid, target) = (change.conversationID, change.targetSeq)
        switch change.action {
        case .react:
            return try db.run("INSERT OR IGNORE INTO reactions (conversation_id, seq, user_id, emoji, change_seq) VALUES (?, ?, ?, ?, 0)",
                              cid, target, change.actorID, change.emoji) > 0
        case .unreact:
            return try db.run("DELETE FROM reactions WHERE conversation_id = ? AND seq = ? AND user_id = ? AND emoji = ?",
                              cid, target, change.actorID, change.emoji) > 0
        case .edit:
            try replaceIndexedText(cid, target, with: change.text)
            try db.run("UPDATE messages SET text = ?, edited_at = ? WHERE conversation_id = ? AND seq = ?",
                       change.text, change.serverTime, cid, target)
            // A summary over the old text is not served again (the items are re-extracted after).
            try db.run("DELETE FROM assistant_summaries WHERE conversation_id = ? AND from_seq <= ? AND to_seq >= ?", cid, target, target)
            return true
        case .delete:
            try replaceIndexedText(cid, target, with: nil)
            // Its attachment goes too: the message no longer grants its members the file, and
            // the file row goes with it when nothing else refers to it, so its bytes leave the
            // owner's quota (the blob itself: ChatServer.collectBlobs, off the hub).
            let fileID = try db.queryOne("SELECT file_id FROM messages WHERE conversation_id = ? AND seq = ? AND file_id IS NOT NULL",
                                         cid, target) { $0.blob(0) }
            try db.run("UPDATE messages SET text = '', deleted = 1, file_id = NULL, attachment = NULL WHERE conversation_id = ? AND seq = ?",
                       cid, target)
            if let fileID { try releaseFile(id: fileID) }
            try db.run("DELETE FROM reactions WHERE conversation_id = ? AND seq = ?", cid, target)
            try deleteAssistantItems(cid, target)
            // Owed in the delete's own transaction, so a crash before the scrub ends still owes it.
            try db.run("INSERT OR IGNORE INTO pending_scrub (id) VALUES (1)")
            return true
        }
    }

    /// Takes the message's current text out of the contentless index (which needs the exact
    /// old values) and indexes the new text, if any.
    private func replaceIndexedText(_ cid: UInt64, _ seq: UInt64, with text: String?) throws {
        guard let (id, old) = try db.queryOne("SELECT id, text FROM messages WHERE conversation_id = ? AND seq = ?", cid, seq,
                                              row: { ($0.uint64(0), $0.string(1)) }) else { throw StoreError.notFound }
        if id <= indexedThrough {
            try db.run("INSERT INTO messages_fts (messages_fts, rowid, text, conv) VALUES ('delete', ?, search_words(?), ?)", id, old, "c\(cid)")
            if let text {
                try db.run("INSERT INTO messages_fts (rowid, text, conv) VALUES (?, search_words(?), ?)", id, text, "c\(cid)")
            }
        }
    }

    /// Assistant items (action items, decisions) quoting a deleted message go with it: each is
    /// withdrawn (its text, owner and due emptied, its rev raised, so every device learns it by
    /// push or ASSIST_SYNC and drops it), and cached summaries over the message are dropped.
    private func deleteAssistantItems(_ cid: UInt64, _ seq: UInt64) throws {
        let ids = try db.query("SELECT id FROM assistant_items WHERE conversation_id = ? AND seq = ? AND text <> '' ORDER BY id",
                               cid, seq) { $0.uint64(0) }
        var rev = try assistantCursor()
        for id in ids {
            rev += 1
            try db.run("UPDATE assistant_items SET text = '', who = '', due = '', rev = ? WHERE id = ?", rev, id)
        }
        try db.run("DELETE FROM assistant_summaries WHERE conversation_id = ? AND from_seq <= ? AND to_seq >= ?", cid, seq, seq)
    }

    public func withReactions(_ messages: [StoredMessage]) throws -> [StoredMessage] {
        guard !messages.isEmpty else { return messages }
        var byConversation: [UInt64: (low: UInt64, high: UInt64)] = [:]
        for m in messages {
            let r = byConversation[m.conversationID] ?? (m.seq, m.seq)
            byConversation[m.conversationID] = (min(r.low, m.seq), max(r.high, m.seq))
        }
        var found: [UInt64: [UInt64: [ReactionRecord]]] = [:]
        for (cid, range) in byConversation {
            _ = try db.query("""
                SELECT r.seq, r.emoji, r.user_id, u.username FROM reactions r JOIN users u ON u.id = r.user_id
                WHERE r.conversation_id = ? AND r.seq BETWEEN ? AND ? ORDER BY r.change_seq
                """, cid, range.low, range.high) { s in
                found[cid, default: [:]][s.uint64(0), default: []].append(ReactionRecord(emoji: s.string(1), userID: s.uint64(2), username: s.string(3)))
            }
        }
        guard !found.isEmpty else { return messages }
        return messages.map { m in
            var m = m
            m.reactions = found[m.conversationID]?[m.seq] ?? []
            return m
        }
    }
}

/// A change's client id was the actor's message's: the change's transaction rolls back.
private struct ClientIDClash: Error {}
