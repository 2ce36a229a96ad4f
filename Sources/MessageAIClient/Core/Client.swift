import Foundation
import MessageAIProtocol

/// The client's state and its life cycle: the saved login, the open account (local store and
/// outbox), the link to the server and the current conversation. On every (re)connect:
/// RESUME with the saved token, then SYNC, then drain the outbox, then live pushes.
/// Everything runs on the main queue.
public final class Client {
    /// Flags over the settings file; /set changes it while running.
    public internal(set) var config: ClientConfiguration
    public let output: Output
    let link: ServerLink
    let notifier: Notifier

    public internal(set) var session: SavedSession?
    public internal(set) var store: LocalStore?
    public internal(set) var outbox: Outbox?
    /// RESUME/LOGIN succeeded on the current connection.
    public internal(set) var authenticated = false
    /// SYNC_DONE arrived on the current connection: the outbox may drain.
    public internal(set) var synced = false
    /// The time zone the server acknowledged on this connection (nil: not yet sent).
    var sentTimeZone: String?
    public internal(set) var currentConversation: UInt64?
    /// The user's read position in the current conversation just before it was opened (opening
    /// marks it read): what `/summary unread` covers.
    public internal(set) var readBeforeOpen: UInt64 = 0
    /// Messages that failed for good (too long, not a member): the exit status is non-zero.
    public internal(set) var failedMessages = 0
    /// The pre-send check (`--check`, `/check mode`): confirm at a terminal, off for scripts.
    public var draftCheck: DraftCheckMode = .off
    /// How images reach this terminal, from the `preview` setting, --json and the terminal.
    public internal(set) var previewMode = ImagePreview.Mode.none
    /// The last /rewrite suggestion, sent only by /take (never replaces what the user typed).
    var pendingRewrite: (conversationID: UInt64, text: String)?

    var sendingNow: String?
    /// The outbox entry whose file is uploading (one at a time, beside the text queue).
    var uploadingNow: String?
    /// A file transfer under way, for the status line ("↑ name 42%"); nil when none.
    public internal(set) var transfer: String?
    var rateLimitedUntil: DispatchTime?
    /// Sends wait for the pacer (the server's announced limit) until then.
    var pacer = SendPacer()
    var pacedUntil: DispatchTime?
    var paceAnnounced = false
    var rateLimitAnnounced = false
    /// The server's database was unavailable (error 77): the outbox waits this long, doubling
    /// per refusal up to 30 s, and the person is told once until a send gets through.
    var databaseBackoff: Double = 0
    var databaseAnnounced = false
    var retryScheduled = false
    var offlineAnnounced = false
    var reconnectingAnnounced = false
    /// The current outage is routine for a logged-out client (see linkLost): not printed.
    var quietOutage = false
    var lastTypingSent: DispatchTime?
    var flushScheduled = false
    /// The connection as the prompt shows it, refreshed at most once a second while offline.
    var shownConnection = "connecting"
    var statusTimer: DispatchSourceTimer?
    /// The profile pictures last heard of, by user (Client+Avatars); nil while logged out.
    var avatarBook: AvatarBook?
    /// Contacts' presence by lowercased username (Client+Presence).
    var peers: [String: PeerPresence] = [:]
    /// The user's own away text ("" for none) while marked away; nil when not away.
    public internal(set) var ownAway: String?
    /// Who is typing where, until when.
    var typing: [UInt64: [String: DispatchTime]] = [:]
    /// Holes in conversations' seqs being filled (Client+GapFill).
    var gaps = GapFill()
    /// REPL: one's own messages sent while online, printed once acknowledged (with `#N`);
    /// by client id, with the line printed without it should the ack be slow.
    var heldOwnLines: [String: () -> Void] = [:]
    /// An interactive /delete waiting for the same /delete again to confirm it.
    var pendingDelete: (conversationID: UInt64, seq: UInt64, until: Date)?
    /// Set by the runner at end of input (/follow without SECONDS stops then).
    public internal(set) var inputEnded = false { didSet { checkWaiters() } }
    /// A command waits for the end of input (/follow without SECONDS): input is read on
    /// whatever the outbox holds, as the lines after it wait for that end.
    var readsToEndOfInput = false { didSet { checkWaiters() } }
    /// Asks for a password without echo (the REPL sets it; scripts must pass passwords).
    public var passwordPrompt: ((String, @escaping (String?) -> Void) -> Void)?
    /// Called when what the prompt shows may have changed (the REPL redraws it).
    public var onPromptChange: () -> Void = {}
    /// Conditions commands wait for (`wait(upTo:until:_:)`), checked on every state change.
    var waiters: [Int: Waiter] = [:]
    var nextWaiter = 0
    /// Clears the terminal and redraws the prompt (the REPL sets it; /clear).
    public var clearScreen: (() -> Void)?
    /// Puts text on the REPL's input line (/edit alone); nil when input is piped.
    public var prefill: ((String) -> Void)?
    /// Last "last seen" written to the cache (Client+CatchUpAcross), to write it at most once a minute.
    var lastSeenWritten: UInt64 = 0
    /// The "last seen" the catch-up after being away was measured from (`/catchup away`).
    var awaySince: UInt64?
    /// "Last seen" read at the start, until the catch-up after being away is decided.
    var awayAtStart: UInt64?
    /// Per conversation, the seq of the question whose call hint was shown (once per episode).
    var callHintShown: [UInt64: UInt64] = [:]

