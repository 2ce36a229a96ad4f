/// The logged-in connections of each conversation's members, kept from one message to the next.
///
/// Without it every committed message asked the store for the member ids (a query) and walked
/// `online` for each member to build its fan-out. An entry is valid while nobody logs in or out
/// (`LocalDelivery.attach` / `detach`, which covers every close) and no membership changes
/// (join, leave, new conversation: the handlers that change one say so through
/// `Delivery.membershipChanged`, after the store committed it); either drops every entry:
/// logins are rare next to messages, and refilling costs one query per active conversation.
///
/// With several nodes (issue 26), or one node on a store that suspends, a membership may
/// change where this cache does not hear of it in time: through another node (its reader reads
/// the removal some milliseconds later), or while this node's leave handler still awaits its
/// commit. So each entry keeps the members version it was read at (`MemberList`), and a
/// commit of this node names the version its seq was taken under: a newer one than the entry's
/// means a membership changed before that commit, and the entry is read again before anything
/// is pushed (`isCurrent`). An older one is served from the entry: those members were current
/// after the commit. Another node's commit read from the log carries the version from its
/// event (PostgreSQL schema v15), so does an assistant item's. A version of 0 (SQLite, one
/// writer; an event logged before v15; an item this node stored itself) trusts the entry.
/// Hub queue only, like `LocalDelivery` that holds it.
struct AudienceCache {
    private struct Entry {
        var peers: [Peer]
        var version: UInt64
    }

    private var entries: [UInt64: Entry] = [:]
    /// Moves at every invalidation: an answer asked for before it moved is not kept.
    private(set) var generation: UInt64 = 0

    /// The cached connections, if the entry is at least as new as `version`.
    func connections(of conversationID: UInt64, atLeast version: UInt64 = 0) -> [Peer]? {
        guard let entry = entries[conversationID], Self.isCurrent(entry.version, for: version) else { return nil }
        return entry.peers
    }

    /// Whether members read at `cached` may receive a commit made under `committed`.
    static func isCurrent(_ cached: UInt64, for committed: UInt64) -> Bool { committed == 0 || cached >= committed }

    mutating func remember(_ connections: [Peer], version: UInt64, for conversationID: UInt64) {
        // Two reads of one conversation may end out of order: the older answer does not win.
        if let kept = entries[conversationID], kept.version > version { return }
        entries[conversationID] = Entry(peers: connections, version: version)
    }

    /// Someone logged in or out: any entry may miss or hold a connection.
    mutating func invalidate() {
        generation &+= 1
        if !entries.isEmpty { entries.removeAll() }
    }

    /// A conversation gained or lost a member.
    mutating func membershipChanged() { invalidate() }
}
