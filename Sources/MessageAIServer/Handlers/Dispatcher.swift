import Dispatch
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
            peer.connection.close(after: ServerError.handshakeRequired.frame, requestID: frame.requestID,
                                  reason: .protocolError(.handshakeRequired))
            return
        }
        if frame.flags.contains(.compressed), !peer.zlib {
            peer.connection.close(after: ServerError.compressionNotAgreed.frame, requestID: frame.requestID,
                                  reason: .protocolError(.malformedFrame))
            return
        }
        guard let route = ChatServer.routes[frame.type] else {
            peer.fail(frame.requestID, .unknownFrameType(frame.type))
            return
        }
        do {
            switch route.body {
            case .open(let run):
                try run(self, peer, frame)
            case .loggedIn(let run):
                guard let user = peer.user else {
                    peer.fail(frame.requestID, .notAuthenticated)
                    return
                }
                try run(self, RequestContext(peer: peer, user: user, sessionID: peer.sessionID, requestID: frame.requestID), frame)
            case .awaiting(let run):
                guard let user = peer.user else {
                    peer.fail(frame.requestID, .notAuthenticated)
                    return
                }
                let context = RequestContext(peer: peer, user: user, sessionID: peer.sessionID, requestID: frame.requestID)
                runAwaiting(frame, from: peer) { [self] in try await run(self, context, frame) }
            case .openAwaiting(let run):
                runAwaiting(frame, from: peer) { [self] in
                    defer { peer.connection.holdBehindLogin(false) }  // the held frame's limit is settled now
                    try await run(self, peer, frame)
                }
            }
        } catch {
            report(error, for: frame, to: peer)
        }
    }

    /// Turns any error out of a handler into the ERROR frame the client gets (texts and codes:
    /// `ServerError+Frame.swift`). A decoding error whose code closes the connection closes it.
    func report(_ error: Error, for frame: Frame, to peer: Peer) {
        switch error {
        case is ServerError: break
        case let e as ProtocolError where e.errorCode.closesConnection:
            peer.connection.close(after: ServerError.decoding(e).frame, requestID: frame.requestID, reason: .protocolError(e.errorCode))
            return
        case is ProtocolError: break
        case let e as StoreError: log(e, context: "\(frame.type)")
        default: logger.error("\(frame.type) failed: \(error)")
        }
        peer.fail(frame.requestID, ServerError(error))
    }

    /// A store failure the client is told of only in general words goes to the log in full.
    func log(_ error: StoreError, context: String) {
        switch error {
        case .diskFull: logger.error("\(context): disk full")
        case .failed(let message), .conflict(let message): logger.error("\(context): \(message)")
        case .missingReference: logger.error("\(context): a referenced row does not exist")
        case .unavailable(let why): logger.warning("\(context): database unavailable: \(why)")
        case .notFound, .usernameTaken, .emailTaken: break
        }
    }

    /// Runs `work` off the hub (password hashing, ~0.3 s) and resumes on it with its result;
    /// nil when the connection closed meanwhile (nobody is left to answer). The handler awaits
    /// it inside `runAwaiting`, so the connection's later frames wait and answers keep request
    /// order. At most `maxPasswordHashesInFlight` run or wait at once: past it the request is
    /// refused with `server_busy` at once, so logins never queue without limit.
    func passwordWork<T: Sendable>(_ peer: Peer, _ work: @escaping @Sendable () -> T) async throws -> T? {
        dispatchPrecondition(condition: .onQueue(queue))  // hashesInFlight and peer belong to the hub
        guard hashesInFlight < configuration.maxPasswordHashesInFlight else {
            throw ServerError.serverBusy(.passwords, retryAfter: UInt64.random(in: 1_000...2_000))
        }
        hashesInFlight += 1
        let result = await withCheckedContinuation { (done: CheckedContinuation<T, Never>) in
            passwordQueue.async { done.resume(returning: work()) }
        }
        // Back on the hub (the task's executor).
        hashesInFlight -= 1
        guard !peer.connection.isClosing else { return nil }
        // The client waited for us: its idle clock starts again with the answer.
        peer.connection.restartIdleClock()
        return result
    }

    /// Runs an asynchronous handler on the hub (`HubExecutor`). It starts inline: a store that
    /// answers at once (SQLite) never suspends it, so it has ended, answer written, before this
    /// returns, exactly as a synchronous handler. One that suspends holds the connection's later
    /// frames meanwhile (`peer.busy`; a password hash, `passwordWork`, is such a suspension) and, when it ends
    /// on the hub, runs them in order: per-connection answer order holds either way.
    func runAwaiting(_ frame: Frame, from peer: Peer, _ body: @escaping @Sendable () async throws -> Void) {
        dispatchPrecondition(condition: .onQueue(queue))
        peer.busy = true
        let start = InlineStart()
        Task.immediate(executorPreference: hub) { [self] in
            do { try await body() } catch { report(error, for: frame, to: peer) }
            peer.busy = false
            // Ended inline: the caller (a read event, or `resumeWaiting`'s loop) goes on with
            // the next frame itself. Ended after a suspension: nobody else will.
            if start.returned, !peer.connection.isClosing { resumeWaiting(peer) }
        }
        start.returned = true
    }

    private func resumeWaiting(_ peer: Peer) {
        while !peer.busy, !peer.waiting.isEmpty, !peer.connection.isClosing {
            dispatch(peer.waiting.removeFirst(), from: peer)
        }
        if !peer.busy { peer.connection.resumeReading() }
    }
}

/// Whether `runAwaiting` has returned, that is, whether its handler ended after a suspension.
// @unchecked Sendable: set and read on the hub queue only (the handler resumes there).
private final class InlineStart: @unchecked Sendable {
    var returned = false
}
