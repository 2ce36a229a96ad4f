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
    /// below it would be a duplicate.
    var syncedThrough: [UInt64: UInt64] = [:]
    /// When this connection last relayed TYPING, per conversation (uptime ms).
    var lastTyping: [UInt64: UInt64] = [:]

    /// Per conversation, the seqs this connection already has live (pushed, or acked to it as
    /// the sender) since its last sync: a SYNC leaves them out, so a push that raced ahead of
    /// the client's SYNC request is not sent twice. Pushes of a conversation come in ascending
    /// order, so this is about one range per conversation; it is bounded all the same.
    private var liveRanges: [UInt64: [ClosedRange<UInt64>]] = [:]
    private var liveRangeCount = 0
    static let maxLiveRanges = 256
    static let maxDeferredMessages = 20_000

    init(connection: Connection) { self.connection = connection }

    func noteHasLive(_ conversationID: UInt64, _ seq: UInt64) {
        var ranges = liveRanges[conversationID] ?? []
        if let last = ranges.last, last.contains(seq) { return }
        if let last = ranges.last, last.upperBound + 1 == seq {
            ranges[ranges.count - 1] = last.lowerBound...seq
        } else {
            guard liveRangeCount < Peer.maxLiveRanges else { return } // past the bound the client dedupes
            ranges.append(seq...seq)
            liveRangeCount += 1
        }
        liveRanges[conversationID] = ranges
    }

    func hasLive(_ conversationID: UInt64, _ seq: UInt64) -> Bool {
        liveRanges[conversationID]?.contains { $0.contains(seq) } ?? false
    }

    func forgetLive() {
        liveRanges = [:]
        liveRangeCount = 0
    }

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
        if connection.send(frame) { noteHasLive(message.conversationID, message.seq) }
    }
}
