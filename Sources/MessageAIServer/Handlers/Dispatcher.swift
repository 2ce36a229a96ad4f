import MessageAIProtocol

extension ChatServer {
    /// Runs one frame from a client: the checks every request shares, then its handler.
    func dispatch(_ frame: Frame, from peer: Peer) {
        // Types and ids only: payloads may hold passwords and tokens.
        logger.trace("connection \(peer.id) -> \(frame.type) id \(frame.requestID)")
        if peer.busy {
            // PING has no state to keep in order: answered at once, so a client's dead-link
            // detection does not fire while its LOGIN is being hashed.
            if frame.type == .ping, peer.greeted, !frame.flags.contains(.compressed) {
                peer.connection.send(Pong().frame(requestID: frame.requestID))
                return
            }
            peer.waiting.append(frame)
            // Backpressure: a client that piles up requests behind a slow one stops being read.
            if peer.waiting.count >= 64 { peer.connection.pauseReading() }
            return
        }
        guard peer.greeted || frame.type == .hello else {
            peer.connection.close(after: ErrorFrame(.handshakeRequired, "the first frame must be HELLO"),
                                  requestID: frame.requestID, reason: .protocolError(.handshakeRequired))
            return
        }
        if frame.flags.contains(.compressed), !peer.zlib {
            peer.connection.close(after: ErrorFrame(.malformedFrame, "compressed frame, but zlib was not agreed in the handshake"),
                                  requestID: frame.requestID, reason: .protocolError(.malformedFrame))
            return
        }
        guard let route = ChatServer.routes[frame.type] else {
            peer.fail(frame.requestID, ErrorFrame(.unknownFrameType, "unknown frame type 0x\(String(frame.type.rawValue, radix: 16))"))
            return
        }
        if route.requiresLogin, peer.user == nil {
            peer.fail(frame.requestID, ErrorFrame(.notAuthenticated, "log in first (REGISTER, LOGIN or RESUME)"))
            return
        }
        do {
            try route.run(self, peer, frame)
        } catch {
            report(error, for: frame, to: peer)
        }
    }

    /// Turns any error out of a handler into the ERROR frame the client gets.
    func report(_ error: Error, for frame: Frame, to peer: Peer) {
        switch error {
        case let e as ErrorFrame:
            peer.fail(frame.requestID, e)
        case let e as ProtocolError:
            let code = e.errorCode
            if code.closesConnection {
                peer.connection.close(after: ErrorFrame(code, e.description), requestID: frame.requestID, reason: .protocolError(code))
            } else {
                peer.fail(frame.requestID, ErrorFrame(code, e.description, field: e.fieldName))
            }
        case let e as StoreError:
            peer.fail(frame.requestID, storeErrorFrame(e, context: "\(frame.type)"))
        default:
            logger.error("\(frame.type) failed: \(error)")
            peer.fail(frame.requestID, ErrorFrame(.internalError, "internal error"))
        }
    }

    func storeErrorFrame(_ error: StoreError, context: String) -> ErrorFrame {
        switch error {
        case .diskFull:
            logger.error("\(context): disk full")
            return ErrorFrame(.storageFull, "the server's storage is full; nothing was stored, try again later")
        case .notFound:
            return ErrorFrame(.notFound, "not found")
        case .usernameTaken:
            return ErrorFrame(.usernameTaken, "that username is taken", field: "username")
        case .emailTaken:
            return ErrorFrame(.emailTaken, "that email is already registered", field: "email")
        case let .sqlite(code, message):
            logger.error("\(context): sqlite error \(code): \(message)")
            return ErrorFrame(.internalError, "internal storage error")
        }
    }

    /// Runs `work` off the hub (password hashing) and `then` back on it. The connection's
    /// later frames wait meanwhile, so answers keep request order. At most
    /// `maxPasswordHashesInFlight` run or wait at once: past it the request is refused with
    /// `server_busy` at once, so logins never queue without limit.
    func offHub<T>(_ peer: Peer, _ work: @escaping () -> T, then: @escaping (T) -> Void) throws {
        guard hashesInFlight < configuration.maxPasswordHashesInFlight else {
            throw ErrorFrame(.serverBusy, "the server is busy checking passwords; try again in a second",
                             retryAfter: UInt64.random(in: 1_000...2_000))
        }
        hashesInFlight += 1
        peer.busy = true
        passwordQueue.async { [self] in
            let result = work()
            queue.async { [self] in
                hashesInFlight -= 1
                peer.busy = false
                guard !peer.connection.isClosing else { return }
                then(result)
                peer.connection.holdBehindLogin(false)
                resumeWaiting(peer)
            }
        }
    }

    private func resumeWaiting(_ peer: Peer) {
        while !peer.busy, !peer.waiting.isEmpty, !peer.connection.isClosing {
            dispatch(peer.waiting.removeFirst(), from: peer)
        }
        if !peer.busy { peer.connection.resumeReading() }
    }
}

extension ProtocolError {
    /// The request field a decoding error is about, for ERROR's `field`.
    var fieldName: String {
        switch self {
        case let .missingField(_, name), let .wrongFieldType(_, name, _), let .invalidUTF8(_, name),
             let .outOfRange(_, name, _): return name
        default: return ""
        }
    }
}
