import MessageAIProtocol

/// A validated SEND waiting for the next group commit.
struct PendingSend {
    let peer: Peer
    let requestID: UInt32
    let message: NewMessage
    /// When the handler took it (monotonic ns), for the ack latency histogram.
    let receivedAt: UInt64
}

/// SEND, MARK and READERS.
///
/// Group commit: a SEND is checked at once (membership, length, rate) and queued; the first one
/// schedules a commit at the end of the hub's current work. Every SEND that arrives before that
/// block runs — including those whose read events queued up while the previous commit was
/// writing — goes into the same `store.append` transaction. Acks and pushes go out only after
/// it returns, so nothing is acknowledged before it is durable.
extension ChatServer {
    static let messagingRoutes: [(FrameType, Route)] = [
        Route.on(Send.self) { s, c, m in try s.send(c, m) },
        Route.on(Mark.self) { s, c, m in try s.mark(c, m) },
        Route.on(ReadersRequest.self) { s, c, m in try s.readers(c, m) },
    ]

    /// Typing indicators last this long unless renewed (announced in TYPING_EVENT).
    static let typingTTLMillis: UInt64 = 5_000

    func send(_ ctx: RequestContext, _ s: Send) throws {
        let user = ctx.user
        // With an attachment the text is its caption, which may be empty.
        if s.attachment == nil || !s.text.isEmpty { try checkText(s.text) }
        let membership = try requireMember(s.conversationID, user.id)
        try requireNotBlocked(membership, user)
        // Replying accepts a message request (written once per conversation).
        if membership.pending { try sqlite.acceptRequest(conversationID: s.conversationID, userID: user.id) }
        // With an attachment the stored text is the fallback line (name, size, caption).
        let attachment = try s.attachment.map { try sentAttachment($0, caption: s.text, ctx) }
        let storedText = attachment?.fallbackText ?? s.text
        if let wait = rateLimiter.take(user: user.id, now: Clock.uptimeMillis()) {
            // A resend of a stored message is not new traffic: it still gets its duplicate ack
            // (a client resending its outbox after a reconnect learns at once what is stored).
            // Looked up only here, on the refusal path, so sending costs no extra query.
            let original = try sqlite.message(senderID: user.id, clientID: s.clientID)
            guard let original, original.conversationID == s.conversationID,
                  original.text == storedText || original.editedAt != 0 || original.deleted else {
                metrics.rateLimited.increment()
                throw ServerError.rateLimited(.sending(retryAfter: wait))
            }
        }
        // A reply names a message that is there (checked only for replies: no cost otherwise).
        // A resend of a stored reply is caught by the append's duplicate check first.
        if s.replyTo != 0, try sqlite.message(senderID: user.id, clientID: s.clientID) == nil {
            _ = try changeableMessage(s.conversationID, s.replyTo, field: "reply_to_seq")
        }
        let message = NewMessage(conversationID: s.conversationID, senderID: user.id, clientID: s.clientID,
                                 text: storedText, serverTime: Clock.nowMillis(), senderUsername: user.username, replyTo: s.replyTo,
                                 attachment: attachment)
        pendingSends.append(PendingSend(peer: ctx.peer, requestID: ctx.requestID, message: message, receivedAt: ServerMetrics.now))
        if !commitScheduled {
            commitScheduled = true
            // Acks and pushes of the whole batch are written together at the end.
            queue.async { [self] in output.turn { commitPendingSends() } }
        }
    }

