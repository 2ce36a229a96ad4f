import Foundation
import MessageAIProtocol

/// Requests made on behalf of commands: wait briefly for a connection in progress, send,
/// turn ERROR answers into `ClientError`s.
extension Client {
    /// Calls `then` once the link is online (and logged in when `needsSession`), or with the
    /// reason it is not after `config.connectWait` seconds.
    func whenReady(needsSession: Bool, _ then: @escaping (ClientError?) -> Void) {
        if needsSession && session == nil { then(.notLoggedIn); return }
        if config.interactive && link.attemptedOnce && link.state != .online {
            // A person at the prompt gets the answer now; the next attempt is on its way anyway.
            then(offlineError())
            return
        }
        link.connectNow()
        // Woken by the link's state changes and the login (both call onChange), not polled.
        let ready = { [unowned self] in link.state == .online && (!needsSession || authenticated) }
        wait(upTo: config.connectWait, until: { [unowned self] in ready() || (needsSession && session == nil) }) { [unowned self] _ in
            if ready() { then(nil); return }
            if needsSession && session == nil { then(.notLoggedIn); return }
            let why = link.lastError.isEmpty ? "" : " (\(link.lastError))"
            then(ClientError("offline", "not connected to the server\(why); try again when it is reachable"))
        }
    }

    /// Piped input: the first line waits until the connection has settled, so a script's
    /// first command sees what `/wait` would (`/whoami` said "connecting" before): online with
    /// the saved session logged in, or the first attempt failed, which is said once on stderr.
    /// At most `connectWait`; the script then runs offline (messages queue, commands that need
    /// the server fail or wait as they do later on).
    func whenConnectionSettled(_ then: @escaping () -> Void) {
        let up = { [unowned self] in link.state == .online && (session == nil || authenticated) }
        let failed = { [unowned self] in link.attemptedOnce && link.state != .online }
        wait(upTo: config.connectWait, until: { up() || failed() }) { [unowned self] _ in
            if !up() {
                let address = link.address.description
                let why = link.lastError.isEmpty ? "" : " (\(link.lastError))"
                output.write("cannot reach the server at \(address)\(why); the script runs offline\n", .err)
            }
            then()
        }
    }

    /// Sends `message` when ready; the answer frame, or the failure (server ERROR included).
    func call<M: WireMessage>(_ message: M, needsSession: Bool = true, timeout: Double? = nil,
                              _ done: @escaping (Result<Frame, ClientError>) -> Void) {
        whenReady(needsSession: needsSession) { [weak self] error in
            guard let self else { return }
            if let error { done(.failure(error)); return }
            self.link.request(message, timeout: timeout) { result in
                switch result {
                case .success(let f) where f.type == .error:
                    let e = (try? f.decode(ErrorFrame.self)).map(ClientError.init) ?? ClientError("error", "the server refused the request")
                    done(.failure(e))
                default:
                    done(result)
                }
                return true
            }
        }
    }

    /// A connection attempt or its sync is under way (offline between attempts is not).
    var isSyncing: Bool {
        session != nil && (link.state == .connecting || (link.state == .online && !synced))
    }

    /// For commands that read the local cache: while a connection or its sync is in progress,
    /// waits (up to `config.connectWait`) so a script's first /list sees what the server has.
    /// Offline it goes ahead at once.
    func whenSynced(_ then: @escaping () -> Void) {
        wait(upTo: config.connectWait, until: { [unowned self] in !self.isSyncing }) { _ in then() }
    }

    /// "offline (connection refused); next reconnect attempt in 2 s (/retry tries now)".
    func offlineError() -> ClientError {
        let why = link.lastError.isEmpty ? "" : " (\(link.lastError))"
        let next: String
        if let at = link.nextAttempt {
            let s = max(0, Double(Int64(at.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9)
            next = "next reconnect attempt in \(Int(s.rounded(.up))) s"
        } else {
            next = "reconnecting now"
        }
        return ClientError("offline", "offline\(why): \(next) (/retry tries now)")
    }

    /// `call`, then decodes the answer as `T` (failing the invocation otherwise).
    func call<M: WireMessage, T: WireMessage>(_ message: M, for inv: Invocation, needsSession: Bool = true, timeout: Double? = nil,
                                             expect: T.Type, _ done: @escaping (T) -> Void) {
        call(message, needsSession: needsSession, timeout: timeout) { result in
            switch result {
            case .failure(let e):
                inv.fail(e)
            case .success(let f):
                guard f.type == T.frameType, let value = try? f.decode(T.self) else {
                    inv.fail("bad_answer", "unexpected answer \(f.type) from the server")
                    return
                }
                done(value)
            }
        }
    }

    /// Makes `cid` the current conversation and marks it read (confirmed by the server when online).
    func open(_ cid: UInt64, _ done: @escaping () -> Void) {
        if currentConversation != cid, let store { readBeforeOpen = (try? store.marker(cid, userID: store.userID))?.read ?? 0 }
        currentConversation = cid
        saveCurrent()
        onChange()
        markRead(cid) { _ in done() }
    }
}
