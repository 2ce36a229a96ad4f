import MessageAIProtocol

extension ChatServer {
    static let connectionRoutes: [(FrameType, Route)] = [
        Route.open(Hello.self) { server, peer, hello, id in server.hello(peer, hello, id) },
        Route.open(Ping.self) { _, peer, _, id in
            peer.connection.send(Pong().frame(requestID: id))
        },
        // A client may answer the server's PING; nothing to do.
        Route.open(Pong.self) { _, _, _, _ in },
    ]

    static let serverCapabilities: Capabilities = [.zlib, .messageChanges]
    /// Announced on top of the provider's timeout (ms): a local fallback after a timed-out call
    /// takes milliseconds, but the hub may be busy and the machine loaded.
    static let assistantAnswerMargin: UInt64 = 5_000

    func hello(_ peer: Peer, _ hello: Hello, _ id: UInt32) {
        guard !peer.greeted else {
            peer.fail(id, .helloRepeated)
            return
        }
        guard !handingOver else {
            // Cut off from the database: another node can serve this client (ChatServer+DatabaseCutoff.swift).
            peer.connection.close(after: Self.cutOffFrame, requestID: id)
            return
        }
        do { try Validation.clientLabel(hello.client) } catch {
            // Refused: the handshake is not done, the client may send HELLO again.
            peer.fail(id, error)
            return
        }
        let version = min(hello.maxVersion, ProtocolVersion.current)
        guard hello.minVersion <= hello.maxVersion, version >= hello.minVersion, version >= ProtocolVersion.minimum else {
            peer.connection.close(
                after: ServerError.unsupportedVersion(clientMin: hello.minVersion, clientMax: hello.maxVersion).frame,
                requestID: id, reason: .protocolError(.unsupportedVersion))
            return
        }
        peer.greeted = true
        var offered = ChatServer.serverCapabilities
        if assistant != nil { offered.insert(.assistant) }
        if fileVault != nil { offered.formUnion([.files, .avatars]) }
        var common = hello.capabilities.intersection(offered)
        if !common.contains(.files) { common.remove(.avatars) }   // avatars travel as files
        peer.zlib = common.contains(.zlib)
        peer.messageChanges = common.contains(.messageChanges)
        peer.assistant = common.contains(.assistant)
        peer.files = common.contains(.files)
        peer.avatars = common.contains(.avatars)
        var welcome = Welcome(
            version: version, capabilities: common, maxFrameLength: UInt64(configuration.maxFrameLength),
            pingInterval: configuration.pingIntervalMillis, idleTimeout: configuration.idleTimeoutMillis,
            maxMessageLength: UInt64(configuration.maxMessageLength), server: configuration.serverName,
            maxInflatedLength: UInt64(configuration.maxInflatedLength), maxGroupMembers: UInt64(Validation.maxGroupMembers),
            maxNameLength: UInt64(Validation.maxDisplayName), maxQueryLength: UInt64(ChatServer.maxQueryLength),
            sendLimit: UInt64(rateLimiter.limit), sendWindow: UInt64((rateLimiter.windowSeconds * 1000).rounded()))
        if peer.messageChanges { welcome.editWindow = configuration.editWindowMillis }
        if peer.files { announceFileLimits(in: &welcome) }
        if peer.assistant, let provider = assistant?.config.provider {
            // The provider's whole call (retry included), then the local fallback and the hop back.
            welcome.assistantAnswerTimeout = UInt64((provider.timeout * 1000).rounded()) + Self.assistantAnswerMargin
        }
        peer.connection.send(welcome.frame(requestID: id))
        if !hello.client.isEmpty { logger.debug("connection \(peer.id) is \(hello.client), protocol \(version)") }
    }
}