    func commitPendingSends() {
        commitScheduled = false
        let batch = pendingSends
        pendingSends = []
        guard !batch.isEmpty else { return }
        let outcomes: [AppendOutcome]
        do {
            let started = ServerMetrics.now
            outcomes = try sqlite.append(batch.map(\.message))
            metrics.commitLatency.recordNanoseconds(Int64(clamping: ServerMetrics.now &- started))
        } catch StoreError.diskFull {
            // Nothing was stored; every sender is told and its client retries later.
            log(StoreError.diskFull, context: "append")
            for p in batch { p.peer.fail(p.requestID, .storageFull) }
            return
        } catch {
            guard batch.count > 1 else {
                if let e = error as? StoreError { log(e, context: "append") }
                logger.error("append failed: \(error)")
                batch[0].peer.fail(batch[0].requestID, ServerError(error))
                return
            }
            // One bad message must not fail the others: commit them one by one.
            for p in batch {
                pendingSends = [p]
                commitPendingSends()
            }
            return
        }
        commitStats.transactions += 1
        commitStats.messages += batch.count
        scheduleIndexing(after: batch.count)
        logger.trace("committed \(batch.count) message(s) in one transaction")
        var committed: [ChatMessage] = []
        defer { extractAfterCommit(committed) }
        for (pending, outcome) in zip(batch, outcomes) {
            let (m, isNew): (ChatMessage, Bool)
            switch outcome {
            case .stored(let stored): (m, isNew) = (ChatMessage(stored), true)
            case .duplicate(let original): (m, isNew) = (ChatMessage(original), false)
            case .clientIDReused(let original):
                pending.peer.fail(pending.requestID, .clientIDReused(original == nil ? .sendAfterChange : .sendAfterMessage))
                continue
            }
            pending.peer.reply(pending.requestID, SendAck(conversationID: m.conversationID, clientID: m.clientID,
                                                          seq: m.seq, serverTime: m.serverTime, duplicate: !isNew))
            metrics.recordAck(since: pending.receivedAt)
            // A resend was pushed when it was first stored.
            guard isNew else { continue }
            metrics.messagesAccepted.increment()
            if assistant != nil { committed.append(m) }
            // Encoded once; each recipient's output copies the bytes.
            let frame = m.frame(requestID: 0).encoded()
            // Every connection of every member, the sender's other sessions included;
            // the sending connection has its SEND_ACK.
            let pushed = delivery.deliver(m, frame: frame, except: pending.peer)
            if pushed > 0 { metrics.deliveries.increment(by: Int64(pushed)) }
        }
    }

    /// Messages indexed per batch: FTS5 writes a segment per transaction, so one-message
    /// transactions cost the most; 256 keeps the pending set (and a search's catch-up) small.
    static let indexBatch = 256

    /// Indexing runs as its own block on the hub queue, after this commit's acks were written.
    private func scheduleIndexing(after committed: Int) {
        unindexedMessages += committed
        guard unindexedMessages >= Self.indexBatch, !indexScheduled else { return }
        indexScheduled = true
        queue.async { [self] in indexMessages() }
    }

    func indexMessages() {
        indexScheduled = false
        unindexedMessages = 0
        // On failure (disk full) the messages stay stored and unindexed; the next batch or
        // search retries.
        do { try sqlite.runDeferred(.catchUpSearch) } catch { logger.error("indexing messages failed: \(error)") }
    }

    func mark(_ ctx: RequestContext, _ m: Mark) throws {
        let user = ctx.user
        let membership = try requireMember(m.conversationID, user.id)
        let result = try sqlite.raiseMarkers(conversationID: m.conversationID, userID: user.id,
                                            delivered: max(m.deliveredSeq, m.readSeq), read: m.readSeq)
        guard result.changed else {
            ctx.reply(OK())
            return
        }
        let members = try sqlite.memberIDs(conversationID: m.conversationID)
        ctx.reply(OK())
        let receipt = Receipt(conversationID: m.conversationID, userID: user.id, username: user.username,
                              deliveredSeq: result.delivered, readSeq: result.read).frame(requestID: 0)
        // A message request's holder reads without telling the sender: the others get the
        // delivered marker only; the holder's own sessions get both.
        let shared = membership.pending ? Receipt(conversationID: m.conversationID, userID: user.id, username: user.username,
                                       deliveredSeq: result.delivered, readSeq: 0).frame(requestID: 0) : receipt
        delivery.send(receipt, to: [user.id], except: ctx.peer)
        delivery.send(shared, to: members.filter { $0 != user.id }, except: ctx.peer)
    }

    func readers(_ ctx: RequestContext, _ r: ReadersRequest) throws {
        try requireMember(r.conversationID, ctx.user.id)
        guard r.seq > 0, let message = try sqlite.messages(conversationID: r.conversationID, afterSeq: r.seq - 1, limit: 1).first,
              message.seq == r.seq else {
            throw ServerError.notFound(.message(seq: r.seq, conversation: r.conversationID))
        }
        let recipients = try sqlite.markers(conversationID: r.conversationID).filter { $0.user.userID != message.senderID }
        ctx.reply(ReadersResult(
            conversationID: r.conversationID, seq: r.seq, recipientCount: UInt64(recipients.count),
            deliveredTo: recipients.filter { $0.deliveredSeq >= r.seq }.map { UserInfo($0.user) },
            readBy: recipients.filter { ($0.user.userID == ctx.user.id ? $0.readSeq : $0.sharedReadSeq) >= r.seq }.map { UserInfo($0.user) }))
    }
}
