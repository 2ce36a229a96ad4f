import MessageAIProtocol

/// A validated SEND waiting for the next group commit.
struct PendingSend {
    let peer: Peer
    let requestID: UInt32
    var message: NewMessage
    /// When the handler took it (monotonic ns), for the ack latency histogram.
    let receivedAt: UInt64
}

/// A sender in a conversation whose membership (and block) check passed. On a store whose
/// append confirms membership (PostgreSQL: each check is a round trip of its own), the next
/// SEND skips the handler's check and the append makes it inside the transaction instead; a
/// refusal drops the entry and the handler checks again to say why (`Handlers+GroupCommit`).
/// So a stale entry costs one refused append, never a message stored that should not be.
struct SenderCheck: Hashable {
    let conversationID: UInt64
    let userID: UInt64
}

/// SEND, MARK and READERS.
///
/// Group commit (`Handlers+GroupCommit.swift`): a SEND is checked at once (membership, length,
/// rate) and queued; the group commit puts every queued SEND into one `store.append`
/// transaction, and acks and pushes go out only after it returns, so nothing is acknowledged
/// before it is durable. The handlers await the store's asynchronous interface.
extension ChatServer {
    static let messagingRoutes: [(FrameType, Route)] = [
        Route.awaiting(Send.self) { s, c, m in try await s.send(c, m) },
        Route.awaiting(Mark.self) { s, c, m in try await s.mark(c, m) },
        Route.awaiting(ReadersRequest.self) { s, c, m in try await s.readers(c, m) },
    ]

    /// Typing indicators last this long unless renewed (announced in TYPING_EVENT).
    static let typingTTLMillis: UInt64 = 5_000

    func send(_ ctx: RequestContext, _ s: Send) async throws {
        let user = ctx.user
        // With an attachment the text is its caption, which may be empty.
        if s.attachment == nil || !s.text.isEmpty { try checkText(s.text) }
        let sender = SenderCheck(conversationID: s.conversationID, userID: user.id)
        let confirm = store.confirmsMembership && confirmedSenders.contains(sender)
        if !confirm { try await checkSender(sender) }
        // With an attachment the stored text is the fallback line (name, size, caption).
        var attachment: AttachmentRecord?
        if let sent = s.attachment { attachment = try await sentAttachment(sent, caption: s.text, ctx) }
        let storedText = attachment?.fallbackText ?? s.text
        // With limits in the database every node shares (`store.limits`), the batch's append
        // applies the send limit in its own transaction (`.rateLimited` in the group commit).
        if store.limits == nil, let wait = rateLimiter.take(user: user.id, now: Clock.uptimeMillis()) {
            // A resend of a stored message is not new traffic: it still gets its duplicate ack
            // (a client resending its outbox after a reconnect learns at once what is stored).
            // Looked up only here, on the refusal path, so sending costs no extra query.
            let original = try await store.message(senderID: user.id, clientID: s.clientID)
            guard let original, original.conversationID == s.conversationID,
                  original.text == storedText || original.editedAt != 0 || original.deleted else {
                metrics.rateLimited.increment()
                throw ServerError.rateLimited(.sending(retryAfter: wait))
            }
        }
        // A reply names a message that is there (checked only for replies: no cost otherwise).
        // A resend of a stored reply is caught by the append's duplicate check first.
        if s.replyTo != 0, try await store.message(senderID: user.id, clientID: s.clientID) == nil {
            _ = try await changeableMessage(s.conversationID, s.replyTo, field: "reply_to_seq")
        }
        let message = NewMessage(conversationID: s.conversationID, senderID: user.id, clientID: s.clientID,
                                 text: storedText, serverTime: Clock.nowMillis(), senderUsername: user.username, replyTo: s.replyTo,
                                 attachment: attachment, confirmMembership: confirm)
        pendingSends.append(PendingSend(peer: ctx.peer, requestID: ctx.requestID, message: message, receivedAt: ServerMetrics.now))
        scheduleCommit()
    }

    /// The handler's own checks of a sender: a member, no block in a direct conversation; a
    /// message request held is accepted (replying accepts it; written once per conversation).
    /// Remembered when the store can confirm them in the append.
    func checkSender(_ sender: SenderCheck) async throws {
        let membership = try await requireMember(sender.conversationID, sender.userID)
        try await requireNotBlocked(membership, sender.userID)
        if membership.pending { try await store.acceptRequest(conversationID: sender.conversationID, userID: sender.userID) }
        guard store.confirmsMembership else { return }
        // Bounded: a server up for months forgets and checks again.
        if confirmedSenders.count >= 100_000 { confirmedSenders.removeAll(keepingCapacity: true) }
        confirmedSenders.insert(sender)
    }

    func mark(_ ctx: RequestContext, _ m: Mark) async throws {
        let user = ctx.user
        let membership = try await requireMember(m.conversationID, user.id)
        let result = try await store.raiseMarkers(conversationID: m.conversationID, userID: user.id,
                                            delivered: max(m.deliveredSeq, m.readSeq), read: m.readSeq)
        guard result.changed else {
            ctx.reply(OK())
            return
        }
        let members = try await store.memberIDs(conversationID: m.conversationID)
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

    func readers(_ ctx: RequestContext, _ r: ReadersRequest) async throws {
        try await requireMember(r.conversationID, ctx.user.id)
        guard r.seq > 0, let message = try await store.messages(conversationID: r.conversationID, afterSeq: r.seq - 1, limit: 1).first,
              message.seq == r.seq else {
            throw ServerError.notFound(.message(seq: r.seq, conversation: r.conversationID))
        }
        let recipients = try await store.markers(conversationID: r.conversationID).filter { $0.user.userID != message.senderID }
        ctx.reply(ReadersResult(
            conversationID: r.conversationID, seq: r.seq, recipientCount: UInt64(recipients.count),
            deliveredTo: recipients.filter { $0.deliveredSeq >= r.seq }.map { UserInfo($0.user) },
            readBy: recipients.filter { ($0.user.userID == ctx.user.id ? $0.readSeq : $0.sharedReadSeq) >= r.seq }.map { UserInfo($0.user) }))
    }
}
