import Foundation
import MessageAIProtocol

/// Sending: the outbox first (durable), then the server, one message at a time in order.
extension Client {
    static let maxMessageLength = 10_000
    /// Piped input is read while the outbox holds fewer messages than this on a live link, so
    /// a fast producer cannot grow it (and this process) without bound. Offline, the outbox
    /// takes everything: queueing durably for later is what offline means.
    static let outboxWindow = 64

    var outboxAccepts: Bool {
        session == nil || link.state == .offline || (outbox?.entries.count ?? 0) < Client.outboxWindow
    }

    /// The longest message in Unicode scalars: the server's (WELCOME), else the spec's default.
    var messageLimit: Int { Int(link.welcome?.maxMessageLength ?? UInt64(Client.maxMessageLength)) }

    /// Queues `text` for the current conversation. The outbox file is durable before the
    /// message is shown as sending; works offline.
    public func queueMessage(_ text: String, replyTo: UInt64? = nil) -> Result<OutboxEntry, ClientError> {
        guard let outbox, let session else { return .failure(.notLoggedIn) }
        guard let cid = currentConversation else {
            return .failure(ClientError("no_conversation", "no conversation is open: use /dm USER, /open NAME or /group create"))
        }
        let limit = messageLimit
        let length = text.unicodeScalars.count
        guard length <= limit else {
            return .failure(ClientError("too_long", "the message has \(length) characters; the limit is \(limit)"))
        }
        let entry = OutboxEntry(clientID: Outbox.newClientID(), conversationID: cid, text: text, created: Output.nowMs(), replyTo: replyTo)
        do { try outbox.append(entry) } catch {
            return .failure(ClientError("storage", "cannot write the outbox: \(error)"))
        }
        let name = conversationName(cid, fallback: "")
        let queued = MessageStateEvent.queued(entry, conversation: name, sender: session.username, marked: showsTransitions)
        if holdsOwnLines {
            holdOwnLine(entry.clientID) { [weak self] in self?.output.emit(queued) }
        } else {
            output.emit(queued)
        }
        drainOutbox()
        return .success(entry)
    }

    /// "alice: text", or "* alice waves" for an action: one's own message as typed.
    static func ownLine(_ me: String, _ text: String) -> String {
        Action.of(text).map { "* \(me) \($0)" } ?? "\(me): \(text)"
    }

    /// Sends the oldest queued message if the link is synced and nothing is in flight. One at
    /// a time keeps every conversation's messages in order even across rate limiting.
    /// A file's upload runs beside the queue (one at a time, `startNextUpload`), and its SEND
    /// joins the queue once the upload is complete: text typed during a 50 MiB upload goes out
    /// at once, as in Signal or Slack, and waits behind one chunk on the wire at most.
    func drainOutbox() {
        guard synced, authenticated, let outbox else { return }
        startNextUpload()
        guard sendingNow == nil, let entry = outbox.entries.first(where: { $0.file == nil || $0.file?.uploaded == true }) else { return }
        if let until = rateLimitedUntil, until > .now() { return }
        rateLimitedUntil = nil
        if let w = link.welcome { pacer.configure(limit: w.sendLimit, windowMs: w.sendWindow, now: Output.nowMs()) }
        if let wait = pacer.take(now: Output.nowMs()) {
            let seconds = Double(wait) / 1000
            pacedUntil = .now() + seconds
            if !paceAnnounced {
                // Once per burst: why messages wait, without a line per message.
                paceAnnounced = true
                output.emit(Notice.happened("sending at the server's rate limit (\(SendPacer.describe(pacer))); \(outbox.entries.count) queued",
                                            conversation: entry.conversationID))
            }
            retrySoon(after: seconds)
            return
        }
        pacedUntil = nil
        sendingNow = entry.clientID
        if let action = entry.changeAction {
            transmit(entry, ChangeRequest(conversationID: entry.conversationID, clientID: entry.clientIDBytes, targetSeq: entry.target ?? 0,
                                          action: action, emoji: entry.emoji ?? "", text: entry.text))
            return
        }
        let attachment = entry.file.map { Attachment(fileID: Hex.decode($0.fileID ?? "") ?? []) }
        transmit(entry, Send(conversationID: entry.conversationID, clientID: entry.clientIDBytes, text: entry.text,
                             replyTo: entry.replyTo ?? 0, attachment: attachment))
    }

    /// Uploads the oldest queued file not uploaded yet (resuming where the server stands).
    private func startNextUpload() {
        guard uploadingNow == nil, let outbox, let entry = outbox.entries.first(where: { $0.file != nil && $0.file?.uploaded != true }) else { return }
        uploadingNow = entry.clientID
        uploadFile(entry) { [weak self] result in
            // A callback of an upload the link already gave up on must not end a newer one.
            guard let self, self.outbox === outbox, self.uploadingNow == entry.clientID else { return }
            self.uploadingNow = nil
            // The entry as it is now (the upload recorded its file id in it).
            let current = outbox.entries.first { $0.clientID == entry.clientID } ?? entry
            switch result {
            case .success(let fileID):
                var done = current
                done.file?.fileID = Hex.encode(fileID)
                done.file?.uploaded = true
                try? outbox.update(done)
                if let file = done.file { self.output.emit(FileEvent.uploaded(done, file, fileID: fileID)) }
                self.drainOutbox()
            case .failure(let e) where e.code == "not_found":
                // The partial upload expired on the server: announce it afresh.
                var again = current
                again.file?.fileID = nil
                try? outbox.update(again)
                self.retrySoon(after: 0.5)
            case .failure(let e) where e.code == "connection_lost" || e.code == "offline" || e.code == "timeout":
                break // stays queued; resumed after the next sync
            case .failure(let e):
                self.sendFailed(current, e)
            }
        }
    }

