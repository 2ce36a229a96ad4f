import MessageAIProtocol

/// The one-node `Delivery`: the hub's tables of logged-in connections, by user and (cached)
/// by conversation. Hub queue only.
final class LocalDelivery: Delivery {
    private let store: any Store
    /// Logged-in connections by user id: a user is online while this holds any.
    private var online: [UInt64: [UInt64: Peer]] = [:]
    /// Each conversation's logged-in connections, for fan-out (dropped on every login and logout).
    private var audiences = AudienceCache()

    init(store: any Store) { self.store = store }

    func attach(_ peer: Peer, userID: UInt64) -> Bool {
        let first = online[userID] == nil
        audiences.invalidate()
        online[userID, default: [:]][peer.id] = peer
        return first
    }

    func detach(_ peer: Peer, userID: UInt64) -> Bool {
        online[userID]?[peer.id] = nil
        audiences.invalidate()
        guard online[userID]?.isEmpty == true else { return false }
        online[userID] = nil
        return true
    }

    func membershipChanged() { audiences.membershipChanged() }

    func isOnline(_ userID: UInt64) -> Bool { online[userID] != nil }

    var usersOnline: Int { online.count }

    /// The users with a logged-in connection here (presence across nodes checks its rows with it).
    var onlineUserIDs: [UInt64] { Array(online.keys) }

    func connections(of userID: UInt64) -> [Peer] {
        online[userID].map { Array($0.values) } ?? []
    }

    @discardableResult
    func deliver(_ message: ChatMessage, frame: [UInt8], except: Peer?, membersVersion: UInt64) async -> Int {
        var pushed = 0
        for p in (try? await audience(of: message.conversationID, atLeast: membersVersion)) ?? [] where p !== except {
            p.pushMessage(message, frame: frame)
            pushed += 1
        }
        return pushed
    }

    func deliver(_ change: MessageChange, except: Peer?, membersVersion: UInt64) async throws {
        let frame = change.frame(requestID: 0)
        for p in try await audience(of: change.conversationID, atLeast: membersVersion) where p !== except {
            p.pushChange(change, frame: frame)
        }
    }

    func send(_ frame: Frame, toMembersOf conversationID: UInt64, except: Peer?, membersVersion: UInt64,
              only: (Peer) -> Bool) async throws {
        for p in try await audience(of: conversationID, atLeast: membersVersion) where p !== except && only(p) {
            p.connection.send(frame)
        }
    }

    func send(to users: [UInt64], except: Peer?, only: (Peer) -> Bool, _ frameFor: (UInt64) throws -> Frame?) rethrows {
        var seen = Set<UInt64>()
        for user in users where seen.insert(user).inserted {
            guard let peers = online[user]?.values.filter({ $0 !== except && only($0) }), !peers.isEmpty,
                  let frame = try frameFor(user) else { continue }
            for p in peers { p.connection.send(frame) }
        }
    }

    /// Whether a member of the conversation has a logged-in connection here (the event log's
    /// reader reads nothing for a conversation nobody here would be sent). A failed lookup
    /// answers true: the reader then reads, and delivery finds out.
    func hasAudience(_ conversationID: UInt64) async -> Bool {
        do { return !(try await audience(of: conversationID)).isEmpty } catch { return true }
    }

    /// Every logged-in connection of every member of the conversation (the sender's included),
    /// as of members version `version` or later (`AudienceCache`: a commit's version).
    /// A miss asks the store; what it answers is kept only if nobody logged in or out and no
    /// membership changed while it was asked (a store across the network suspends here).
    private func audience(of conversationID: UInt64, atLeast version: UInt64 = 0) async throws -> [Peer] {
        if let cached = audiences.connections(of: conversationID, atLeast: version) { return cached }
        let generation = audiences.generation
        let members = try await store.memberList(conversationID: conversationID)
        let peers = members.ids.flatMap { connections(of: $0) }
        if audiences.generation == generation {
            audiences.remember(peers, version: members.version, for: conversationID)
        }
        return peers
    }
}
