import MessageAIProtocol

/// One entry of the handler table: how to run a frame type and what it requires.
/// The dispatcher does the shared checks (handshake, login, decoding) once for all.
struct Route: Sendable {
    enum Body: Sendable {
        /// Runs before login too (HELLO, PING, REGISTER, LOGIN, RESUME).
        case open(@Sendable (ChatServer, Peer, Frame) throws -> Void)
        /// Refused with not_authenticated before login; gets the logged-in user's context.
        case loggedIn(@Sendable (ChatServer, RequestContext, Frame) throws -> Void)
        /// Like `loggedIn`, for a handler that awaits the store (`Dispatcher.runAwaiting`).
        case awaiting(@Sendable (ChatServer, RequestContext, Frame) async throws -> Void)
        /// Like `open`, awaiting (REGISTER, LOGIN, RESUME: the store, and a password hash off the hub).
        case openAwaiting(@Sendable (ChatServer, Peer, Frame) async throws -> Void)
    }

    let body: Body

    var requiresLogin: Bool {
        switch body {
        case .open, .openAwaiting: return false
        case .loggedIn, .awaiting: return true
        }
    }

    /// A route open before login, whose body gets the decoded message and the request id.
    static func open<M: WireMessage>(_ type: M.Type,
                                     _ body: @escaping @Sendable (ChatServer, Peer, M, UInt32) throws -> Void) -> (FrameType, Route) {
        (M.frameType, Route(body: .open { server, peer, frame in
            try body(server, peer, try decode(M.self, frame, server, loggedIn: peer.user != nil), frame.requestID)
        }))
    }

    /// A route open before login whose body awaits (the store, a password hash off the hub).
    static func openAwaiting<M: WireMessage>(_ type: M.Type,
                                             _ body: @escaping @Sendable (ChatServer, Peer, M, UInt32) async throws -> Void) -> (FrameType, Route) {
        (M.frameType, Route(body: .openAwaiting { server, peer, frame in
            try await body(server, peer, try decode(M.self, frame, server, loggedIn: peer.user != nil), frame.requestID)
        }))
    }

    /// A route for logged-in connections, whose body gets the context and the decoded message.
    static func on<M: WireMessage>(_ type: M.Type,
                                   _ body: @escaping @Sendable (ChatServer, RequestContext, M) throws -> Void) -> (FrameType, Route) {
        (M.frameType, Route(body: .loggedIn { server, context, frame in
            try body(server, context, try decode(M.self, frame, server, loggedIn: true))
        }))
    }

    /// A route for logged-in connections whose body awaits the store's asynchronous interface.
    /// The connection's later frames wait until it ends, so answers keep request order.
    static func awaiting<M: WireMessage>(_ type: M.Type,
                                         _ body: @escaping @Sendable (ChatServer, RequestContext, M) async throws -> Void) -> (FrameType, Route) {
        (M.frameType, Route(body: .awaiting { server, context, frame in
            try await body(server, context, try decode(M.self, frame, server, loggedIn: true))
        }))
    }

    /// Before login a frame may not inflate past what it could have sent uncompressed:
    /// an anonymous 8 KiB frame used to make the server inflate up to 4 MiB.
    private static func decode<M: WireMessage>(_ type: M.Type, _ frame: Frame, _ server: ChatServer, loggedIn: Bool) throws -> M {
        let configuration = server.configuration
        let cap = loggedIn ? configuration.maxInflatedLength : min(configuration.preLoginMaxFrameLength, configuration.maxInflatedLength)
        return try frame.decode(M.self, maxInflated: cap, refusingNUL: true)
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
