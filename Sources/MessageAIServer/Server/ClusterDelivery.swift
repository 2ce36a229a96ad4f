import MessageAIProtocol

/// The `Delivery` of a node that shares its database with others (a store with an event log,
/// issue 26): `LocalDelivery` for everything, but messages and changes go out through one
/// lane per conversation that pushes each seq once, in seq order, whichever node committed it.
///
/// A lane's `mark` is the last seq pushed (or known to need no push). Two sources advance it:
/// - this node's commits (`deliver`), held until every lower seq went out, then pushed with
///   their `except` (the sender's connection, which has its ack);
/// - the log's reader (`reached`): "the conversation reached seq s" means every seq up to s
///   is committed (a seq is taken under the conversation row's lock), so the lane pushes
///   the range (mark, s] that it did not commit itself: the messages the reader's query
///   brought with the events when they cover it, else read from the store (`entries`).
/// A seq this node committed but whose `deliver` has not come yet (the reader was quicker
/// than the handler) stalls the lane until it comes; after `stallLimit` the lane pushes it
/// from the store instead (to everyone: no handler is left to name the sender's connection).
///
/// Hub queue only. Until `begin` (the log's start), commits are pushed at once, as on one node.
final class ClusterDelivery: Delivery {
    let local: LocalDelivery
    let log: any EventLog
    static let stallLimitMillis: UInt64 = 2_000

    private enum Item {
        case message(ChatMessage, frame: [UInt8], except: Peer?, membersVersion: UInt64)
        case change(MessageChange, except: Peer?, membersVersion: UInt64)
    }

    private struct Lane {
        var mark: UInt64 = 0
        var target: UInt64 = 0
        var held: [UInt64: Item] = [:]
        var filling = false
        var stalledSince: UInt64?
        /// Events of seqs above the mark that the reader read (so `entries` need not read them).
        var known: [UInt64: CommitEvent] = [:]
        /// Messages above the mark that the reader's query brought with their events: when
        /// they cover the range to push, `entries` is not asked at all.
        var fetched: [UInt64: LogEntry] = [:]
    }

    private var lanes: [UInt64: Lane] = [:]
    private var begun = false
    /// The users on some node, as the log tells it (the start's set, then presence events):
    /// what a profile shows as online. Pushes go by `isOnline`, this node's connections only.
    private var onSomeNode: Set<UInt64> = []

    init(local: LocalDelivery, log: any EventLog) {
        self.local = local
        self.log = log
    }

    /// The log's start: each conversation's last seq at the reader's cursor.
    func begin(lastSeqs: [UInt64: UInt64], online: Set<UInt64>) {
        onSomeNode = online
        for (conversation, seq) in lastSeqs {
            // A commit pushed before the start counts too: it is not pushed again.
            let pushed = lanes[conversation]?.mark ?? 0
            lanes[conversation] = Lane(mark: max(seq, pushed), target: max(seq, pushed))
        }
        begun = true
    }

    // MARK: The log's side

    /// The conversation reached `seq` (an event of the log). `force`: a stalled seq of this
    /// node's is pushed from the store.
    func reached(_ conversationID: UInt64, seq: UInt64, events: [CommitEvent] = [], entries: [LogEntry] = [],
                 force: Bool = false) async {
        var lane = lanes[conversationID] ?? Lane()
        lane.target = max(lane.target, seq)
        for event in events where event.seq > lane.mark { lane.known[event.seq] = event }
        for entry in entries where entry.seq > lane.mark { lane.fetched[entry.seq] = entry }
        let busy = lane.filling
        if !busy { lane.filling = true }
        lanes[conversationID] = lane
        guard !busy else { return }
        await fill(conversationID, force: force)
        lanes[conversationID]?.filling = false
    }

    /// Lanes stalled longer than the limit are pushed from the store (the reader's poll calls this).
    func unstall(now: UInt64) async {
        let stalled = lanes.filter { $0.value.stalledSince.map { now >= $0 + Self.stallLimitMillis } ?? false }
        for (conversation, lane) in stalled { await reached(conversation, seq: lane.target, force: true) }
    }

    private func fill(_ conversationID: UInt64, force: Bool) async {
        while let lane = lanes[conversationID], lane.mark < lane.target {
            if let item = lanes[conversationID]?.held.removeValue(forKey: lane.mark + 1) {
                _ = await push(item)
                lanes[conversationID]?.mark = lane.mark + 1
                continue
            }
            guard await local.hasAudience(conversationID) else {
                // Nobody here to tell: the seqs are only counted (a client that logs in later syncs).
                if var now = lanes[conversationID] {
                    now.mark = max(now.mark, lane.target)
                    now.held = now.held.filter { $0.key > lane.target }
                    lanes[conversationID] = now
                }
                continue
            }
            let through = min(lane.target, lane.mark + 1_000)
            var entries = ((lane.mark + 1)...through).compactMap { lane.fetched[$0] }
            if entries.count < Int(through - lane.mark) {
                do {
                    entries = try await log.entries(conversationID: conversationID, after: lane.mark, through: lane.target,
                                                    known: lane.known)
                } catch {
                    // The database is away: the next poll tries again.
                    stall(conversationID)
                    return
                }
            }
            for entry in entries {
                guard let mark = lanes[conversationID]?.mark, entry.seq > mark else { continue }
                if let item = lanes[conversationID]?.held.removeValue(forKey: entry.seq) {
                    _ = await push(item)
                } else if entry.own && !force {
                    stall(conversationID)
                    lanes[conversationID]?.mark = entry.seq - 1
                    return
                } else {
                    await push(entry)
                }
                lanes[conversationID]?.mark = entry.seq
            }
            let mark = lanes[conversationID]?.mark ?? 0
            lanes[conversationID]?.mark = max(mark, through)
            lanes[conversationID]?.stalledSince = nil
        }
        lanes[conversationID]?.stalledSince = nil
        if var lane = lanes[conversationID], !lane.known.isEmpty || !lane.fetched.isEmpty {
            lane.known = lane.known.filter { $0.key > lane.mark }
            lane.fetched = lane.fetched.filter { $0.key > lane.mark }
            lanes[conversationID] = lane
        }
    }

