import Dispatch
import MessageAIProtocol

/// CHANGE: reactions, edits and deletes (capability messageChanges), and the reply check of
/// SEND. Rules in PROTOCOL.md, "Message changes".
///
/// A change is committed at once, not through SEND's group commit: changes are rare, and
/// committing the queued SENDs first keeps one connection's SEND-then-CHANGE in that order.
extension ChatServer {
    static let changeRoutes: [(FrameType, Route)] = [
        Route.awaiting(ChangeRequest.self) { s, c, m in try await s.change(c, m) },
    ]

    func change(_ ctx: RequestContext, _ c: ChangeRequest) async throws {
        guard ctx.peer.messageChanges else {
            throw ServerError.capabilityNotAgreed(.messageChanges)
        }
        let user = ctx.user
        let membership = try await requireMember(c.conversationID, user.id)
        await commitQueuedSends()
        // A resend is answered like the first time, whatever happened to the message since.
        if let original = try await store.change(actorID: user.id, clientID: c.clientID) {
            guard original.conversationID == c.conversationID, original.targetSeq == c.targetSeq,
                  original.action == c.action, original.emoji == c.emoji else {
                throw ServerError.clientIDReused(.changeAfterChange)
            }
            ctx.reply(SendAck(conversationID: c.conversationID, clientID: c.clientID, seq: original.seq,
                                   serverTime: original.serverTime, duplicate: true))
            return
        }
        // In the spec's order: the target before the action (a deleted target is
        // `message_deleted` whatever the action).
        let target = try await changeableMessage(c.conversationID, c.targetSeq)
        try await requireNotBlocked(membership, user.id)
        guard let action = c.changeAction else {
            throw ServerError.invalidArgument(.changeAction(c.action))
        }
        let now = Clock.nowMillis()
        switch action {
        case .react, .unreact:
            guard ReactionEmoji.isValid(c.emoji) else {
                throw ServerError.invalidReaction
            }
        case .edit, .delete:
            guard target.senderID == user.id else {
                throw ServerError.notSender(sender: target.senderUsername, action: action.name, seq: target.seq)
            }
        }
        if action == .edit {
            guard now <= target.serverTime + configuration.editWindowMillis else {
                throw ServerError.editWindowClosed(seq: target.seq, windowMillis: configuration.editWindowMillis)
            }
            try checkText(c.text)
        }
        if try await takeChangeToken(user.id) != nil {
            metrics.rateLimited.increment()
            throw ServerError.rateLimited(.changing)
        }
        let outcome = try await store.apply(NewChange(conversationID: c.conversationID, actorID: user.id, clientID: c.clientID,
                                               targetSeq: c.targetSeq, action: action, emoji: c.emoji, text: c.text, serverTime: now))
        let change: MessageChange
        let membersVersion: UInt64
        switch outcome {
        case .stored(let stored): (change, membersVersion) = (MessageChange(stored), stored.membersVersion)
        case .unchanged:
            ctx.reply(SendAck(conversationID: c.conversationID, clientID: c.clientID, seq: 0, serverTime: now, duplicate: true))
            return
        case .clientIDReused:
            throw ServerError.clientIDReused(.changeAfterMessage)
        }
        ctx.reply(SendAck(conversationID: c.conversationID, clientID: c.clientID, seq: change.seq, serverTime: change.serverTime))
        // A deleted attachment's row went with the message if nothing else used it: its blob may go.
        if action == .delete, let sha = target.attachment?.sha256 { collectBlobs([sha]) }
        try await delivery.deliver(change, except: ctx.peer, membersVersion: membersVersion)
        // A deleted message's assistant items were withdrawn with it: every device drops them.
        if action == .delete, let items = try? await assistantStore?.items(conversationID: c.conversationID, seq: c.targetSeq) {
            await pushItems(items, except: nil)
        }
        // An edited message's items are extracted again from its new text (off the hub).
        if action == .edit { extractAgain(conversationID: c.conversationID, seq: c.targetSeq) }
        if action == .delete { scheduleScrub() }
    }

    /// Takes a delete's words out of the index and the WAL in bounded steps, one per turn of
    /// the hub, so that every other connection is served between them (`Store.runDeferred`).
    /// A step that fails (disk full) leaves the scrub owed (the store also resumes it at start):
    /// it is tried again after a pause.
    func scheduleScrub(after delay: DispatchTimeInterval = .never) {
        guard !scrubScheduled, !isShuttingDown else { return }
        scrubScheduled = true
        let step: @Sendable () -> Void = { [self] in
            scrubScheduled = false
            // After shutdown the store may be closed; the scrub stays owed and ends at next start.
            guard !isShuttingDown else { return }
            Task.immediate(executorPreference: hub) { [self] in
                do {
                    if try await store.runDeferred(.purgeDeleted) { scheduleScrub() }
                } catch {
                    logger.error("scrubbing deleted text failed: \(error)")
                    scheduleScrub(after: .seconds(5))
                }
            }
        }
        if delay == .never { queue.async(execute: step) } else { queue.asyncAfter(deadline: .now() + delay, execute: step) }
    }

    /// The message a change or a reply names: it exists in that conversation and is not deleted.
    /// `field` names the request's field in the error (a reply's is `reply_to_seq`).
    func changeableMessage(_ conversationID: UInt64, _ seq: UInt64, field: String = "target_seq") async throws -> StoredMessage {
        guard seq > 0, let m = try await store.message(conversationID: conversationID, seq: seq) else {
            throw ServerError.noSuchMessage(seq: seq, conversation: conversationID, field: field)
        }
        guard !m.deleted else {
            throw ServerError.messageDeleted(seq: seq, field: field)
        }
        return m
    }

    /// The text rules SEND applies.
    func checkText(_ text: String) throws {
        guard !text.isEmpty else { throw ServerError.invalidArgument(.emptyMessage) }
        let length = text.unicodeScalars.count
        guard length <= configuration.maxMessageLength else {
            throw ServerError.tooLong(.message(max: configuration.maxMessageLength, length: length))
        }
    }

    static func describe(_ millis: UInt64) -> String {
        if millis % 3_600_000 == 0 { return "\(millis / 3_600_000) h" }
        if millis % 60_000 == 0 { return "\(millis / 60_000) min" }
        if millis % 1_000 == 0 { return "\(millis / 1_000) s" }
        return "\(millis) ms"
    }
}
