import Foundation
import MessageAIProtocol

/// Replies, reactions, edits and deletes: queued in the outbox like messages (durable first,
/// sent once on reconnect), applied to the cache when acknowledged or pushed.
extension Client {
    /// Queues a change to message `target` of the current conversation.
    public func queueChange(_ action: ChangeAction, target: UInt64, text: String = "", emoji: String? = nil) -> Result<OutboxEntry, ClientError> {
        guard let outbox else { return .failure(.notLoggedIn) }
        guard let cid = currentConversation else {
            return .failure(ClientError("no_conversation", "no conversation is open: use /dm USER or /open NAME"))
        }
        let entry = OutboxEntry(clientID: Outbox.newClientID(), conversationID: cid, change: action, target: target, text: text,
                                emoji: emoji, created: Output.nowMs())
        do { try outbox.append(entry) } catch {
            return .failure(ClientError("storage", "cannot write the outbox: \(error)"))
        }
        drainOutbox()
        return .success(entry)
    }

    /// The server stored this user's change: applied here as the others will see it.
    func changeAcknowledged(_ entry: OutboxEntry, _ ack: SendAck) {
        guard let store, let outbox, let session, let action = entry.changeAction else { return }
        outbox.removeDeferred(clientID: entry.clientID)
        flushOutbox()
        guard ack.seq > 0 else { return } // changed nothing (a reaction already there)
        var text = entry.text
        if action == .edit, let m = try? store.message(in: entry.conversationID, seq: entry.target ?? 0), m.deleted { text = "" }
        handleChange(MessageChange(conversationID: entry.conversationID, seq: ack.seq, clientID: entry.clientIDBytes,
                                   actorID: session.userID, actorUsername: session.username, serverTime: ack.serverTime,
                                   targetSeq: entry.target ?? 0, action: action, emoji: entry.emoji ?? "", text: text))
    }

    /// A change from the server (push or sync) or acknowledged here: applied once, then one
    /// event. Live changes print a line; ones a sync caught up on only reach --json.
    func handleChange(_ c: MessageChange, live: Bool = true) {
        guard let store, let action = c.changeAction, (try? store.apply(c)) == true else { return }
        let name = conversationName(c.conversationID, fallback: c.actorUsername)
        var fields: [String: Any] = ["conversation_id": c.conversationID, "conversation": name, "seq": c.seq,
                                     "target_seq": c.targetSeq, "action": action.name, "user": c.actorUsername,
                                     "server_time": c.serverTime]
        let line: String
        switch action {
        case .react, .unreact:
            fields["emoji"] = c.emoji
            let summary = (try? store.reactionSummary(in: c.conversationID, seq: c.targetSeq)) ?? ""
            fields["reactions"] = summary
            line = "[\(name)] \(c.actorUsername) \(action == .react ? "reacted \(c.emoji) to" : "removed \(c.emoji) from") #\(c.targetSeq)"
                + (summary.isEmpty ? "" : "  \(summary)")
        case .edit:
            fields["text"] = c.text
            line = "[\(name)] \(c.actorUsername) edited #\(c.targetSeq): \(c.text) (edited)"
        case .delete:
            line = "[\(name)] #\(c.targetSeq) from \(c.actorUsername): message deleted"
        }
        output.emit("change", fields, plain: live ? line : nil)
        onChange()
    }

    // MARK: How changed messages read

    /// The text as readers see it: "message deleted", or the text with "(edited)".
    func shownText(_ m: StoredMessage) -> String {
        if m.deleted { return "message deleted" }
        return m.editedAt != 0 ? m.text + " (edited)" : m.text
    }

    /// "  ↪ alice: the deploy moved to…" above a reply ("deleted message" once it is deleted).
    func quoteLine(_ m: StoredMessage) -> String? {
        guard m.replyTo != 0 else { return nil }
        guard let original = try? store?.message(in: m.conversationID, seq: m.replyTo) else { return "  ↪ #\(m.replyTo)" }
        if original.deleted { return "  ↪ \(original.sender): deleted message" }
        let flat = original.text.replacingOccurrences(of: "\n", with: " ")
        return "  ↪ \(original.sender): " + (flat.count > 40 ? String(flat.prefix(40)) + "…" : flat)
    }

    /// "  👍 3  🎉 1" under a message with reactions.
    func reactionLine(_ m: StoredMessage) -> String? {
        guard let summary = try? store?.reactionSummary(in: m.conversationID, seq: m.seq), !summary.isEmpty else { return nil }
        return "  " + summary
    }

    /// The JSON fields of a message's changes.
    func changeFields(_ m: StoredMessage, into fields: inout [String: Any]) {
        if m.replyTo != 0 { fields["reply_to"] = m.replyTo }
        if m.editedAt != 0 { fields["edited_at"] = m.editedAt }
        if m.deleted { fields["deleted"] = true }
        if let summary = try? store?.reactionSummary(in: m.conversationID, seq: m.seq), !summary.isEmpty { fields["reactions"] = summary }
    }
}
