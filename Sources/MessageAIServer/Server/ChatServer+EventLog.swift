import MessageAIProtocol
import MessageAIStore

/// The reader of the event log (several nodes on one database, issue 26): wakes on the
/// store's wake-ups (LISTEN) and on a poll, reads the committed events after its cursor, and
/// hands them to the delivery's lanes (`ClusterDelivery`) and, for another node's membership
/// changes, to this node's audience cache and members. Hub queue; nothing on one node.
extension ChatServer {
    /// The backstop for a lost wake-up: a notification lost, or the LISTEN connection down.
    static let eventLogPollMillis: UInt64 = 1_000
    /// Events older than this are deleted. A node away longer re-reads nothing: its clients
    /// sync when they log in again, as after any restart.
    static let eventLogRetentionMillis: UInt64 = 3_600_000
    static let eventLogPurgeEveryMillis: UInt64 = 60_000
    static let eventLogBatch = 500
    /// A read that found events held back reads again after this, doubling up to the poll:
    /// the transaction holding them back may commit without a wake-up (a heartbeat).
    static let eventLogHeldRetryMillis: UInt64 = 2

    func startEventLog() {
        guard let cluster, eventFeed == nil else { return }
        eventFeed = Task.immediate(executorPreference: hub) { [self] in await readEventLog(cluster) }
    }