    private func transmit(_ entry: OutboxEntry, _ send: any WireMessage) {
        guard let outbox else { return }
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
        if entry.changeAction != nil { return changeAcknowledged(entry, ack) }
        rateLimitAnnounced = false
        databaseBackoff = 0
        databaseAnnounced = false
        if outbox.entries.count <= 1 { paceAnnounced = false }
        // The sending connection gets no MESSAGE: its own attachment is recorded from the entry.
        let attachment = entry.file.map {
            Attachment(fileID: Hex.decode($0.fileID ?? "") ?? [], name: $0.name, size: $0.size, mediaType: $0.mediaType,
                       sha256: Hex.decode($0.sha256) ?? [], caption: entry.text)
        }
        let m = ChatMessage(conversationID: entry.conversationID, seq: ack.seq, clientID: entry.clientIDBytes,
                            senderID: session.userID, senderUsername: session.username, serverTime: ack.serverTime,
                            text: attachment?.fallbackText ?? entry.text, replyTo: entry.replyTo ?? 0, attachment: attachment)
        let before = (try? store.position(in: entry.conversationID)) ?? 0
        do {
            try store.insert([m], sentHere: [entry.clientID])
            // A reply accepts a message request (the server's rule): /list stops holding it apart.
            try store.clearRequest(entry.conversationID)
            outbox.removeDeferred(clientID: entry.clientID)
            scheduleOutboxFlush()
            if let file = entry.file { try? FileManager.default.removeItem(atPath: file.copy) }
        } catch {
            output.error(command: "", ClientError("storage", "cannot record the sent message: \(error)"))
            return
        }
        let stored = StoredMessage(m, sentHere: true)
        printHeldOwnLine(stored)
        reportState(stored, .sent)
        if let state = try? store.state(of: ack.seq, in: entry.conversationID), state != .sent {
            reportState(stored, state)
        }
        considerCallHint(entry.conversationID)
        acknowledgedAt(ack.seq, in: entry.conversationID, before: before)
        onChange()
    }

    func sendFailed(_ entry: OutboxEntry, _ e: ClientError) {
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
        // The server could not reach its database: nothing was stored (the SEND was not
        // acknowledged), so the entry stays queued and the whole outbox waits, keeping its
        // order, with a backoff of 1, 2, 4 ... 30 s (at least the server's hint).
        case "database_unavailable":
            databaseBackoff = min(max(databaseBackoff * 2, 1), 30)
            let wait = max(databaseBackoff, Double(e.retryAfterMs) / 1000)
            rateLimitedUntil = .now() + wait
            if !databaseAnnounced {
                databaseAnnounced = true
                output.emit(Notice.happened("server: database unavailable, will retry", conversation: entry.conversationID))
            }
            retrySoon(after: wait)
        // client_id_reused cannot be cured by resending the same entry: the id names another
        // message on the server, so the entry fails loudly instead of blocking the outbox.
        // not_a_contact: a direct conversation with a block in it; resending cannot help.
        // The message changes' refusals (codes 50-54) are final too: the user is told.
        case "too_long", "not_a_member", "not_a_contact", "not_found", "bad_request", "invalid_utf8", "invalid_argument", "client_id_reused",
             "not_sender", "edit_window_closed", "invalid_reaction", "message_deleted", "no_such_message",
             "file_too_large", "hash_mismatch", "quota_exceeded", "image_too_large", "upload_incomplete", "unknown_frame_type", "storage":
            try? outbox?.remove(clientID: entry.clientID)
            if let file = entry.file { try? FileManager.default.removeItem(atPath: file.copy) }
            heldOwnLines.removeValue(forKey: entry.clientID)?()
            failedMessages += 1
            output.emit(MessageStateEvent.failed(entry))
            if let action = entry.changeAction {
                output.error(command: action.name, ClientError(e.code, "\(action.name) of #\(entry.target ?? 0) not done: \(e.message)"))
            } else {
                let what = entry.file.map { "file \(FileNames.safe($0.name))" } ?? String(entry.text.prefix(60))
                output.error(command: "send", ClientError(e.code, "message not sent (\(e.message)): \(what)"))
            }
            checkWaiters()
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

    func retrySoon(after seconds: Double) {
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

    /// While the outbox waits for the server's pace (its announced limit, or a rate_limited
    /// answer), when the next send is due: a script's drain wait is not idle before then.
    var sendsDueAt: DispatchTime? {
        [pacedUntil, rateLimitedUntil].compactMap { $0 }.filter { $0 > .now() }.max()
    }

    /// /retry: reconnect now if offline, and send queued messages without waiting.
    public func retryNow() {
        rateLimitedUntil = nil
        link.connectNow()
        drainOutbox()
    }
}
