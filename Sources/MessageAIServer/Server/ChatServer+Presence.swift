import MessageAIProtocol

/// Who is online, and telling their contacts.
///
/// Logging in and out is synchronous (the connection tables are the hub's); what follows from
/// it reads and writes the store (last seen, the presence audience, the away mark), so it runs
/// as a task on the hub. The announcements run one after the other, each after the one before
/// has ended (`announcements`, a `HubTaskChain`): a contact sees a user come online, then go
/// offline, in that order, even when the store suspends. On SQLite each ends inline.
extension ChatServer {
    /// The connection is now logged in as `user`; the first session online announces presence.
    ///
    /// Several nodes: returns once this node's `node_users` row of the user has committed, and
    /// the login is answered after it (LOGIN, REGISTER and RESUME await this). A logout of the
    /// user's other device on another node that the client makes after its answer then finds
    /// the row and announces nothing: no node shows the user offline for a moment. One node
    /// (SQLite, no `NodeRegistry`): nothing waits, it returns inline.
    func attachUser(_ peer: Peer, user: UserRecord, sessionID: UInt64) async {
        peer.user = user
        peer.sessionID = sessionID
        let cameOnline = delivery.attach(peer, userID: user.id)
        logger.debug("connection \(peer.id) from \(peer.address) is user \(user.username) (session \(sessionID))")
        if cameOnline { metrics.usersOnline.increment() }
        guard let nodes = store.nodes else {
            if cameOnline { broadcastPresence(of: user, online: true, lastSeen: 0) }
            return
        }
        if cameOnline {
            // Several nodes: online only if no node held the user before (its event tells the
            // others). In the chain, so a logout queued here before it writes first.
            rowsCommitting.begin(user.id)
            announce { [self] in
                let first: Bool
                do {
                    first = try await nodes.connected(userID: user.id)
                } catch {
                    // Answered anyway: the heartbeat's check writes the row again within 3 s.
                    logger.error("presence across nodes failed: \(error)")
                    first = false
                }
                rowsCommitting.end(user.id)
                if first { await presence(of: user, online: true, lastSeen: 0, andSelf: false) }
            }
        }
        // A second device logging in here while the first one's row commits waits for it too.
        await rowsCommitting.committed(user.id)
    }

    /// The connection is no longer logged in (logout, revoke, close); the last one sets last_seen.
    func detachUser(_ peer: Peer) {
        guard let user = peer.user else { return }
        peer.sync = nil
        peer.deferredMessages = []
        peer.deferredChanges = []
        peer.user = nil
        peer.sessionID = 0
        guard delivery.detach(peer, userID: user.id) else { return }
        metrics.usersOnline.decrement()
        if let nodes = store.nodes {
            // Several nodes: offline only if no node holds the user now; the store sets last seen.
            announce { [self] in
                do {
                    if let seen = try await nodes.disconnected(userID: user.id) {
                        await presence(of: user, online: false, lastSeen: seen, andSelf: false)
                    }
                } catch {
                    logger.error("presence across nodes failed: \(error)")
                }
            }
            return
        }
        let now = Clock.nowMillis()
        announce { [self] in
            do { try await store.setLastSeen(userID: user.id, now) } catch { logger.error("setLastSeen failed: \(error)") }
            await presence(of: user, online: false, lastSeen: now, andSelf: false)
        }
    }

    /// What a profile shows: on any node when there are several (pushes use `delivery.isOnline`).
    func isOnline(_ userID: UInt64) -> Bool { cluster?.isOnlineOnSomeNode(userID) ?? delivery.isOnline(userID) }

    /// PRESENCE to the user's accepted contacts, with the away mark; `andSelf` also to the
    /// user's own connections (an AWAY from one device shows on the others).
    func broadcastPresence(of user: UserRecord, online: Bool, lastSeen: UInt64, andSelf: Bool = false) {
        announce { [self] in await presence(of: user, online: online, lastSeen: lastSeen, andSelf: andSelf) }
    }

    func presence(of user: UserRecord, online: Bool, lastSeen: UInt64, andSelf: Bool) async {
        // Several nodes: a profile asked for after this push shows the same (the log's copy of
        // this node's own event comes a moment later and says the same).
        cluster?.presence(user.id, online: online)
        guard !isShuttingDown else { return }
        do {
            let audience = try await store.presenceAudience(userID: user.id)
            let away = try await store.awayMessage(userID: user.id)
            let frame = Presence(user: user.info, online: online, lastSeen: lastSeen,
                                 away: away != nil, awayMessage: away ?? "").frame(requestID: 0)
            delivery.send(frame, to: audience.filter { $0 != user.id })
            if andSelf { delivery.send(frame, to: [user.id]) }
        } catch {
            logger.error("presence audience failed: \(error)")
        }
    }

    func announce(_ work: @escaping @Sendable () async -> Void) { announcements.run(work) }
}

/// The users whose `node_users` row this node is writing, with the logins waiting for it.
/// Counted: a connection that logs in and closes at once, then another, queues two writes.
// @unchecked Sendable: hub-confined (its callers run on the hub's executor).
final class PresenceRowsCommitting: @unchecked Sendable {
    private var writes: [UInt64: (count: Int, logins: [CheckedContinuation<Void, Never>])] = [:]

    func begin(_ userID: UInt64) { writes[userID, default: (0, [])].count += 1 }

    func end(_ userID: UInt64) {
        guard let (count, logins) = writes[userID] else { return }
        if count > 1 { writes[userID]?.count = count - 1; return }
        writes[userID] = nil
        for login in logins { login.resume() }
    }

    /// Returns at once unless a row of the user is being written.
    func committed(_ userID: UInt64) async {
        guard writes[userID] != nil else { return }
        await withCheckedContinuation { writes[userID]?.logins.append($0) }
    }
}