    private func readEventLog(_ cluster: ClusterDelivery) async {
        let log = cluster.log
        var start: LogStart?
        while start == nil && !Task.isCancelled {
            do {
                start = try await log.start()
            } catch {
                logger.error("event log: cannot start reading: \(error)")
                try? await Task.sleep(for: .seconds(1))
            }
        }
        guard let start else { return }
        cluster.begin(lastSeqs: start.lastSeqs, online: start.online)
        var cursor = start.cursor
        let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // On the hub: the reader it wakes runs there next, without another thread's wake-up between.
        let wakes = Task(executorPreference: hub) { for await _ in log.wakeUps() { signal.yield() } }
        let poll = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Self.eventLogPollMillis))
                signal.yield()
            }
        }
        var retry: Task<Void, Never>?
        var retryMillis: UInt64 = 0
        defer {
            wakes.cancel()
            poll.cancel()
            retry?.cancel()
        }
        var purged = Clock.uptimeMillis()
        for await _ in signals {
            guard !Task.isCancelled else { break }
            let began = Clock.uptimeMillis()
            let read = await readEvents(after: cursor, cluster)
            cursor = read.cursor
            databaseAnswered(read.reached, askedAt: began)
            if read.heldBack {
                retryMillis = min(max(retryMillis * 2, Self.eventLogHeldRetryMillis), Self.eventLogPollMillis)
                retry?.cancel()
                retry = Task { [retryMillis] in
                    try? await Task.sleep(for: .milliseconds(retryMillis))
                    if !Task.isCancelled { signal.yield() }
                }
            } else {
                retryMillis = 0
            }
            let now = Clock.uptimeMillis()
            await cluster.unstall(now: now)
            if now >= purged + Self.eventLogPurgeEveryMillis {
                purged = now
                _ = try? await log.purgeEvents(olderThan: Clock.nowMillis() &- Self.eventLogRetentionMillis)
                // The shared limits' rows that say nothing any more (full buckets, forgotten failures).
                _ = try? await store.limits?.purgeLimits()
            }
        }
    }

    /// Reads until the log has nothing more to give; returns the new cursor (the old one if
    /// the database is away: the next wake-up or poll reads again), false when the database
    /// could not be reached, and whether committed events were held back past the horizon.
    private func readEvents(after start: LogPosition, _ cluster: ClusterDelivery) async
        -> (cursor: LogPosition, reached: Bool, heldBack: Bool) {
        var cursor = start
        while true {
            let read: LogRead
            do {
                read = try await cluster.log.read(after: cursor, limit: Self.eventLogBatch)
            } catch StoreError.unavailable {
                return (cursor, false, false)
            } catch {
                return (cursor, true, false)
            }
            let events = read.events
            // The messages the read brought, for their lanes (no second query when they cover it).
            var fetched: [UInt64: [LogEntry]] = [:]
            for entry in read.entries { fetched[entry.conversationID, default: []].append(entry) }
            // Of several seqs of a conversation in a row, the last says it all; a membership
            // change is applied in its place, so later messages reach a member it added.
            var reached: [(UInt64, [CommitEvent])] = []
            var renewed: [UInt64] = []
            var receipts: [(UInt64, UInt64)] = []
            var contacts: [(UInt64, UInt64)] = []
            var ephemeral: [CommitEvent] = []
            var items: [(UInt64, [UInt64], version: UInt64)] = []
            func flush() async {
                for (conversation, seqs) in reached {
                    await cluster.reached(conversation, seq: seqs.map(\.seq).max() ?? 0, events: seqs,
                                          entries: fetched[conversation] ?? [])
                }
                reached = []
            }
            for event in events {
                switch event.kind {
                case .message, .change:
                    if let i = reached.firstIndex(where: { $0.0 == event.conversationID }) {
                        reached[i].1.append(event)
                    } else {
                        reached.append((event.conversationID, [event]))
                    }
                case .membership:
                    guard !event.own else { continue }
                    await flush()
                    cluster.membershipChanged()
                    if !renewed.contains(event.conversationID) { renewed.append(event.conversationID) }
                case .receipt:
                    let key = (event.conversationID, event.userID)
                    if !event.own && !receipts.contains(where: { $0 == key }) { receipts.append(key) }
                case .presence:
                    cluster.presence(event.userID, online: event.seq == 0)
                    if !event.own { ephemeral.append(event) }
                case .typing, .sessionEnded, .profile:
                    // This node did its own at once (the reaper's offline ones too).
                    if !event.own { ephemeral.append(event) }
                case .contact:
                    if !event.own && delivery.isOnline(event.toUserID) { contacts.append((event.userID, event.toUserID)) }
                case .assistItem:
                    // By conversation: an extraction's burst is read once per conversation.
                    guard !event.own else { continue }
                    if let i = items.firstIndex(where: { $0.0 == event.conversationID }) {
                        if !items[i].1.contains(event.seq) { items[i].1.append(event.seq) }
                        items[i].version = max(items[i].version, event.membersVersion)
                    } else {
                        items.append((event.conversationID, [event.seq], event.membersVersion))
                    }
                }
            }
            await flush()
            for conversation in renewed { await pushMembership(conversation) }
            for (conversation, user) in receipts { await pushReceipt(conversation, of: user, cluster) }
            for event in ephemeral { await applyNodeEvent(event) }
            for (conversation, ids, version) in items {
                await pushNodeItems(ids, of: conversation, membersVersion: version, cluster)
            }
            // A contact request or accept made on another node: told as `announceContact` tells it there.
            for (user, target) in contacts {
                do {
                    if let record = try await store.user(id: user) { try await announceContact(record, to: target) }
                } catch {
                    logger.error("event log: CONTACT push to user \(target) failed: \(error)")
                }
            }
            if let last = events.last { cursor = last.position }
            if read.heldBack || events.count < Self.eventLogBatch { return (cursor, true, read.heldBack) }
        }
    }

    /// Another node raised a member's markers: the receipt goes to the members' connections
    /// here as `mark` sends it (the markers as they are now; they only rise). A message
    /// request's holder tells the others the delivered marker only.
    private func pushReceipt(_ conversationID: UInt64, of userID: UInt64, _ cluster: ClusterDelivery) async {
        guard await cluster.local.hasAudience(conversationID) else { return }
        do {
            let markers = try await store.markers(conversationID: conversationID)
            guard let marker = markers.first(where: { $0.user.userID == userID }) else { return }
            let receipt = Receipt(conversationID: conversationID, userID: userID, username: marker.user.username,
                                  deliveredSeq: marker.deliveredSeq, readSeq: marker.readSeq)
            var shared = receipt
            if marker.pending { shared.readSeq = 0 }
            delivery.send(receipt.frame(requestID: 0), to: [userID])
            delivery.send(shared.frame(requestID: 0), to: markers.map(\.user.userID).filter { $0 != userID })
        } catch {
            logger.error("event log: RECEIPT push in \(conversationID) failed: \(error)")
        }
    }

    /// Another node changed who is in the conversation (or its name): its members here are
    /// shown their view, as the handler shows them on the node that changed it. In a direct
    /// conversation, someone who blocks the other is not shown it (as `openDirect` does).
    private func pushMembership(_ conversationID: UInt64) async {
        do {
            let members = try await store.memberIDs(conversationID: conversationID)
            var shown = members
            if members.count == 2, let record = try await store.conversation(id: conversationID), record.kind == .direct {
                shown = []
                for (me, other) in [(members[0], members[1]), (members[1], members[0])]
                where delivery.isOnline(me) {
                    if !(try await store.contactLink(me, other).iBlock) { shown.append(me) }
                }
            }
            await pushConversation(conversationID, to: shown, except: nil)
        } catch {
            logger.error("event log: CONVERSATION push of \(conversationID) failed: \(error)")
        }
    }
}
