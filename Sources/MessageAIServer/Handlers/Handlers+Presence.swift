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
        try await pushTyping(in: t.conversationID, by: user)
        // Clients send TYPING with id 0 (no answer); a non-zero id gets its one answer, as
        // every request does.
        ctx.reply(OK())
        // Several nodes: the others relay it to their members' connections (ChatServer+Nodes).
        // An event in the log rather than a NOTIFY of its own: the same reader, no second
        // listening connection, and a typist's renewals arrive in order; it costs one row per
        // renewal (at most one a second per typist and conversation), purged with the log.
        if let nodes = store.nodes, cluster != nil {
            let conversationID = t.conversationID
            onHub { [self] in
                do { try await nodes.publishTyping(conversationID: conversationID, userID: user.id) } catch {
                    logger.notice("typing across nodes failed: \(error)")
                }
            }
        }
    }

    /// TYPING_EVENT to the members' connections here, never to or from someone in a block with
    /// the typist (either way): one query, not one per member.
    func pushTyping(in conversationID: UInt64, by user: UserRecord) async throws {
        let blocks = try await store.blockPartners(of: user.id)
        let members = try await store.memberIDs(conversationID: conversationID).filter { $0 != user.id && !blocks.contains($0) }
        guard members.contains(where: delivery.isOnline) else { return }
        let frame = TypingEvent(conversationID: conversationID, user: user.info, ttl: ChatServer.typingTTLMillis).frame(requestID: 0)
        delivery.send(frame, to: members)
    }
}
