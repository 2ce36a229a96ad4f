import Dispatch
import MessageAIProtocol

/// SEND's group commit.
///
/// The first SEND queued (`pendingSends`) schedules a commit at the end of the hub's current
/// work: every SEND that arrives before that block runs, including those whose read events
/// queued up meanwhile, goes into the same `store.append` transaction. At most one batch is in
/// flight: while the store works on one (a database across the network suspends here), the
/// next gathers, and it starts as soon as the first has ended. Batches end in the order they
/// started, so acks and pushes leave in sequence order. A batch holds at most
/// `maxCommitBatch` SENDs: the rest wait for the next one.
///
/// On SQLite the append answers inline (`Store` is `nonisolated(nonsending)`): the commit has
/// ended, acks and pushes written, before `commitPendingSends` returns, as before the store
/// became asynchronous. CHANGE and shutdown await `commitQueuedSends` instead, which also
/// covers a store that suspends.
extension ChatServer {
    /// Why a cap: every ack of a batch waits for its slowest message, and a batch of thousands
    /// (3,000 pipelined SENDs made one) can outlast the store's deadline on a loaded machine,
    /// failing them all. 256 keeps a batch's commit to tens of milliseconds on PostgreSQL,
    /// while W2's 50 messages in flight still fit in one.
    static let maxCommitBatch = 256

    /// A SEND was queued: commit at the end of this turn, unless a commit is already scheduled
    /// or in flight (its end starts the next batch).
    func scheduleCommit() {
        guard !commitScheduled, !commitInFlight else { return }
        commitScheduled = true
        // Acks and pushes of the whole batch are written together at the end.
        queue.async { [self] in output.turn { commitPendingSends() } }
    }

    /// Starts committing what is queued, unless a batch is in flight.
    func commitPendingSends() {
        commitScheduled = false
        guard !commitInFlight, !pendingSends.isEmpty else { return }
        let batch = Array(pendingSends.prefix(Self.maxCommitBatch))
        pendingSends.removeFirst(batch.count)
        commitInFlight = true
        commitsStarted += 1
        Task.immediate(executorPreference: hub) { [self] in
            await commit(batch)
            commitInFlight = false
            commitsEnded += 1
            let waiting = commitWaiters
            commitWaiters = []
            for w in waiting { w.resume() }
            // What gathered while this batch was in flight is the next one.
            if !pendingSends.isEmpty, !commitScheduled { commitPendingSends() }
        }
    }

    /// Returns once every SEND queued so far is committed (answered): a CHANGE after a SEND on
    /// one connection keeps that order. It waits for those batches only, not for SENDs queued
    /// later, and returns without suspending when nothing is queued or the store answers inline.
    func commitQueuedSends() async {
        if !pendingSends.isEmpty, !commitInFlight { commitPendingSends() }
        // Batches leave in order, at most `maxCommitBatch` each: what is queued now is in the
        // next ceil(count / cap) of them.
        let target = commitsStarted + UInt64((pendingSends.count + Self.maxCommitBatch - 1) / Self.maxCommitBatch)
        while commitsEnded < target {
            // The test is made again inside: entering `withCheckedContinuation` (nonisolated)
            // may hop through the hub's executor, and a batch that ended during that hop has
            // already resumed its waiters: appending then would wait for ever (seen: a CHANGE
            // pipelined behind a SEND never answered, with a store that suspends).
            await withCheckedContinuation { waiter in
                if commitsEnded >= target { waiter.resume() } else { commitWaiters.append(waiter) }
            }
        }
    }

