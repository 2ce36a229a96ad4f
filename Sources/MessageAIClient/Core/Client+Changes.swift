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
        let before = (try? store.position(in: entry.conversationID)) ?? 0
        defer { acknowledgedAt(ack.seq, in: entry.conversationID, before: before) }
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
        let summary = action == .react || action == .unreact ? ((try? store.reactionSummary(in: c.conversationID, seq: c.targetSeq)) ?? "") : ""
        output.emit(ChangeEvent(change: c, conversation: name, reactions: summary, live: live))
        onChange()
    }

    // MARK: How changed messages read

    /// The quote line and reaction summary of a message line, read from the cache.
    func decorate(_ line: MessageLine) -> MessageLine {
        var line = line
        let m = line.message
        if m.replyTo != 0 {
            line.quote = MessageLine.quote(of: (try? store?.message(in: m.conversationID, seq: m.replyTo)) ?? nil, seq: m.replyTo)
        }
        if let summary = try? store?.reactionSummary(in: m.conversationID, seq: m.seq), !summary.isEmpty { line.reactions = summary }
        return line
    }
}
