/// The logged-in connections of each conversation's members, kept from one message to the next.
///
/// Without it every committed message asked the store for the member ids (a query) and walked
/// `online` for each member to build its fan-out. An entry is valid while nobody logs in or out
/// (`LocalDelivery.attach` / `detach`, which covers every close) and the store's
/// `membershipVersion` (join, leave, new conversation) has not moved; either drops every entry:
/// logins are rare next to messages, and refilling costs one query per active conversation.
/// Hub queue only, like `LocalDelivery` that holds it.
struct AudienceCache {
    private var peers: [UInt64: [Peer]] = [:]
    private var membershipVersion: UInt64 = 0

    /// The cached connections, if still valid against the store's membership version.
    mutating func connections(of conversationID: UInt64, membershipVersion version: UInt64) -> [Peer]? {
        if version != membershipVersion {
            peers.removeAll()
            membershipVersion = version
            return nil
        }
        return peers[conversationID]
    }

    mutating func remember(_ connections: [Peer], for conversationID: UInt64) {
        peers[conversationID] = connections
    }

    /// Someone logged in or out: any entry may miss or hold a connection.
    mutating func invalidate() {
        if !peers.isEmpty { peers.removeAll() }
    }
}
