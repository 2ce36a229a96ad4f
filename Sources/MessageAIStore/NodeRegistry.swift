/// Which node holds which user's connections, for presence across nodes (issue 26 stage B),
/// and the ephemeral events that nodes tell each other through the event log (typing). A
/// capability of the store (`Store.nodes`): a store that serves one node (SQLite) has none,
/// and the server then counts its own connections only, as it always did.
///
/// A user is online while any live node holds a connection of theirs. Each call that can
/// change that answers whether it did, and writes the change to the event log in the same
/// transaction (`CommitEvent.Kind.presence`), so the other nodes push it; the caller pushes
/// it to its own connections. A node that stops heartbeating for `staleAfter` is dead: a live
/// node's `reap` removes its users, and each one left on no node goes offline with the dead
/// node's last heartbeat as last seen.
public protocol NodeRegistry: AnyObject, Sendable {
    /// This node now holds a connection of `userID` (its first). True when the user was on no
    /// node before (the change is logged; `lastSeen` 0).
    nonisolated(nonsending) func connected(userID: UInt64) async throws -> Bool
    /// This node holds no connection of `userID` any more. The last-seen time (now, the
    /// database's clock) when the user is now on no node (logged and stored); nil otherwise.
    nonisolated(nonsending) func disconnected(userID: UInt64) async throws -> UInt64?
    /// This node is alive. Returns how many users the database holds for it (the caller
    /// compares with its own count and calls `holding` when they differ: its rows were reaped
    /// while it could not reach the database, or a write was lost).
    nonisolated(nonsending) func heartbeat() async throws -> Int
    /// The users the database holds for this node.
    nonisolated(nonsending) func heldUsers() async throws -> [UInt64]
    /// Removes the nodes whose last heartbeat is older than `staleAfter` (milliseconds) with
    /// their users; returns each user now on no node with their last-seen time (logged and
    /// stored). Safe on several nodes at once: each user goes offline once.
    nonisolated(nonsending) func reap(staleAfter: UInt64) async throws -> [(userID: UInt64, lastSeen: UInt64)]
    /// Tells the other nodes that `userID` is typing in `conversationID` (an event, ids only).
    nonisolated(nonsending) func publishTyping(conversationID: UInt64, userID: UInt64) async throws
}
