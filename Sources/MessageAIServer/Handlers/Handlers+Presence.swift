import MessageAIProtocol

/// TYPING: relayed to the other members' connections, never stored, answered only when its
/// request id is not 0 (clients send 0). The indicator expires
/// on the receiving side after the TTL unless the typist renews it.
/// AWAY: stored (it outlasts connections and restarts), announced like coming online.
extension ChatServer {
    static let presenceRoutes: [(FrameType, Route)] = [
        Route.awaiting(Typing.self) { s, c, m in try await s.typing(c, m) },
        Route.awaiting(AwaySet.self) { s, c, m in try await s.setAway(c, m) },
    ]

    /// An away text is shown in other people's prompts: the display-name rules apply (no
    /// control or bidirectional characters), with room for a sentence.
    static let maxAwayMessage = 200

    func setAway(_ ctx: RequestContext, _ a: AwaySet) async throws {
        let user = ctx.user
        if a.away {
            // One limit, 200 (the name check's 64 used to refuse 65-200 first).
            if !a.message.isEmpty {
                try Validation.name(a.message, field: "message", what: "away messages", limit: ChatServer.maxAwayMessage)
            }
            try await store.setAway(userID: user.id, message: a.message, now: Clock.nowMillis())
        } else {
            try await store.clearAway(userID: user.id)
        }
        ctx.reply(OK())
        broadcastPresence(of: user, online: true, lastSeen: 0, andSelf: true)
    }

    /// Renewals closer together than this are dropped: clients renew every ~3 s.
    static let typingMinimumIntervalMillis: UInt64 = 1_000

    func typing(_ ctx: RequestContext, _ t: Typing) async throws {
        let user = ctx.user
        let now = Clock.uptimeMillis()
        if let last = ctx.peer.lastTyping[t.conversationID], now - last < ChatServer.typingMinimumIntervalMillis {
            ctx.reply(OK())
            return
        }
        // A message request's holder does not show typing until they accept (by replying).
        if try await requireMember(t.conversationID, user.id).pending {
            ctx.reply(OK())
            return
        }
        if ctx.peer.lastTyping.count > 64 { ctx.peer.lastTyping = [:] }
        ctx.peer.lastTyping[t.conversationID] = now
        // Never to or from someone in a block with the typist (either way): one query, not one
        // per member.
        let blocks = try await store.blockPartners(of: user.id)
        let members = try await store.memberIDs(conversationID: t.conversationID).filter { $0 != user.id && !blocks.contains($0) }
        let frame = TypingEvent(conversationID: t.conversationID, user: user.info, ttl: ChatServer.typingTTLMillis).frame(requestID: 0)
        delivery.send(frame, to: members)
        // Clients send TYPING with id 0 (no answer); a non-zero id gets its one answer, as
        // every request does.
        ctx.reply(OK())
    }
}
