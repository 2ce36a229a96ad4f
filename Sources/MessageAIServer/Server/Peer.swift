import MessageAIProtocol

/// What the server knows about one connection: handshake, login and sync state.
/// Owned by the hub queue like everything in `ChatServer`.
final class Peer {
    let connection: Connection
    var id: UInt64 { connection.id }
    var address: String { connection.address }

    var greeted = false
    /// Both sides announced zlib: large answers go out compressed.
    var zlib = false
    /// Both sides announced `files`: FILE_* frames are allowed.
    var files = false
    /// Logging in lifts the connection's small pre-login frame limit; logging out restores it.
    var user: UserRecord? {
        didSet { connection.setAuthenticated(user != nil) }
    }
    var sessionID: UInt64 = 0

    /// A slow step (password hashing) is running for this connection. Its later frames wait
    /// in `waiting` so that answers keep the order of requests (LOGIN then SYNC works).
    var busy = false
    var waiting: [Frame] = []

    /// The sync being streamed to this connection, if any. While it runs, MESSAGE pushes are
    /// held in `deferredMessages` and sent after SYNC_DONE, minus what the sync already held.
    var sync: SyncCursor?
    var deferredMessages: [ChatMessage] = []
    /// Per conversation, the highest seq a sync sent on this connection: a live push at or
    /// below it was committed before the sync read that conversation, so the sync held it.
    var syncedThrough: [UInt64: UInt64] = [:]
    /// When this connection last relayed TYPING, per conversation (uptime ms).
    var lastTyping: [UInt64: UInt64] = [:]

    static let maxDeferredMessages = 20_000

    init(connection: Connection) { self.connection = connection }

    var userID: UInt64? { user?.id }

    /// Sends a success answer, unless the request asked for none (request id 0).
    func reply<M: WireMessage>(_ requestID: UInt32, _ message: M, compress: Bool = false) {
        guard requestID != 0 else { return }
        connection.send(message.frame(requestID: requestID, compress: compress && zlib))
    }

    func fail(_ requestID: UInt32, _ error: ErrorFrame) {
        connection.send(error.frame(requestID: requestID))
    }

    func push<M: WireMessage>(_ message: M) {
        connection.send(message.frame(requestID: 0))
    }

    /// Pushes a stored message unless this connection already has it (see `syncedThrough`).
    func pushMessage(_ message: ChatMessage, frame: Frame) {
        if sync != nil {
            deferredMessages.append(message)
            if deferredMessages.count > Peer.maxDeferredMessages {
                // The client reads its sync too slowly to keep up with live traffic; it will
                // reconnect and sync again, so nothing is lost.
                connection.close(after: ErrorFrame(.outputOverflow, "too many messages waiting behind an unfinished sync"),
                                 reason: .outputOverflow)
            }
            return
        }
        if let through = syncedThrough[message.conversationID], message.seq <= through { return }
        connection.send(frame)
    }
}
