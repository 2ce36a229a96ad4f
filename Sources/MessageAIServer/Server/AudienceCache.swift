/// The logged-in connections of each conversation's members, kept from one message to the next.
///
/// Without it every committed message asked the store for the member ids (a query) and walked
/// `online` for each member to build its fan-out. An entry is valid while nobody logs in or out
/// (`LocalDelivery.attach` / `detach`, which covers every close) and no membership changes
/// (join, leave, new conversation: the handlers that change one say so through
/// `Delivery.membershipChanged`, after the store committed it); either drops every entry:
/// logins are rare next to messages, and refilling costs one query per active conversation.
/// (With several nodes, issue 26, another node's membership changes reach it the same way,
/// in log order: a lane pushes another node's commits only after the reader applied every
/// membership event before them. This node's own commits are pushed at commit, so a member
/// removed through another node may get those committed before the reader reads the removal:
/// milliseconds, at most the reader's poll; README "Running several nodes" states the bound.)
/// Hub queue only, like `LocalDelivery` that holds it.
struct AudienceCache {
    private var peers: [UInt64: [Peer]] = [:]
    /// Moves at every invalidation: an answer asked for before it moved is not kept.
    private(set) var generation: UInt64 = 0

    func connections(of conversationID: UInt64) -> [Peer]? { peers[conversationID] }

    mutating func remember(_ connections: [Peer], for conversationID: UInt64) {
        peers[conversationID] = connections
    }

    /// Someone logged in or out: any entry may miss or hold a connection.
    mutating func invalidate() {
        generation &+= 1
        if !peers.isEmpty { peers.removeAll() }
    }

    /// A conversation gained or lost a member.
    mutating func membershipChanged() { invalidate() }
}
