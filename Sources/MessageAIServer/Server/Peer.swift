import MessageAIProtocol

/// What the server knows about one connection: handshake, login and sync state.
/// Owned by the hub queue like everything in `ChatServer`.
// @unchecked Sendable: confined to the hub queue; work off the hub only carries it back there.
final class Peer: @unchecked Sendable {
    let connection: Connection
    var id: UInt64 { connection.id }
    var address: String { connection.address }

    var greeted = false
    /// Both sides announced zlib: large answers go out compressed.
    var zlib = false
    /// The zlib level compressed answers use (`ServerConfiguration.compressionLevel`).
    let compressionLevel: Int32
    /// The client announced messageChanges: it gets MESSAGE_CHANGE pushes and sync changes.
    var messageChanges = false
    /// Both sides announced the assistant: its frames may be sent and pushed.
    var assistant = false
    /// Both sides announced `files`: FILE_* frames are allowed.
    var files = false
    /// Both sides announced `avatars` (with `files`): it gets PROFILE pushes of new pictures.
    var avatars = false
    /// Logging in lifts the connection's small pre-login frame limit; logging out restores it.
    var user: UserRecord? {
        didSet { connection.setAuthenticated(user != nil) }
    }
    var sessionID: UInt64 = 0
    /// When the connection was accepted (ms since 1970), for `admin online`.
    let connectedAt = Clock.nowMillis()

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
    /// Like `deferredMessages` and `syncedThrough`, for changes (messageChanges only).
    var deferredChanges: [MessageChange] = []
    var changesSyncedThrough: [UInt64: UInt64] = [:]
    /// When this connection last relayed TYPING, per conversation (uptime ms).
    var lastTyping: [UInt64: UInt64] = [:]

    static let maxDeferredMessages = 20_000

    init(connection: Connection, compressionLevel: Int32 = 1) {
        self.connection = connection
        self.compressionLevel = compressionLevel
    }

    var userID: UInt64? { user?.id }

    /// Sends a success answer, unless the request asked for none (request id 0).
    func reply<M: WireMessage>(_ requestID: UInt32, _ message: M, compress: Bool = false) {
        guard requestID != 0 else { return }
        connection.send(message.frame(requestID: requestID, compress: compress && zlib, level: compressionLevel))
    }

    /// Sends the ERROR frame of `error` (`ServerError+Frame.swift`) as the answer.
    func fail(_ requestID: UInt32, _ error: ServerError) {
        connection.send(error.frame.frame(requestID: requestID))
    }

    func push<M: WireMessage>(_ message: M) {
        connection.send(message.frame(requestID: 0))
    }

    /// Pushes a stored message unless this connection already has it (see `syncedThrough`).
    /// `frame` is the MESSAGE push encoded once for every recipient (`Frame.encoded()`).
    func pushMessage(_ message: ChatMessage, frame: [UInt8]) {
        if sendsNow(message, holding: &deferredMessages, syncedThrough: syncedThrough, what: "messages") {
            // Without `files` the shared frame's attachment field must not reach the client.
            if message.attachment != nil, !files {
                connection.send(shown(message).frame(requestID: 0))
            } else {
                connection.send(encoded: frame)
            }
        }
    }

    /// Pushes a stored change to a connection that speaks messageChanges, unless a sync on it
    /// already carried it.
    func pushChange(_ change: MessageChange, frame: Frame) {
        guard messageChanges else { return }
        if sendsNow(change, holding: &deferredChanges, syncedThrough: changesSyncedThrough, what: "changes") {
            connection.send(frame)
        }
    }

    /// Whether a live push of a conversation's `seq`-numbered item goes out now. Behind an
    /// unfinished sync it waits in `held` (sent after SYNC_DONE); an item at or below what a
    /// sync sent for its conversation was committed before the sync read it, so the sync held it.
    private func sendsNow<Item: SequencedPush>(_ item: Item, holding held: inout [Item],
                                               syncedThrough: [UInt64: UInt64], what: String) -> Bool {
        if sync != nil {
            held.append(item)
            if held.count > Peer.maxDeferredMessages {
                // The client reads its sync too slowly to keep up with live traffic; it will
                // reconnect and sync again, so nothing is lost.
                connection.close(after: ServerError.syncOverflow(what: what).frame,
                                 reason: .outputOverflow)
            }
            return false
        }
        if let through = syncedThrough[item.conversationID], item.seq <= through { return false }
        return true
    }

    /// A message as this connection may see it: a client without messageChanges reads a
    /// deleted message as the words "message deleted" rather than an empty line; a client
    /// without `files` gets no attachment field, only the text, which the server stored as
    /// `[file: NAME (SIZE)] CAPTION` (PROTOCOL.md, "Files").
    func shown(_ m: ChatMessage) -> ChatMessage {
        let deletedText = m.deleted && !messageChanges
        let hidesAttachment = m.attachment != nil && !files
        guard deletedText || hidesAttachment else { return m }
        var m = m
        if deletedText { m.text = "message deleted" }
        if hidesAttachment { m.attachment = nil }
        return m
    }

    /// A conversation whose preview is changed by `shown(_:)`.
    func shown(_ c: Conversation) -> Conversation {
        guard let last = c.lastMessage, (last.deleted && !messageChanges) || (last.attachment != nil && !files) else { return c }
        var c = c
        c.lastMessage = c.lastMessage.map(shown)
        return c
    }
}

/// A live push that a sync may already have carried: messages and changes share one
/// sequence per conversation.
protocol SequencedPush {
    var conversationID: UInt64 { get }
    var seq: UInt64 { get }
}

extension ChatMessage: SequencedPush {}
extension MessageChange: SequencedPush {}
