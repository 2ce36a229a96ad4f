import MessageAIProtocol

/// One entry of the handler table: how to run a frame type and what it requires.
/// The dispatcher does the shared checks (handshake, login, decoding) once for all.
struct Route {
    /// Refused with not_authenticated before login.
    let requiresLogin: Bool
    let run: (ChatServer, Peer, Frame) throws -> Void

    /// A route whose body gets the decoded message and the request id.
    static func on<M: WireMessage>(_ type: M.Type, login: Bool = true,
                                   _ body: @escaping (ChatServer, Peer, M, UInt32) throws -> Void) -> (FrameType, Route) {
        (M.frameType, Route(requiresLogin: login) { server, peer, frame in
            // Before login a frame may not inflate past what it could have sent uncompressed:
            // an anonymous 8 KiB frame used to make the server inflate up to 4 MiB.
            let cap = peer.user == nil ? min(server.configuration.preLoginMaxFrameLength, server.configuration.maxInflatedLength) : server.configuration.maxInflatedLength
            let message = try frame.decode(M.self, maxInflated: cap)
            try body(server, peer, message, frame.requestID)
        })
    }
}

extension ChatServer {
    /// Frame type -> handler. Each area's handlers live in their own file in Handlers/.
    static let routes: [FrameType: Route] = {
        var table: [FrameType: Route] = [:]
        for (type, route) in connectionRoutes + accountRoutes + peopleRoutes + privacyRoutes + conversationRoutes
            + messagingRoutes + changeRoutes + historyRoutes + presenceRoutes + assistantRoutes + fileRoutes + avatarRoutes {
            precondition(table[type] == nil, "two handlers for \(type)")
            table[type] = route
        }
        return table
    }()
}
