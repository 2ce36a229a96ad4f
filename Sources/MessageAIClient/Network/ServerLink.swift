import Foundation
import MessageAITLS
import MessageAIProtocol

public enum LinkState: String {
    case offline, connecting, online
}

/// Keeps one connection to the server alive: connects, says HELLO, matches answers to
/// requests by request id, hands pushes on, pings when quiet, detects a dead link, and
/// reconnects by itself with capped exponential backoff and jitter. Main queue only.
final class ServerLink {
    struct Settings {
        /// The server's addresses (`--server host1:7878,host2:7878`): nodes of one service.
        var addresses: [ServerAddress]
        var backoffBase: Double = 0.1
        var backoffCap: Double = 2.0
        var connectTimeoutMs: Int32 = 3000
        var requestTimeout: Double = 15
        /// TLS and trust settings (`tls.plaintext` for the plain protocol).
        var tls = TLSSettings(knownServersPath: TLSSettings.defaultConfigDir() + "/known_servers")
    }

    /// Returns true when the request is finished (SYNC gets several frames).
    typealias ReplyHandler = (Result<Frame, ClientError>) -> Bool

    private struct Pending {
        var deadline: DispatchTime
        var handler: ReplyHandler
    }

    let settings: Settings
    private let queue = DispatchQueue.main
    private(set) var state: LinkState = .offline { didSet { if state != oldValue && !stopped { onStateChange(state) } } }
    private(set) var welcome: Welcome?
    private(set) var lastError = ""
    /// The message of an ERROR the server sent before closing (`closes`): it says why better
    /// than "the server closed the connection" (a revoked session, a disabled account).
    private var closingError: String?
    /// The TLS parameters of the current connection (nil offline or in plaintext), for /server.
    private(set) var tlsInfo: TLSInfo?
    /// Whether at least one attempt has finished since start (so callers stop waiting).
    private(set) var attemptedOnce = false
    /// When the next reconnect attempt starts (nil while connecting or online).
    private(set) var nextAttempt: DispatchTime?
    private var connection: Connection?
    private var pending: [UInt32: Pending] = [:]
    private var nextID: UInt32 = 1
    private var failures = 0
    private var retry: DispatchWorkItem?
    private var tick: DispatchSourceTimer?
    private var pingOutstanding = false
    private var stopped = false

    var onReady: () -> Void = {}
    var onLost: (String) -> Void = { _ in }
    var onPush: (Frame) -> Void = { _ in }
    var onStateChange: (LinkState) -> Void = { _ in }

    /// Which of `settings.addresses` the current (or next) attempt uses.
    private var addressIndex = 0
    /// Attempts since the last connection held, to know when every address was tried once.
    private var triedInRound = 0

    init(settings: Settings) {
        self.settings = settings
        addressIndex = settings.addresses.isEmpty ? 0 : Int.random(in: 0..<settings.addresses.count)
    }

    /// The address connected to now (or tried next): what /server and the online event name.
    var address: ServerAddress { settings.addresses[addressIndex] }

    var compress: Bool { welcome?.capabilities.contains(.zlib) ?? false }

