import MessageAIProtocol

/// Where everything pushed to users leaves the handlers: committed messages and changes,
/// presence, typing, receipts, conversation views, contact updates and assistant items.
/// Handlers say who should hear what (users, or a conversation's members); they never walk
/// connection tables themselves.
///
/// Today there is one node and one implementation, `LocalDelivery`, over the hub's tables of
/// logged-in connections. Several nodes on one database (issue 26) reach the other nodes'
/// connections behind this seam, without touching a handler: a fan-out names users and
/// conversations, never this node's sockets. What stays node-local on purpose is said per
/// method (`connections(of:)` is for acting on this node's own connections: closing revoked
/// sessions, admin tables).
///
/// Hub queue only, like the rest of `ChatServer`. Every method is a best-effort push after the
/// fact was committed: a client that misses one catches up by SYNC, never by hoping a push came.
protocol Delivery: AnyObject {
    // MARK: Who is logged in

    /// The connection is now logged in as `userID`; true when it is the user's first (they came online).
    func attach(_ peer: Peer, userID: UInt64) -> Bool
    /// The connection is no longer logged in as `userID`; true when it was the user's last (they went offline).
    func detach(_ peer: Peer, userID: UInt64) -> Bool
    /// Whether the user has any logged-in connection.
    func isOnline(_ userID: UInt64) -> Bool
    /// A conversation gained or lost a member (committed): fan-outs after this reach the new
    /// members and no longer the old. Called by the handlers that change membership.
    func membershipChanged()
    /// This node's logged-in connections of the user (node-local by design).
    func connections(of userID: UInt64) -> [Peer]
    /// Users with a logged-in connection on this node (`admin stats`).
    var usersOnline: Int { get }

    // MARK: Fan-out

    /// A committed message to every connection of the conversation's members but `except`
    /// (the sender's, which has its ack). `frame` is the MESSAGE push encoded once.
    /// `membersVersion`: the members version the commit took its seq under
    /// (`StoredMessage.membersVersion`, 0 if unknown): the members are those of that version
    /// or later, never a cached list from before (`AudienceCache`).
    /// Returns how many connections it went to.
    @discardableResult
    func deliver(_ message: ChatMessage, frame: [UInt8], except: Peer?, membersVersion: UInt64) async -> Int
    /// A committed change to every connection of the conversation's members that speaks
    /// messageChanges, but `except` (`membersVersion` as for a message).
    func deliver(_ change: MessageChange, except: Peer?, membersVersion: UInt64) async throws
    /// One frame to every connection of the conversation's members but `except`, for which
    /// `only` holds (assistant items go to connections that agreed on the assistant).
    /// `membersVersion` as for a message: the one the write that made the frame saw, or 0.
    func send(_ frame: Frame, toMembersOf conversationID: UInt64, except: Peer?, membersVersion: UInt64,
              only: (Peer) -> Bool) async throws
    /// To the connections of `users` but `except` for which `only` holds: the frame
    /// `frameFor` makes for their user, asked at most once per user, and only for users with
    /// such a connection. nil sends nothing. (Synchronous: a frame that needs the store is
    /// read before, for the users `isOnline` names, as `pushConversation` does.)
    func send(to users: [UInt64], except: Peer?, only: (Peer) -> Bool, _ frameFor: (UInt64) throws -> Frame?) rethrows
}

extension Delivery {
    /// One frame to every connection of `users` but `except`: presence, typing, receipts,
    /// contact updates.
    func send(_ frame: Frame, to users: [UInt64], except: Peer? = nil, only: (Peer) -> Bool = { _ in true }) {
        send(to: users, except: except, only: only) { _ in frame }
    }
}
