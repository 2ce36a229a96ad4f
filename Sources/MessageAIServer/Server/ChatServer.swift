import Dispatch
import Logging
import MessageAIProtocol
import MessageAITLS
#if canImport(Glibc)
import Glibc
#endif

/// The messaging server.
///
/// Threading: one serial "hub" queue owns all state — the listening socket, every connection's
/// read and write sources, who is online, sync cursors, rate buckets — and is the only caller
/// of the `Store` (which is not thread-safe), through its asynchronous interface only: the
/// handlers are tasks on the hub's executor (`HubExecutor`). A store that answers at once
/// (SQLite) answers inline, in the read event's own turn; one that suspends (a database across
/// the network) resumes the handler on the hub, while the connection's later frames wait, so
/// answers keep request order. Password hashing (~0.3 s each) is awaited the same way: it runs
/// on `passwordQueue`, a concurrent queue. SENDs are group-committed (see
/// `Handlers/Handlers+GroupCommit.swift`): one commit, and one fsync with `--fsync always`,
/// covers every SEND that arrived meanwhile.
/// Measured on 2 cores: ~20,000 messages/s acknowledged and delivered (20 senders, SQLite).
// @unchecked Sendable: confined to the hub queue (`queue`, see above); the closures that leave
// it (passwords, files, assistant, backup) only carry it back there with `queue.async`, or
// resume a task on the hub's executor.
public final class ChatServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    /// The store, through its asynchronous interface only: every handler `await`s it (SQLite
    /// answers inline on the hub; see `MessageAIStore/Store.swift`). Which backend it is,
    /// `ServerProcess.openStore` alone knows.
    let store: any Store
    let queue = DispatchQueue(label: "messageai.hub")
    let passwordQueue = DispatchQueue(label: "messageai.passwords", attributes: .concurrent)
    /// Writes the connections' output at the end of each turn of `queue`.
    let output: OutputScheduler
    /// Runs the asynchronous handlers on `queue` (see `HubExecutor`).
    let hub: HubExecutor
    var logger: Logger

    private var listener: ListeningSocket?
    /// The TLS settings new connections start from (nil: plaintext); SIGHUP swaps it (hub queue).
    var tlsContext: TLSContext?
    private var keepaliveTimer: DispatchSourceTimer?
    private var nextConnectionID: UInt64 = 1
    private let readBuffer = ReadBuffer()
    private let inputLimits: InputLimits
    var peers: [UInt64: Peer] = [:]
    /// Every push to users goes through it: who is logged in, fan-out, presence, typing.
    let delivery: Delivery
    /// The delivery's lanes when the store has an event log (several nodes, issue 26), read by
    /// `eventFeed` (ChatServer+EventLog.swift).
    let cluster: ClusterDelivery?
    var eventFeed: Task<Void, Never>?
    /// This node's heartbeat and reaper (ChatServer+Nodes.swift).
    var heartbeatTask: Task<Void, Never>?
    /// Logins waiting for this node's `node_users` row of their user to commit
    /// (ChatServer+Presence.swift).
    let rowsCommitting = PresenceRowsCommitting()
    /// Since when (uptime ms) the event log's reads find the database unreachable; nil while
    /// they reach it (ChatServer+DatabaseCutoff.swift).
    var databaseDownSince: UInt64?
    /// The clients were told to move to another node since the database went away.
    var clientsHandedOver = false
    /// Failed logins per (address, account), per account and per address (PROTOCOL.md).
    var loginThrottle: LoginThrottle
    var registrations: RegistrationLimiter
    /// Password hashes queued or running on `passwordQueue` (bounded by the configuration).
    var hashesInFlight = 0
    /// What an unknown user's password is checked against, hashed at start off the hub.
    let decoy: DecoyHash
    var rateLimiter: RateLimiter
    var pendingSends: [PendingSend] = []
    /// Senders whose membership held when last checked, on a store that confirms it in the
    /// append (`SenderCheck` in Handlers+Messaging.swift); a hint, never the check itself.
    var confirmedSenders = Set<SenderCheck>()
    var commitScheduled = false
    /// A group commit is awaiting the store (`commitPendingSends`): the next batch gathers meanwhile.
    var commitInFlight = false
    /// Group commits started and ended, and the CHANGEs waiting for some to end (`commitQueuedSends`).
    var commitsStarted: UInt64 = 0
    var commitsEnded: UInt64 = 0
    var commitWaiters: [CheckedContinuation<Void, Never>] = []
    /// Messages committed since the full-text index last caught up (see `indexMessages`).
    var unindexedMessages = 0
    var indexScheduled = false
    /// A step of scrubbing a deleted message's words is queued (`scheduleScrub`).
    var scrubScheduled = false
    /// When the keepalive timer last asked the store for deferred purge work (uptime ms).
    var lastPurgeCheck: UInt64 = 0
    /// Transactions and messages committed by group commit (for logs and tests).
    var commitStats = (transactions: 0, messages: 0)
    private(set) var isShuttingDown = false
    /// The assistant (nil with `--assistant off`) and its tables (see Assistant/).
    let assistant: Assistant?
    let assistantStore: (any AssistantStore)?
    /// Uploaded files (nil: file sharing is off), the serial queue that hashes and cleans them
    /// off the hub, and the uploads being finished there (by file id).
    let fileVault: FileVault?
    let filesQueue = DispatchQueue(label: "messageai.files")
    var finishingUploads: Set<[UInt8]> = []
    /// Backups running (`admin backup`): while any is, blobs are not deleted but kept in
    /// `deferredReclaim`, so every file the database copy refers to is still there to copy.
    var backupsRunning = 0
    var deferredReclaim: [[UInt8]] = []
    /// Presence announcements, in order (`ChatServer+Presence.swift`), and the assistant's
    /// extraction steps, in order (`ChatServer+Extraction.swift`).
    let announcements: HubTaskChain
    let extractionSteps: HubTaskChain
    /// Counters and histograms for `--metrics-listen` (no-ops without it).
    let metrics: ServerMetrics

    public init(configuration: ServerConfiguration, store: any Store, logger: Logger = Logger(label: "messageai-server"),
                metrics: ServerMetrics = .off) {
        self.configuration = configuration
        self.metrics = metrics
        self.store = configuration.storeLatencyMillis == 0 ? store
            : LatencyStore(store, latency: .milliseconds(Int64(clamping: configuration.storeLatencyMillis)))
        let local = LocalDelivery(store: self.store)
        self.cluster = self.store.eventLog.map { ClusterDelivery(local: local, log: $0) }
        self.delivery = cluster ?? local
        self.logger = logger
        self.output = OutputScheduler(queue: queue)
        self.hub = HubExecutor(queue: queue, output: output)
        self.announcements = HubTaskChain(hub: hub)
        self.extractionSteps = HubTaskChain(hub: hub)
        self.inputLimits = InputLimits(configuration)
        self.loginThrottle = LoginThrottle(pairFailures: configuration.loginFailuresPerAccountAtAddress,
                                           accountFailures: configuration.loginFailuresPerAccount,
                                           addressFailures: configuration.loginFailuresPerAddress)
        self.registrations = RegistrationLimiter(perHour: configuration.registrationsPerAddressPerHour)
        self.decoy = DecoyHash.shared(rounds: configuration.pbkdf2Rounds, queue: passwordQueue)
        self.rateLimiter = RateLimiter(limit: configuration.rateLimit, windowSeconds: configuration.rateWindowSeconds)
        self.assistantStore = self.store.assistant
        self.assistant = configuration.assistant.enabled && assistantStore != nil ? Assistant(config: configuration.assistant) : nil
        // A files directory that cannot be made turns file sharing off rather than the server.
        // Several nodes share a database only through the event log's store: then they share the
        // files directory too (README, "Running several nodes").
        let shared = store.eventLog != nil
        self.fileVault = store.files != nil ? configuration.filesDirectory.flatMap { try? FileVault(root: $0, shared: shared) } : nil
        shareSendLimit()
    }

    /// Binds and starts serving; returns the port (useful with port 0).
    public func start() throws -> Int {
        try queue.sync {
            if let files = configuration.tls { tlsContext = try files.load() }
            let socket = try ListeningSocket(host: configuration.host, port: configuration.port)
            socket.start(on: queue) { [unowned self] accepted in self.accept(accepted) }
            listener = socket
            startKeepalive()
            startEventLog()
            startHeartbeat()
            if fileVault != nil { scheduleUploadExpiry() }
            startExtractionJobs()
            return socket.port
        }
    }

    /// Stops accepting, commits what is pending (the batch in flight, then what gathered
    /// behind it: every SEND received is committed and answered, so acked means committed),
    /// tells every client, flushes their output (at most ~2 s), then calls `completion` on the
    /// hub queue once no commit is in flight. The caller closes the store.
    public func shutdown(completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard !isShuttingDown else { return }
            isShuttingDown = true
            eventFeed?.cancel()
            heartbeatTask?.cancel()
            listener?.stop()
            listener = nil
            keepaliveTimer?.cancel()
            keepaliveTimer = nil
            onHub { [self] in
                await commitQueuedSends()
                unindexedMessages = 0
                do { try await store.runDeferred(.catchUpSearch) } catch { logger.error("indexing messages failed: \(error)") }
                for peer in peers.values {
                    peer.connection.close(after: ServerError.shuttingDown.frame, grace: .seconds(2))
                }
                waitForPeers(until: Clock.uptimeMillis() + 2_500, completion: completion)
            }
        }
    }

    private func waitForPeers(until deadline: UInt64, completion: @escaping @Sendable () -> Void) {
        if peers.isEmpty || Clock.uptimeMillis() >= deadline {
            // A connection still waiting for a slow reader (output overflow) goes now: the store
            // closes after `completion`, and a later close would touch it.
            for peer in Array(peers.values) { peer.connection.closeNow(.server) }
            // A SEND read during the grace was queued: it is committed before the store closes,
            // and so is the last seen of the users who just went offline.
            onHub { [self] in
                await commitQueuedSends()
                await announcements.settled()
                completion()
            }
            return
        }
        queue.asyncAfter(deadline: .now() + .milliseconds(20)) { [self] in waitForPeers(until: deadline, completion: completion) }
    }

    /// Number of open connections (for tests and logs).
    public var connectionCount: Int { queue.sync { peers.count } }

    // MARK: Connections

    private func accept(_ accepted: ListeningSocket.Accepted) {
        guard configuration.trustedProxies.contains(accepted.address) else { return serve(accepted) }
        // A balancer's connection: the client's address comes first (ChatServer+Proxy.swift).
        readProxyHeader(accepted) { [weak self] in
            if let self { serve($0) } else { _ = Glibc.close($0.fd) }
        }
    }

    private func serve(_ accepted: ListeningSocket.Accepted) {
        guard let transport = makeTransport(accepted) else { return }
        let id = nextConnectionID
        nextConnectionID += 1
        let connection = Connection(
            id: id, address: accepted.address, transport: transport, queue: queue, scheduler: output, readBuffer: readBuffer,
            limits: inputLimits, maxOutputBytes: configuration.maxOutputBytes)
        let peer = Peer(connection: connection, compressionLevel: configuration.compressionLevel)
        peers[id] = peer
        countOpened(tls: tlsContext != nil)
        connection.onFrame = { [unowned self, unowned peer] frame in
            self.dispatch(frame, from: peer)
            // Before login, behind a LOGIN or REGISTER being checked, only PINGs are answered (so
            // a client's dead-link detection does not fire during a slow hash). The first other
            // frame waits and reading stops: a connection holds at most that one frame, and it
            // may be a full-size one pipelined behind a LOGIN (its limit is settled when the
            // answer is known; the number of such connections is bounded by the hashes in flight).
            if peer.busy, peer.user == nil {
                peer.connection.holdBehindLogin(true)
                if !peer.waiting.isEmpty { peer.connection.pauseReading() }
            }
        }
        connection.onClose = { [unowned self] reason in self.connectionClosed(peer, reason: reason) }
        connection.onDrain = { [unowned self, unowned peer] in if peer.sync != nil { self.resumeSync(peer) } }
        connection.start()
        logger.debug("connection \(id) from \(accepted.address)")
    }

    private func connectionClosed(_ peer: Peer, reason: Connection.CloseReason) {
        peers[peer.id] = nil
        peer.sync = nil
        peer.waiting = []
        // Connection lines name the user once logged in (an admin reading the log asks "who").
        let who = peer.user.map { " (user \($0.username))" } ?? ""
        detachUser(peer)
        countClosed(peer, reason: reason)
        if let why = peer.connection.transportFailure {
            logger.warning("connection \(peer.id) from \(peer.address)\(who): \(why)")
            return
        }
        switch reason {
        case .peerClosed, .server, .deadline: logger.debug("connection \(peer.id)\(who) closed (\(reason))")
        default: logger.info("connection \(peer.id) from \(peer.address)\(who) closed: \(reason)")
        }
    }

    /// Closes connections that sent nothing for the idle timeout. This also covers a client
    /// that connects and never says HELLO, and a peer that vanished without a FIN. Then the
    /// deadlines bytes do not reset: a frame begun too long ago, a login that never came.
    private func startKeepalive() {
        let idle = configuration.idleTimeoutMillis
        let shortest = min(idle, configuration.frameTimeoutMillis, configuration.loginTimeoutMillis)
        // At most 250 ms late: a connection is closed within a quarter second of its deadline
        // (the walk over every connection costs microseconds per thousand).
        let interval = max(50, min(250, Int(shortest / 4)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(interval), repeating: .milliseconds(interval))
        timer.setEventHandler { [unowned self] in
            // A quiet server indexes what fewer than `indexBatch` messages left behind.
            if unindexedMessages > 0 { indexMessages() }
            let now = Clock.uptimeMillis()
            // Once a minute the store is asked for deferred purge work: PostgreSQL gathers
            // deletes for a while before its table rewrite, and a scrub that failed resumes.
            if now - lastPurgeCheck >= 60_000 {
                lastPurgeCheck = now
                scheduleScrub()
            }
            // A connection whose input the server holds (paused while its LOGIN is hashed, or
            // for backpressure) may have sent bytes that were not read yet: not idle. Nor is one
            // the server owes an answer it is still computing (`busy`, a password hash): the
            // wait is the server's (under load or a sanitizer a hash outlasted 1.5 s).
            for peer in peers.values where !peer.connection.isClosing && !peer.connection.readPaused && !peer.busy
                && now - peer.connection.lastReceivedAt > idle {
                logger.debug("connection \(peer.id) idle for \(now - peer.connection.lastReceivedAt) ms")
                peer.connection.close(after: ServerError.idleTimeout(millis: idle).frame)
            }
            // While its LOGIN or REGISTER is being hashed the wait is the server's, not the
            // client's: under load a hash can outlast the login deadline.
            for peer in peers.values where !peer.busy {
                guard let why = peer.connection.missedDeadline(now: now) else { continue }
                logger.debug("connection \(peer.id) from \(peer.address): \(why)")
                peer.connection.close(after: ServerError.missedDeadline(why).frame, reason: .deadline)
            }
        }
        keepaliveTimer = timer
        timer.resume()
    }
}
