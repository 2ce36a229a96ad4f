import Foundation
import MessageAIProtocol

/// A live push held back because an earlier seq of its conversation is missing.
struct HeldPush {
    enum Item { case message(ChatMessage), change(MessageChange) }
    var item: Item
    /// A fill started while it was held: after that fill it is applied even if a hole stays
    /// (a seq the server has no record for this user, e.g. a change it did not keep).
    var tried = false

    var conversationID: UInt64 {
        switch item { case .message(let m): m.conversationID; case .change(let c): c.conversationID }
    }
    var seq: UInt64 {
        switch item { case .message(let m): m.seq; case .change(let c): c.seq }
    }
}

/// What the client knows of the holes in its conversations. Several server nodes push from
/// an event log each, so a push may overtake another across a failover, and a SEND_ACK may
/// name a seq past messages of other nodes not delivered yet: the client fills such a gap
/// with a SYNC instead of moving its position past it (PROTOCOL.md, "When a node dies").
struct GapFill {
    /// Per conversation, the pushes that wait for a fill, in arrival order.
    var held: [UInt64: [HeldPush]] = [:]
    var inFlight = false
    /// A gap seen while a fill ran: another fill follows it.
    var again = false
    /// Told apart from fills of an older connection, whose answers no longer count.
    var generation = 0
    /// The floors on disk as last read (nil: read again): `hasGap` asks per push.
    var floors: [UInt64: UInt64]?
}

extension Client {
    /// A live MESSAGE: applied now, or held while its conversation has a hole before it.
    func receiveMessage(_ m: ChatMessage) {
        guard hasGap(before: m.seq, in: m.conversationID) else { return handleMessage(m, via: "live") }
        hold(HeldPush(item: .message(m)))
    }

    /// A live MESSAGE_CHANGE: changes take seqs too, so one can show a hole like a message.
    func receiveChange(_ c: MessageChange) {
        guard hasGap(before: c.seq, in: c.conversationID) else { return handleChange(c) }
        hold(HeldPush(item: .change(c)))
    }

    /// After a SEND_ACK or a change's: `seq` is stored now; seqs between `before` (the position
    /// before it) and it are messages of others not received yet, filled by a SYNC.
    func acknowledgedAt(_ seq: UInt64, in cid: UInt64, before: UInt64) {
        guard synced, seq > before + 1 else { return }
        // The acknowledged message is stored, so the position is past the hole: the floor
        // (on disk) makes the next SYNC start below it, this fill's or the next connection's.
        try? store?.lowerSyncFloor(cid, to: before)
        gaps.floors = nil
        requestFill()
    }

    private func hasGap(before seq: UInt64, in cid: UInt64) -> Bool {
        // While pushes of the conversation are held, later ones queue behind them to keep the order.
        guard let store else { return false }
        if gaps.held[cid] != nil { return true }
        // A hole below an own acknowledged message: what comes after waits for its fill too
        // (the connection's own SYNC starts from the floors, so only after it).
        if synced, cachedFloors()[cid] != nil { return true }
        // Also during the connection's SYNC: a node may push seq 7 before the answer brings
        // 4-6 (a reconnect after a failover), and shown at once it would come before them.
        let position = (try? store.position(in: cid)) ?? 0
        return seq > position + 1
    }

    private func cachedFloors() -> [UInt64: UInt64] {
        if let floors = gaps.floors { return floors }
        let floors = (try? store?.syncFloors()) ?? [:]
        gaps.floors = floors
        return floors
    }

    private func hold(_ push: HeldPush) {
        gaps.held[push.conversationID, default: []].append(push)
        // During the connection's SYNC its answer is the fill (`releaseHeldAfterSync`).
        if synced { requestFill() }
    }

    /// After the connection's SYNC and its catch-up lines: the pushes held meanwhile follow in
    /// seq order (a copy the SYNC already brought is ignored); a hole still below one is filled.
    func releaseHeldAfterSync() {
        guard !gaps.inFlight, !gaps.held.isEmpty else { return }
        finishFill()
    }

    private func requestFill() {
        if gaps.inFlight { gaps.again = true } else { startFill() }
    }

    /// The positions a SYNC sends: the store's, lowered to the floors of acknowledged gaps.
    func syncPositionsWithFloors() -> [SyncPosition] {
        var positions = (try? store?.syncPositions()) ?? []
        let floors = (try? store?.syncFloors()) ?? [:]
        for (i, p) in positions.enumerated() {
            if let floor = floors[p.conversationID], floor < p.lastSeq { positions[i].lastSeq = floor }
        }
        return positions
    }

    /// After a SYNC from the floors `used` is done: those holes are filled.
    func clearFloors(_ used: [UInt64: UInt64]) {
        for (cid, floor) in used { try? store?.clearSyncFloor(cid, at: floor) }
        gaps.floors = nil
    }