    func start() {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + 0.25, repeating: 0.25)
        t.setEventHandler { [weak self] in self?.onTick() }
        t.resume()
        tick = t
        connectNow()
    }

    /// Skips the backoff wait (used by /retry and when a command needs the server).
    func connectNow() {
        guard !stopped, state == .offline else { return }
        retry?.cancel(); retry = nil
        nextAttempt = nil
        state = .connecting
        dial()
    }

    /// One connection attempt to the current address (background: resolve, connect, TLS).
    private func dial() {
        guard !stopped else { return }
        let (host, port, timeout) = (address.host, address.port, settings.connectTimeoutMs)
        var sameService = settings.tls
        // All nodes of one list serve the same certificate: one trusted for any of them is
        // trusted for the others (TLSConnect saves it for the new address).
        sameService.siblings = settings.addresses.filter { $0 != address }
        let tls = sameService
        DispatchQueue.global().async {
            let result = SocketConnect.connect(host: host, port: port, timeoutMs: timeout)
                .flatMap { fd in SocketConnect.secure(fd: fd, host: host, port: port, tls: tls, timeoutMs: timeout) }
            DispatchQueue.main.async { [weak self] in self?.connected(result) }
        }
    }

    private func connected(_ result: Result<SocketConnect.Secured, ConnectError>) {
        switch result {
        case .failure(let e):
            attemptFailed(e.message)
        case .success(let secured):
            let fd = secured.fd
            guard !stopped else { close(fd); return }
            tlsInfo = secured.info
            let c = Connection(fd: fd, tls: secured.session, queue: queue)
            c.onFrame = { [weak self] in self?.received($0) }
            c.onClose = { [weak self, weak c] reason in
                guard let self, let c, self.connection === c else { return }
                self.connectionClosed(reason)
            }
            connection = c
            c.start()
            pingOutstanding = false
            let hello = Hello(capabilities: [.zlib, .messageChanges, .assistant, .files, .avatars], client: "messageai/\(ClientConfiguration.version)")
            request(hello, timeout: 5, whenConnecting: true) { [weak self] result in
                guard let self else { return true }
                switch result {
                case .success(let f) where f.type == .welcome:
                    if let w = try? f.decode(Welcome.self) {
                        self.welcome = w
                        self.failures = 0
                        self.triedInRound = 0
                        self.attemptedOnce = true
                        self.state = .online
                        self.onReady()
                    } else {
                        self.connection?.close(reason: "unreadable WELCOME")
                    }
                case .success(let f):
                    let msg = (try? f.decode(ErrorFrame.self)).map { ClientError($0).message } ?? "unexpected \(f.type)"
                    self.connection?.close(reason: "handshake refused: \(msg)")
                case .failure(let e):
                    self.connection?.close(reason: e.message)
                }
                return true
            }
        }
    }

    private func connectionClosed(_ reason: String) {
        let reason = closingError ?? reason
        closingError = nil
        connection = nil
        welcome = nil
        tlsInfo = nil
        let wasOnline = state == .online
        // A node that dropped us may be dying: the reconnect starts at a random address (the
        // load spreads over the nodes left), then walks the list.
        if wasOnline, settings.addresses.count > 1 { addressIndex = Int.random(in: 0..<settings.addresses.count) }
        let failed = pending
        pending = [:]
        for (_, p) in failed { _ = p.handler(.failure(ClientError("connection_lost", "the connection to the server was lost (\(reason))"))) }
        if wasOnline && !stopped { onLost(reason) }
        attemptFailed(reason)
    }

    private func attemptFailed(_ reason: String) {
        lastError = reason
        // Another address not tried since the last good connection: at once, no backoff, and
        // still "connecting" (offline is when every node failed).
        if settings.addresses.count > 1 && !stopped {
            addressIndex = (addressIndex + 1) % settings.addresses.count
            triedInRound += 1
            if triedInRound < settings.addresses.count {
                state = .connecting
                queue.async { [weak self] in self?.dial() }
                return
            }
            triedInRound = 0
        }
        attemptedOnce = true
        state = .offline
        guard !stopped else { return }
        let d = min(settings.backoffCap, settings.backoffBase * pow(2, Double(min(failures, 20))))
        failures += 1
        let delay = d * Double.random(in: 0.5...1.0)
        nextAttempt = .now() + delay
        let item = DispatchWorkItem { [weak self] in self?.connectNow() }
        retry = item
        queue.asyncAfter(deadline: .now() + delay, execute: item)
    }

    /// Sends a request; `handler` gets the answer (or ERROR as success frame) or a local failure.
    func request<M: WireMessage>(_ message: M, timeout: Double? = nil, whenConnecting: Bool = false,
                                 handler: @escaping ReplyHandler) {
        guard let c = connection, state == .online || whenConnecting else {
            _ = handler(.failure(.offline))
            return
        }
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        pending[id] = Pending(deadline: .now() + (timeout ?? settings.requestTimeout), handler: handler)
        c.send(message.frame(requestID: id, compress: compress))
    }

    /// Nothing waits in the connection's output buffer (true offline: nothing to wait behind).
    var outputEmpty: Bool { connection?.outputEmpty ?? true }

    /// Runs `body` once the output buffer has drained, or the connection ended.
    func whenOutputDrained(_ body: @escaping () -> Void) {
        guard let c = connection else { queue.async { body() }; return }
        c.whenDrained(body)
    }

    /// A frame with request id 0: no answer on success (MARK, TYPING).
    func sendNoReply<M: WireMessage>(_ message: M) {
        guard state == .online else { return }
        connection?.send(message.frame(requestID: 0, compress: compress))
    }

    private func received(_ frame: Frame) {
        if frame.type == .ping {
            connection?.send(Pong().frame(requestID: frame.requestID))
            return
        }
        if frame.requestID != 0, let p = pending[frame.requestID] {
            if p.handler(.success(frame)) { pending[frame.requestID] = nil }
            return
        }
        if frame.type == .error, let e = try? frame.decode(ErrorFrame.self), e.closes {
            lastError = ClientError(e).message
            closingError = lastError
        }
        onPush(frame)
    }

    private func onTick() {
        let now = DispatchTime.now()
        for (id, p) in pending where p.deadline < now {
            pending[id] = nil
            _ = p.handler(.failure(ClientError("timeout", "the server did not answer in time")))
        }
        guard let c = connection, let w = welcome, state == .online else { return }
        let interval = Double(max(w.pingInterval, 200)) / 1000
        let idle = Double(max(w.idleTimeout, w.pingInterval * 2, 400)) / 1000
        let sinceSent = Double(now.uptimeNanoseconds - c.lastSent.uptimeNanoseconds) / 1e9
        let sinceReceived = Double(now.uptimeNanoseconds - c.lastReceived.uptimeNanoseconds) / 1e9
        if sinceReceived > idle {
            c.close(reason: "no answer from the server for \(Int(idle)) s (dead link)")
            return
        }
        if !pingOutstanding && (sinceSent >= interval || sinceReceived >= interval) {
            pingOutstanding = true
            request(Ping(), timeout: idle) { [weak self] _ in self?.pingOutstanding = false; return true }
        }
    }

    /// At exit: no more reconnects; flush and close politely.
    func stop() {
        stopped = true
        retry?.cancel()
        tick?.cancel()
        connection?.closeGracefully()
    }
}