    private func stall(_ conversationID: UInt64) {
        if lanes[conversationID]?.stalledSince == nil { lanes[conversationID]?.stalledSince = Clock.uptimeMillis() }
    }

    private func push(_ item: Item) async -> Int {
        switch item {
        case .message(let m, let frame, let except, let version):
            return await local.deliver(m, frame: frame, except: except, membersVersion: version)
        case .change(let c, let except, let version):
            try? await local.deliver(c, except: except, membersVersion: version)
            return 0
        }
    }

    /// Another node's commit (or this one's, stalled too long), as the store reads it back:
    /// with the members version its seq was taken under, from its event (schema v15). The
    /// reader applied every membership event logged before it, but a leave that committed
    /// just ahead of the seq can be logged after it (the log sorts by transaction id): the
    /// version says so, and the members are read again before it is pushed. An event written
    /// before v15 says 0, and the cached members stand.
    private func push(_ entry: LogEntry) async {
        switch entry {
        case .message(let stored, _):
            let m = ChatMessage(stored)
            _ = await local.deliver(m, frame: m.frame(requestID: 0).encoded(), except: nil, membersVersion: stored.membersVersion)
        case .change(let record, _):
            try? await local.deliver(MessageChange(record), except: nil, membersVersion: record.membersVersion)
        }
    }

    // MARK: This node's commits

    /// Pushed now when every lower seq went out; else held for the lane. Returns the
    /// connections pushed to now.
    private func offer(_ conversationID: UInt64, seq: UInt64, _ item: Item) async -> Int {
        guard begun else {
            let mark = lanes[conversationID]?.mark ?? 0
            lanes[conversationID, default: Lane()].mark = max(mark, seq)
            return await push(item)
        }
        var lane = lanes[conversationID] ?? Lane()
        // Pushed already, from the store, after it stalled the lane too long.
        guard seq > lane.mark else { return 0 }
        if seq == lane.mark + 1 && !lane.filling {
            lane.mark = seq
            lane.target = max(lane.target, seq)
            lane.stalledSince = nil
            // Busy while it is pushed: a push suspends when the audience is not cached (a store
            // query), and the next seq's push, started meanwhile, could finish first. It is
            // held instead, and follows this one.
            lane.filling = true
            lanes[conversationID] = lane
            let pushed = await push(item)
            lanes[conversationID]?.filling = false
            // It may have been what stalled the lane, or seqs came meanwhile: the rest follows it.
            if let now = lanes[conversationID], now.target > now.mark { await reached(conversationID, seq: now.target) }
            return pushed
        }
        lane.held[seq] = item
        lanes[conversationID] = lane
        await reached(conversationID, seq: seq)
        return 0
    }

    // MARK: Delivery

    @discardableResult
    func deliver(_ message: ChatMessage, frame: [UInt8], except: Peer?, membersVersion: UInt64) async -> Int {
        await offer(message.conversationID, seq: message.seq,
                    .message(message, frame: frame, except: except, membersVersion: membersVersion))
    }

    func deliver(_ change: MessageChange, except: Peer?, membersVersion: UInt64) async throws {
        _ = await offer(change.conversationID, seq: change.seq, .change(change, except: except, membersVersion: membersVersion))
    }

    func attach(_ peer: Peer, userID: UInt64) -> Bool { local.attach(peer, userID: userID) }
    func detach(_ peer: Peer, userID: UInt64) -> Bool { local.detach(peer, userID: userID) }
    func isOnline(_ userID: UInt64) -> Bool { local.isOnline(userID) }

    /// Connected here, or on another node as far as the log has told.
    func isOnlineOnSomeNode(_ userID: UInt64) -> Bool { local.isOnline(userID) || onSomeNode.contains(userID) }

    /// A presence event of the log (any node's, this one's too).
    func presence(_ userID: UInt64, online: Bool) {
        if online { onSomeNode.insert(userID) } else { onSomeNode.remove(userID) }
    }
    func membershipChanged() { local.membershipChanged() }
    func connections(of userID: UInt64) -> [Peer] { local.connections(of: userID) }
    var usersOnline: Int { local.usersOnline }

    func send(_ frame: Frame, toMembersOf conversationID: UInt64, except: Peer?, membersVersion: UInt64,
              only: (Peer) -> Bool) async throws {
        try await local.send(frame, toMembersOf: conversationID, except: except, membersVersion: membersVersion, only: only)
    }

    func send(to users: [UInt64], except: Peer?, only: (Peer) -> Bool, _ frameFor: (UInt64) throws -> Frame?) rethrows {
        try local.send(to: users, except: except, only: only, frameFor)
    }
}
