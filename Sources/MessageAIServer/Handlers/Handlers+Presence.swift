import MessageAIProtocol

/// TYPING: relayed to the other members' connections, never stored. The indicator expires
/// on the receiving side after the TTL unless the typist renews it.
extension ChatServer {
    static let presenceRoutes: [(FrameType, Route)] = [
        Route.on(Typing.self) { s, p, m, id in try s.typing(p, m, id) },
    ]

    func typing(_ peer: Peer, _ t: Typing, _ id: UInt32) throws {
        let user = peer.user!
        try requireMember(t.conversationID, user.id)
        let members = try store.members(conversationID: t.conversationID).map(\.userID).filter { $0 != user.id }
        let frame = TypingEvent(conversationID: t.conversationID, user: user.info, ttl: ChatServer.typingTTLMillis).frame(requestID: 0)
        for p in connections(of: members) { p.connection.send(frame) }
        peer.reply(id, OK())
    }
}