    /// A new connection: its own SYNC covers what was held (held pushes never moved a
    /// position); the floors stay until a SYNC that used them is done.

    func resetGapFill() {
        gaps.held = [:]
        gaps.inFlight = false
        gaps.again = false
        gaps.generation += 1
        gaps.floors = nil  // a new connection may be another account's store
    }

    /// One SYNC for every conversation from its position: the answer's messages and changes are
    /// applied as live ones in seq order, then the held pushes.
    private func startFill() {
        guard let store, link.state == .online else { return }
        gaps.inFlight = true
        gaps.again = false
        let generation = gaps.generation
        for cid in gaps.held.keys { gaps.held[cid] = gaps.held[cid]!.map { var p = $0; p.tried = true; return p } }
        let usedFloors = (try? store.syncFloors()) ?? [:]
        let positions = syncPositionsWithFloors()
        // Conversations held from nothing (a group one was just added to, with its history):
        // their earlier messages are history, not news.
        let fromNothing = Set(positions.filter { $0.lastSeq == 0 }.map(\.conversationID))
        link.request(SyncRequest(positions: positions), timeout: 60) { [weak self] result in
            guard let self, self.store === store, self.gaps.generation == generation else { return true }
            switch result {
            case .success(let frame) where frame.type == .syncBatch:
                if let batch = try? frame.decode(SyncBatch.self) { self.applyFill(batch, quiet: fromNothing) }
                return false
            case .success(let frame) where frame.type == .syncDone:
                self.clearFloors(usedFloors)
                self.finishFill()
                return true
            case .failure:
                // The link is gone: the next connection's SYNC covers what was held (held
                // pushes never moved a position, and the floors stay).
                self.resetGapFill()
                return true
            default:
                // Refused (the database unavailable on that node, a limit): the holes are not
                // filled, so nothing held is applied; the fill is tried again shortly.
                self.gaps.inFlight = false
                for cid in self.gaps.held.keys { self.gaps.held[cid] = self.gaps.held[cid]!.map { var p = $0; p.tried = false; return p } }
                DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [weak self] in
                    guard let self, self.gaps.generation == generation, !self.gaps.inFlight else { return }
                    if !self.gaps.held.isEmpty || !((try? self.store?.syncFloors()) ?? [:]).isEmpty { self.startFill() }
                }
                return true
            }
        }
    }

    private func applyFill(_ batch: SyncBatch, quiet: Set<UInt64>) {
        guard let store else { return }
        for c in batch.conversations { try? store.upsert(c) }
        var items = batch.messages.map { HeldPush(item: .message($0)) } + batch.changes.map { HeldPush(item: .change($0)) }
        items.sort { ($0.conversationID, $0.seq) < ($1.conversationID, $1.seq) }
        // Held pushes of a conversation held from nothing stay news; what the fill brought
        // below them is stored and reported to --json only (no line, no notification).
        let heldFrom = gaps.held.mapValues { $0.map(\.seq).min() ?? 0 }
        for p in items {
            if quiet.contains(p.conversationID), case .message(let m) = p.item, m.seq < heldFrom[m.conversationID] ?? .max {
                storeQuietly(m)
            } else {
                apply(p, via: "gap")
            }
        }
        for r in batch.receipts { applyReceipt(r, announce: false) }
    }

    private func storeQuietly(_ m: ChatMessage) {
        let sentHere = outbox?.entries.contains { $0.clientID == Hex.encode(m.clientID) } ?? false
        guard let added = try? store?.insert([m], sentHere: sentHere ? [Hex.encode(m.clientID)] : []), !added.isEmpty, !sentHere else { return }
        var line = self.line(StoredMessage(m, sentHere: false), conversation: conversationName(m.conversationID, fallback: m.senderUsername))
        line.via = "gap"
        output.emit(MessageEvent.summarised(line))
    }

    private func apply(_ p: HeldPush, via: String) {
        switch p.item {
        case .message(let m): handleMessage(m, via: via)
        case .change(let c): handleChange(c)
        }
    }

    /// Applies the held pushes in seq order; one still behind a hole it was not filled for
    /// yet (it came during the fill) stays held for the next fill.
    func finishFill() {
        gaps.inFlight = false
        let held = gaps.held
        gaps.held = [:]
        for (cid, pushes) in held {
            for p in pushes.sorted(by: { $0.seq < $1.seq }) {
                let position = (try? store?.position(in: cid)) ?? 0
                if gaps.held[cid] != nil || (!p.tried && p.seq > position + 1) {
                    gaps.held[cid, default: []].append(p)
                    gaps.again = true
                } else {
                    apply(p, via: "live")
                }
            }
        }
        if gaps.again { startFill() }
    }
}
