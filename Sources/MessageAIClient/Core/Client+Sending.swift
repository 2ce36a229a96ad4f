import Foundation
import MessageAIProtocol

/// Sending: the outbox first (durable), then the server, one message at a time in order.
extension Client {
    static let maxMessageLength = 10_000

    /// Queues `text` for the current conversation. The outbox file is durable before the
    /// message is shown as sending; works offline.
    public func queueMessage(_ text: String) -> Result<OutboxEntry, ClientError> {
        guard let outbox, let session else { return .failure(.notLoggedIn) }
        guard let cid = currentConversation else {
            return .failure(ClientError("no_conversation", "no conversation is open: use /dm USER, /open NAME or /group create"))
        }
        let limit = Int(link.welcome?.maxMessageLength ?? UInt64(Client.maxMessageLength))
        let length = text.unicodeScalars.count
        guard length <= limit else {
            return .failure(ClientError("too_long", "the message has \(length) characters; the limit is \(limit)"))
        }
        let entry = OutboxEntry(clientID: Outbox.newClientID(), conversationID: cid, text: text, created: Output.nowMs())
        do { try outbox.append(entry) } catch {
            return .failure(ClientError("storage", "cannot write the outbox: \(error)"))
        }
        let name = conversationName(cid, fallback: "")
        output.emit(MessageStateEvent.queued(entry, conversation: name, sender: session.username, marked: showsTransitions))
        drainOutbox()
        return .success(entry)
    }

    /// Sends the oldest queued message if the link is synced and nothing is in flight. One at
    /// a time keeps every conversation's messages in order even across rate limiting.
    func drainOutbox() {
        guard synced, authenticated, sendingNow == nil, let outbox, let entry = outbox.entries.first else { return }
        if let until = rateLimitedUntil, until > .now() { return }
        rateLimitedUntil = nil
        sendingNow = entry.clientID
        let send = Send(conversationID: entry.conversationID, clientID: entry.clientIDBytes, text: entry.text)
        link.request(send) { [weak self] result in
            guard let self, self.outbox === outbox else { return true }
            self.sendingNow = nil
            switch result {
            case .failure(let e) where e.code == "connection_lost" || e.code == "offline":
                break // stays queued; resent after the next sync
            case .failure:
                self.retrySoon(after: 1)
            case .success(let f) where f.type == .sendAck:
                if let ack = try? f.decode(SendAck.self) { self.acknowledged(entry, ack) }
                self.drainOutbox()
            case .success(let f):
                let e = (try? f.decode(ErrorFrame.self)).map(ClientError.init) ?? ClientError("bad_request", "unexpected \(f.type)")
                self.sendFailed(entry, e)
            }
            return true
        }
    }

    /// Stored locally first, then removed from the outbox: a crash in between resends, and
    /// the server answers the resend as a duplicate.
    private func acknowledged(_ entry: OutboxEntry, _ ack: SendAck) {
        guard let store, let outbox, let session else { return }
        rateLimitAnnounced = false
        let m = ChatMessage(conversationID: entry.conversationID, seq: ack.seq, clientID: entry.clientIDBytes,
                            senderID: session.userID, senderUsername: session.username, serverTime: ack.serverTime, text: entry.text)
        do {
            try store.insert([m], sentHere: [entry.clientID])
            // A reply accepts a message request (the server's rule): /list stops holding it apart.
            try store.clearRequest(entry.conversationID)
            outbox.removeDeferred(clientID: entry.clientID)
            scheduleOutboxFlush()
        } catch {
            output.error(command: "", ClientError("storage", "cannot record the sent message: \(error)"))
            return
        }
        let stored = StoredMessage(m, sentHere: true)
        reportState(stored, .sent)
        if let state = try? store.state(of: ack.seq, in: entry.conversationID), state != .sent {
            reportState(stored, state)
        }
        onChange()
    }

    private func sendFailed(_ entry: OutboxEntry, _ e: ClientError) {
        switch e.code {
        // server_busy (password work queued) carries a retry hint like the rate limit does.
        case "rate_limited", "throttled", "server_busy":
            let wait = Double(max(e.retryAfterMs, 200)) / 1000
            rateLimitedUntil = .now() + wait
            if !rateLimitAnnounced {
                rateLimitAnnounced = true
                output.emit(Notice.happened("rate limited, retrying in \(Int(wait.rounded(.up))) s", conversation: entry.conversationID))
            }
            retrySoon(after: wait)
        // client_id_reused cannot be cured by resending the same entry: the id names another
        // message on the server, so the entry fails loudly instead of blocking the outbox.
        // not_a_contact: a direct conversation with a block in it; resending cannot help.
        case "too_long", "not_a_member", "not_a_contact", "not_found", "bad_request", "invalid_utf8", "invalid_argument", "client_id_reused":
            try? outbox?.remove(clientID: entry.clientID)
            failedMessages += 1
            output.emit(MessageStateEvent.failed(entry))
            output.error(command: "send", ClientError(e.code, "message not sent (\(e.message)): \(entry.text.prefix(60))"))
            drainOutbox()
        default:
            retrySoon(after: 1)
        }
    }

    /// Coalesces the file rewrites for acknowledged messages: at most one per 100 ms.
    private func scheduleOutboxFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.1) { [weak self] in
            self?.flushScheduled = false
            self?.flushOutbox()
        }
    }

    func flushOutbox() {
        do { try outbox?.flush() } catch {
            output.error(command: "", ClientError("storage", "cannot write the outbox: \(error)"))
        }
    }

    private func retrySoon(after seconds: Double) {
        guard !retryScheduled else { return }
        retryScheduled = true
        DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { [weak self] in
            self?.retryScheduled = false
            self?.drainOutbox()
        }
    }

    /// Called as the user edits the input line: tells the others at most every 3 s that the
    /// user is typing a message (not a command) in the current conversation.
    public func userTyping(_ line: String) {
        guard !line.isEmpty, !line.hasPrefix("/"), authenticated, let cid = currentConversation else { return }
        if let last = lastTypingSent, last + 3 > .now() { return }
        lastTypingSent = .now()
        link.sendNoReply(Typing(conversationID: cid))
    }

    /// /retry: reconnect now if offline, and send queued messages without waiting.
    public func retryNow() {
        rateLimitedUntil = nil
        link.connectNow()
        drainOutbox()
    }
}
