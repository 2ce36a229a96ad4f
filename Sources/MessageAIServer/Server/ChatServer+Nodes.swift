import MessageAIProtocol
import MessageAIStore

/// Presence across nodes (issue 26 stage B): this node's heartbeat, the reaping of dead
/// nodes, and what the other nodes' ephemeral events do here. Nothing of it on one node
/// (SQLite): the store has no `NodeRegistry`.
///
/// The bound: a node silent for `nodeStaleMillis` is dead; every live node looks every
/// `heartbeatMillis`, and the reaper's offline events reach the others' connections at their
/// next read of the log (at most `eventLogPollMillis`). A user of a node killed without a
/// word is shown offline within 10 + 3 + 1 = 14 s, stated as 15 s, with the dead node's last
/// heartbeat as last seen. A user who reconnects to another node before that is never shown
/// offline: the dead node's row still counts them online, and the new node's does after it.
extension ChatServer {
    static let heartbeatMillis: UInt64 = 3_000
    static let nodeStaleMillis: UInt64 = 10_000

    func startHeartbeat() {
        guard let nodes = store.nodes, cluster != nil, heartbeatTask == nil else { return }
        heartbeatTask = Task.immediate(executorPreference: hub) { [self] in
            while !Task.isCancelled {
                await beat(nodes)
                try? await Task.sleep(for: .milliseconds(Self.heartbeatMillis))
            }
        }
    }

    private func beat(_ nodes: any NodeRegistry) async {
        do {
            let held = try await nodes.heartbeat()
            // Rows reaped while the database was away, or a write lost: the chain puts them right
            // after the logins and logouts queued before it.
            if held != delivery.usersOnline { announce { [self] in await recheck(nodes) } }
        } catch {
            logger.notice("presence: heartbeat failed: \(error)")
        }
        // Even when this node's own heartbeat failed: another node's death is still told.
        do {
            for (userID, lastSeen) in try await nodes.reap(staleAfter: Self.nodeStaleMillis) {
                guard let user = try await store.user(id: userID) else { continue }
                logger.info("presence: user \(userID) of a dead node is offline")
                announce { [self] in await presence(of: user, online: false, lastSeen: lastSeen, andSelf: false) }
            }
        } catch {
            logger.notice("presence: reaping dead nodes failed: \(error)")
        }
    }

    /// Makes the database hold exactly the users connected here, announcing what changes.
    private func recheck(_ nodes: any NodeRegistry) async {
        do {
            let held = Set(try await nodes.heldUsers())
            let here = Set(cluster?.local.onlineUserIDs ?? [])
            for userID in here.subtracting(held) {
                guard try await nodes.connected(userID: userID), let user = try await store.user(id: userID) else { continue }
                await presence(of: user, online: true, lastSeen: 0, andSelf: false)
            }
            for userID in held.subtracting(here) {
                guard let seen = try await nodes.disconnected(userID: userID), let user = try await store.user(id: userID) else { continue }
                await presence(of: user, online: false, lastSeen: seen, andSelf: false)
            }
        } catch {
            logger.notice("presence: recheck failed: \(error)")
        }
    }

    /// Another node's presence, typing, ended session or profile change, done here as that
    /// node did it for its own connections.
    func applyNodeEvent(_ event: CommitEvent) async {
        do {
            switch event.kind {
            case .presence:
                // Pushed as it comes, even while a connection of the user is here: a login is
                // answered only once its row commits (`attachUser`), so an offline event read
                // now was committed before it, and this node's online event follows it in the
                // log. Every node's watchers see the same.
                guard let user = try await store.user(id: event.userID) else { return }
                announce { [self] in await presence(of: user, online: event.seq == 0, lastSeen: event.seq, andSelf: false) }
            case .typing:
                guard let user = try await store.user(id: event.userID) else { return }
                try await pushTyping(in: event.conversationID, by: user)
            case .sessionEnded:
                closeSessions([event.seq], of: event.userID, except: nil)
            case .profile:
                // Disabled by an admin through another node: closed here as there.
                if event.seq & 2 != 0 { _ = closeConnections(of: event.userID, .accountDisabled(.adminDisabling)); return }
                let peers = delivery.connections(of: event.userID)
                let avatar = event.seq & 1 != 0
                guard !peers.isEmpty || avatar, let user = try await store.user(id: event.userID) else { return }
                for p in peers { p.user = user }
                if avatar { await pushAvatar(of: user, try await ownProfile(user), except: nil) }
            case .message, .change, .membership, .receipt, .contact, .assistItem:
                return
            }
        } catch {
            logger.error("event log: \(event.kind) of user \(event.userID) failed: \(error)")
        }
    }

    /// Assistant items another node stored or changed in the conversation, read as they are
    /// now (a later change read in the same batch is no older) and pushed to the members'
    /// connections here as that node pushed them to its own. Nothing is read when no member
    /// is connected here, or when this node runs without the assistant's store.
    /// `membersVersion`: the newest its events carry (schema v15): members cached from before
    /// a leave that the writes saw committed are read again first.
    func pushNodeItems(_ ids: [UInt64], of conversationID: UInt64, membersVersion: UInt64, _ cluster: ClusterDelivery) async {
        guard let itemStore = assistantStore, await cluster.local.hasAudience(conversationID) else { return }
        do {
            await pushItems(try await itemStore.items(ids: ids), except: nil, membersVersions: [conversationID: membersVersion])
        } catch {
            logger.error("event log: items of conversation \(conversationID) failed: \(error)")
        }
    }
}