    private func commit(_ batch: [PendingSend]) async {
        let outcomes: [AppendOutcome]
        do {
            let started = ServerMetrics.now
            outcomes = try await store.append(batch.map(\.message))
            metrics.commitLatency.recordNanoseconds(Int64(clamping: ServerMetrics.now &- started))
        } catch StoreError.diskFull {
            // Nothing was stored; every sender is told and its client retries later.
            log(StoreError.diskFull, context: "append")
            for p in batch { p.peer.fail(p.requestID, .storageFull) }
            return
        } catch StoreError.unavailable(let why) {
            // The database is away: no message of the batch is to blame, and committing them one
            // by one would make each sender wait out the store's deadline in turn. Nothing was
            // acknowledged; every sender gets 77 at once and its outbox resends.
            log(StoreError.unavailable(why), context: "append")
            for p in batch { p.peer.fail(p.requestID, .databaseUnavailable) }
            return
        } catch {
            guard batch.count > 1 else {
                if let e = error as? StoreError { log(e, context: "append") }
                logger.error("append failed: \(error)")
                batch[0].peer.fail(batch[0].requestID, ServerError(error))
                return
            }
            // One bad message must not fail the others: commit them one by one.
            for p in batch { await commit([p]) }
            return
        }
        commitStats.transactions += 1
        commitStats.messages += batch.count
        scheduleIndexing(after: batch.count)
        logger.trace("committed \(batch.count) message(s) in one transaction")
        var committed: [ChatMessage] = []
        defer { extractAfterCommit(committed) }
        for (pending, outcome) in zip(batch, outcomes) {
            let (m, isNew): (ChatMessage, Bool)
            var membersVersion: UInt64 = 0
            switch outcome {
            case .stored(let stored): (m, isNew, membersVersion) = (ChatMessage(stored), true, stored.membersVersion)
            case .duplicate(let original): (m, isNew) = (ChatMessage(original), false)
            case .clientIDReused(let original):
                pending.peer.fail(pending.requestID, .clientIDReused(original == nil ? .sendAfterChange : .sendAfterMessage))
                continue
            case .refused:
                await checkAgain(pending)
                continue
            case .rateLimited(let wait):
                // The shared send limit (`store.limits`), counted in the append's transaction.
                metrics.rateLimited.increment()
                pending.peer.fail(pending.requestID, .rateLimited(.sending(retryAfter: wait)))
                continue
            }
            pending.peer.reply(pending.requestID, SendAck(conversationID: m.conversationID, clientID: m.clientID,
                                                          seq: m.seq, serverTime: m.serverTime, duplicate: !isNew))
            metrics.recordAck(since: pending.receivedAt)
            // A resend was pushed when it was first stored.
            guard isNew else { continue }
            metrics.messagesAccepted.increment()
            if assistant != nil { committed.append(m) }
            // Encoded once; each recipient's output copies the bytes.
            let frame = m.frame(requestID: 0).encoded()
            // Every connection of every member, the sender's other sessions included;
            // the sending connection has its SEND_ACK. The members are those the seq was taken
            // under or later: one removed through another node meanwhile is not pushed it.
            let pushed = await delivery.deliver(m, frame: frame, except: pending.peer, membersVersion: membersVersion)
            if pushed > 0 { metrics.deliveries.increment(by: Int64(pushed)) }
        }
    }

    /// The append refused a SEND whose sender's membership this node had seen hold (the
    /// sender left, was removed or blocked since, perhaps on another node): the handler's own
    /// checks, made again, answer with the reason. If they pass now (a message request to
    /// accept first, or a member added back), the SEND is queued again, checked.
    private func checkAgain(_ pending: PendingSend) async {
        let sender = SenderCheck(conversationID: pending.message.conversationID, userID: pending.message.senderID)
        confirmedSenders.remove(sender)
        do {
            try await checkSender(sender)
        } catch {
            pending.peer.fail(pending.requestID, ServerError(error))
            return
        }
        var again = pending
        again.message.confirmMembership = false
        pendingSends.append(again)
        scheduleCommit()
    }

    /// Messages indexed per batch: FTS5 writes a segment per transaction, so one-message
    /// transactions cost the most; 256 keeps the pending set (and a search's catch-up) small.
    static let indexBatch = 256

    /// Indexing runs as its own block on the hub queue, after this commit's acks were written.
    private func scheduleIndexing(after committed: Int) {
        unindexedMessages += committed
        guard unindexedMessages >= Self.indexBatch, !indexScheduled else { return }
        indexScheduled = true
        queue.async { [self] in indexMessages() }
    }

    /// The store's deferred search work (`DeferredWork.catchUpSearch`), through the interface.
    func indexMessages() {
        indexScheduled = false
        unindexedMessages = 0
        // On failure (disk full) the messages stay stored and unindexed; the next batch or
        // search retries.
        Task.immediate(executorPreference: hub) { [self] in
            do { try await store.runDeferred(.catchUpSearch) } catch { logger.error("indexing messages failed: \(error)") }
        }
    }
}