    public init(config: ClientConfiguration, output: Output) {
        self.config = config
        draftCheck = config.draftCheck ?? DraftCheckMode.standard(interactive: config.interactive)
        previewMode = ImagePreview.mode(setting: config.preview, json: config.json)
        self.output = output
        link = ServerLink(settings: .init(addresses: config.servers,
                                          backoffBase: config.backoffBase, backoffCap: config.backoffCap, tls: config.tls))
        notifier = Notifier(command: config.notifyCommand, bell: config.bell)
    }

    public func start() throws {
        try AtomicFile.makeDirectory(config.dataDir)
        if let saved = SavedSession.load(dataDir: config.dataDir) {
            session = saved
            try openAccount(saved)
        }
        link.onReady = { [weak self] in self?.linkReady() }
        link.onLost = { [weak self] reason in self?.linkLost(reason) }
        link.onPush = { [weak self] frame in self?.handlePush(frame) }
        link.onStateChange = { [weak self] state in self?.linkStateChanged(state) }
        link.start()
    }

    /// Opens the account's local store and outbox (creating them on first use).
    func openAccount(_ s: SavedSession) throws {
        let paths = AccountPaths(dataDir: config.dataDir, username: s.username)
        try AtomicFile.makeDirectory(paths.directory)
        store = try LocalStore(path: paths.store, userID: s.userID)
        let box = try Outbox(path: paths.outbox)
        // An entry whose ack was stored but whose removal had not reached the file yet (a
        // crash within the coalescing window) is done: drop it rather than show it twice.
        for e in box.entries where (try? store?.hasOwnMessage(clientID: e.clientID)) == true {
            box.removeDeferred(clientID: e.clientID)
        }
        try box.flush()
        outbox = box
        avatarBook = AvatarBook(path: paths.avatars)
        if let notice = box.recoveryNotice {
            output.error(command: "", ClientError("outbox_corrupt", notice))
        }
    }

    func closeAccount() {
        flushOutbox()
        store = nil
        outbox = nil
        avatarBook = nil
        session = nil
        authenticated = false
        synced = false
        currentConversation = nil
        sendingNow = nil
        uploadingNow = nil
        onChange()
    }

    // MARK: Connection life cycle

    private func linkReady() {
        guard let s = session, let token = Hex.decode(s.token) else { return }
        link.request(Resume(token: token)) { [weak self] result in
            self?.sessionAnswer(result, fromLogin: false)
            return true
        }
    }

    /// The answer to RESUME (`fromLogin` false) or to LOGIN/REGISTER (true): on SESSION the
    /// account is opened (and saved after a login), then the sync starts.
    func sessionAnswer(_ result: Result<Frame, ClientError>, fromLogin: Bool) {
        guard case .success(let frame) = result else { return }
        if frame.type == .error, let e = try? frame.decode(ErrorFrame.self) {
            if e.errorCode == .invalidToken && !fromLogin {
                SavedSession.remove(dataDir: config.dataDir)
                closeAccount()
                output.error(command: "", ClientError("invalid_token", "the saved session has expired or was revoked: please /login again"))
            }
            // The session is kept: once the admin enables the account again, it resumes.
            if e.errorCode == .accountDisabled && !fromLogin { output.error(command: "", ClientError(e)) }
            return
        }
        guard frame.type == .session, let granted = try? frame.decode(SessionGranted.self) else { return }
        if fromLogin {
            if let current = session, current.userID != granted.user.userID { closeAccount() }
            let saved = SavedSession(username: granted.user.username, userID: granted.user.userID,
                                     token: Hex.encode(granted.token))
            do {
                try saved.save(dataDir: config.dataDir)
                if store == nil { try openAccount(saved) }
                session = saved
            } catch {
                output.error(command: "", ClientError("storage", "cannot open the account: \(error)"))
                return
            }
        }
        authenticated = true
        refreshShownConnection()
        onChange()
        startSync()
        // Every login or resume: the last device to connect sets the zone, as Slack's "set
        // automatically" does for someone who travels with one device and left another home.
        sentTimeZone = nil
        sendTimeZone()
    }

    private func linkLost(_ reason: String) {
        authenticated = false
        synced = false
        sendingNow = nil
        uploadingNow = nil
        offlineAnnounced = true
        // Logged out, the link carries nothing the user sees, and the server closes a connection
        // that has not logged in after its login deadline (60 s): reconnecting then is routine,
        // so the terminal is not told about it every minute (--json still gets the events).
        quietOutage = session == nil
        output.emit(ConnectionEvent.lost(reason: reason, shown: !quietOutage))
        onChange()
    }

    private func linkStateChanged(_ state: LinkState) {
        if state == .connecting && offlineAnnounced && !reconnectingAnnounced {
            // Once per outage, not per attempt: the plain line about the loss said it already.
            reconnectingAnnounced = true
            output.emit(ConnectionEvent.reconnecting)
        }
        if state == .online {
            offlineAnnounced = false
            reconnectingAnnounced = false
            output.emit(ConnectionEvent.online(server: link.address.description, shown: !quietOutage))
            quietOutage = false
        } else if state == .offline && !offlineAnnounced {
            offlineAnnounced = true
            output.emit(ConnectionEvent.offline(reason: link.lastError))
        }
        refreshShownConnection()
        onChange()
    }

    /// What the prompt shows: online, offline or reconnecting.
    public var connectionLabel: String {
        switch link.state {
        case .online: return authenticated || session == nil ? "online" : "connecting"
        case .connecting: return link.attemptedOnce ? "reconnecting" : "connecting"
        case .offline: return "offline"
        }
    }

    public var username: String? { session?.username }

    /// Ends the session with the server politely (outbox kept on disk).
    public func shutdown() {
        noteUserActivity(force: true)
        flushOutbox()
        link.stop()
    }
}
