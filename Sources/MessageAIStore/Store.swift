import MessageAIVocabulary  // ConversationKind, ChangeAction, AssistItemKind, AssistItemFilter

// The server's storage seam. It speaks the store's own records (`Records.swift`), never a wire
// type, and nothing of one backend: SQLite (`SQLiteStore`, in the server) today, PostgreSQL next;
// tests run the same bodies against an in-memory and a temp-file database.
//
// Asynchronous, so that a database across a network never blocks the hub: every requirement is
// `async throws` and `nonisolated(nonsending)` (SE-0461), so it runs on the caller's executor.
// A backend that answers at once (SQLite, whose synchronous methods are the witnesses) then
// answers inline on the hub, with no thread hop; a network backend suspends and the caller
// resumes on its own executor (the hub's, `HubExecutor`). Not thread-safe: the server calls it
// from one serial executor, which is also what makes group commit simple.
//
// Time values are milliseconds since the Unix epoch. Ids are positive integers the store assigns (> 0).

public struct UserRecord: Equatable, Sendable {
    public var id: UInt64
    public var username: String
    public var email: String
    public var displayName: String
    /// Encoded password hash (algorithm, parameters, salt and hash); never the password.
    public var passwordHash: String
    public var createdAt: UInt64
    /// 0 when never seen.
    public var lastSeen: UInt64
    /// An IANA name or a fixed offset ("+09:00") as the user's client sent it; empty: not known
    /// (due dates are then placed in UTC). Schema v17.
    public var timeZone: String

    public init(id: UInt64, username: String, email: String, displayName: String, passwordHash: String, createdAt: UInt64, lastSeen: UInt64,
                timeZone: String = "") {
        self.id = id; self.username = username; self.email = email; self.displayName = displayName
        self.passwordHash = passwordHash; self.createdAt = createdAt; self.lastSeen = lastSeen; self.timeZone = timeZone
    }
}

public struct SessionRecord: Equatable, Sendable {
    public var id: UInt64
    public var userID: UInt64
    /// SHA-256 of the token; the token itself is never stored.
    public var tokenHash: [UInt8]
    public var device: String
    public var createdAt: UInt64
    public var lastUsedAt: UInt64

    public init(id: UInt64, userID: UInt64, tokenHash: [UInt8], device: String, createdAt: UInt64, lastUsedAt: UInt64) {
        self.id = id; self.userID = userID; self.tokenHash = tokenHash; self.device = device
        self.createdAt = createdAt; self.lastUsedAt = lastUsedAt
    }
}

public struct ConversationRecord: Equatable, Sendable {
    public var id: UInt64
    public var kind: ConversationKind
    public var name: String
    public var createdAt: UInt64
    public var lastSeq: UInt64
    public var lastActivity: UInt64
    /// The group's avatar file (schema v9), empty for none.
    public var avatarID: [UInt8] = []

    public init(id: UInt64, kind: ConversationKind, name: String, createdAt: UInt64, lastSeq: UInt64, lastActivity: UInt64) {
        self.id = id; self.kind = kind; self.name = name; self.createdAt = createdAt
        self.lastSeq = lastSeq; self.lastActivity = lastActivity
    }
}

/// A message to store, as received in SEND.
public struct NewMessage: Sendable {
    public var conversationID: UInt64
    public var senderID: UInt64
    public var clientID: [UInt8]
    public var text: String
    public var serverTime: UInt64
    /// The sender's username when the caller knows it (the server does: the sender is logged
    /// in); nil makes the store look it up. Usernames never change.
    public var senderUsername: String?
    /// The seq this message answers (0: none); checked by the caller.
    public var replyTo: UInt64
    /// A file's record, caption included (`text` is then its fallback text).
    public var attachment: AttachmentRecord?
    /// The caller skipped its membership and block checks (they held when it last made them):
    /// the append checks in its transaction that the sender is a member (not holding a message
    /// request) and that no block stands in a direct conversation, and answers `.refused`
    /// otherwise. Only for a store with `confirmsMembership`.
    public var confirmMembership = false

    public init(conversationID: UInt64, senderID: UInt64, clientID: [UInt8], text: String, serverTime: UInt64,
                senderUsername: String? = nil, replyTo: UInt64 = 0, attachment: AttachmentRecord? = nil,
                confirmMembership: Bool = false) {
        self.conversationID = conversationID; self.senderID = senderID; self.clientID = clientID
        self.text = text; self.serverTime = serverTime; self.senderUsername = senderUsername; self.replyTo = replyTo
        self.attachment = attachment; self.confirmMembership = confirmMembership
    }
}

/// A change to store, as received in CHANGE and checked by the server.
public struct NewChange: Sendable {
    public var conversationID: UInt64
    public var actorID: UInt64
    public var clientID: [UInt8]
    public var targetSeq: UInt64
    public var action: ChangeAction
    public var emoji: String
    /// The new text of an edit.
    public var text: String
    public var serverTime: UInt64
    public init(conversationID: UInt64, actorID: UInt64, clientID: [UInt8], targetSeq: UInt64, action: ChangeAction,
                emoji: String = "", text: String = "", serverTime: UInt64) {
        self.conversationID = conversationID; self.actorID = actorID; self.clientID = clientID; self.targetSeq = targetSeq
        self.action = action; self.emoji = emoji; self.text = text; self.serverTime = serverTime
    }
}

public enum ChangeOutcome: Equatable, Sendable {
    /// Stored with the next seq and applied.
    case stored(ChangeRecord)
    /// It would change nothing (a reaction the member has, or removing one they do not have):
    /// nothing stored, no seq taken.
    case unchanged
    /// The actor used this client id for a message: nothing stored (one namespace per user).
    case clientIDReused
}

public enum AppendOutcome: Equatable, Sendable {
    /// Newly stored with the next seq of its conversation.
    case stored(StoredMessage)
    /// (sender, client id) was stored before with this conversation and text (a resend): the
    /// original message, unchanged.
    case duplicate(StoredMessage)
    /// (sender, client id) was stored before for another conversation or another text, or for
    /// a change (nil then): nothing is stored, and the sender must not believe it was (client
    /// ids are unique per user, across messages and changes).
    case clientIDReused(StoredMessage?)
    /// `confirmMembership` was asked and the sender is no member (or holds a message request),
    /// or a block stands: nothing is stored, no seq taken. The caller checks again to say why.
    case refused
    /// Over the send limit the store applies (`LimitStore.setSendLimit`): nothing stored; the
    /// next token comes after this many milliseconds. Never from a store without `limits`.
    case rateLimited(retryAfter: UInt64)
}

/// Work a store may defer past the commit that acknowledged (`Store.runDeferred`).
public enum DeferredWork: Sendable {
    /// After appends: make search see what was stored (the caller asks after a batch of
    /// messages and when idle; `search` itself catches up first anyway).
    case catchUpSearch
    /// After a delete: take the deleted text out of every place a copy lingers.
    case purgeDeleted
}

public struct MemberMarker: Equatable, Sendable {
    public var user: MemberRecord
    public var deliveredSeq: UInt64
    public var readSeq: UInt64
    /// The member holds the conversation as a message request: their read marker is theirs only.
    public var pending: Bool
    public init(user: MemberRecord, deliveredSeq: UInt64, readSeq: UInt64, pending: Bool = false) {
        self.user = user; self.deliveredSeq = deliveredSeq; self.readSeq = readSeq; self.pending = pending
    }
    /// The read marker others may see.
    public var sharedReadSeq: UInt64 { pending ? 0 : readSeq }
}

public enum StoreError: Error, Equatable, Sendable {
    case usernameTaken
    case emailTaken
    case notFound
    /// The disk is full: nothing was written; the caller answers storage_full.
    case diskFull
    /// A unique key already holds the value (the backend's message names the key).
    case conflict(String)
    /// A row names a user or conversation that does not exist.
    case missingReference
    /// The database is unreachable or went away mid-request (a network backend: refused
    /// connection, timeout, restart). Nothing was committed; the caller answers with a
    /// retryable error and the client tries again later. The reason is for the log.
    case unavailable(String)
    /// Any other failure of the database, in the backend's words (for the log, never the wire).
    case failed(String)
}

/// How two users stand, seen from `me`: who wants whom, whether I declined their request, and
/// who blocks whom.
public struct ContactLink: Equatable, Sendable {
    public var iWant = false
    public var theyWant = false
    public var declinedByMe = false
    public var iBlock = false
    public var theyBlock = false
    public init(iWant: Bool = false, theyWant: Bool = false, declinedByMe: Bool = false, iBlock: Bool = false, theyBlock: Bool = false) {
        self.iWant = iWant; self.theyWant = theyWant; self.declinedByMe = declinedByMe; self.iBlock = iBlock; self.theyBlock = theyBlock
    }
    /// Both want each other: presence, last seen and the full profile are shared.
    public var accepted: Bool { iWant && theyWant }
    public var blocked: Bool { iBlock || theyBlock }
    /// Presence is shared only between accepted contacts that neither side blocks.
    public var sharesPresence: Bool { accepted && !blocked }
}

/// A conversation's member ids with its members version, read in one snapshot: the audience a
/// node caches for fan-out, and the version that tells whether a commit was made against it.
///
/// The version moves in the transaction of every membership change (PostgreSQL: schema v14),
/// and a commit that takes a seq answers the version it took it under
/// (`StoredMessage.membersVersion`): a node whose cached list is older reads it again before
/// pushing, so a member removed through another node is never pushed what was committed after.
/// 0 where there is one writer (SQLite): there the handler that changes a membership drops
/// the cache before anything else commits.
public struct MemberList: Equatable, Sendable {
    public var ids: [UInt64]
    public var version: UInt64
    public init(ids: [UInt64], version: UInt64) { self.ids = ids; self.version = version }
}

/// A member's standing in a conversation, as the hot paths (SEND, MARK, TYPING) need it.
public struct Membership: Equatable, Sendable {
    /// The member holds it as a message request.
    public var pending: Bool
    /// In a direct conversation where either side blocks the other: the other member.
    public var blockedPartner: UInt64?
    public init(pending: Bool, blockedPartner: UInt64?) { self.pending = pending; self.blockedPartner = blockedPartner }
}

/// Sendable so that a closure may carry it back to the hub queue, which alone calls it.
/// (The server caches `memberIDs` itself, dropped by the handlers that change a membership.)
public protocol Store: AnyObject, Sendable {
    // MARK: Accounts
    /// Throws `.usernameTaken` (case-insensitive) or `.emailTaken` (case-insensitive).
    nonisolated(nonsending) func createUser(email: String, username: String, displayName: String, passwordHash: String, now: UInt64) async throws -> UserRecord
    nonisolated(nonsending) func user(id: UInt64) async throws -> UserRecord?
    /// By username (case-insensitive) or by email (case-insensitive).
    nonisolated(nonsending) func user(login: String) async throws -> UserRecord?
    nonisolated(nonsending) func user(username: String) async throws -> UserRecord?
    nonisolated(nonsending) func setDisplayName(userID: UInt64, _ name: String) async throws
    /// The user's time zone, already checked (`TimeZoneName`).
    nonisolated(nonsending) func setTimeZone(userID: UInt64, _ zone: String) async throws
    nonisolated(nonsending) func setPasswordHash(userID: UInt64, _ hash: String) async throws
    nonisolated(nonsending) func setLastSeen(userID: UInt64, _ time: UInt64) async throws

    // MARK: Sessions
    nonisolated(nonsending) func createSession(userID: UInt64, tokenHash: [UInt8], device: String, now: UInt64) async throws -> SessionRecord
    nonisolated(nonsending) func session(tokenHash: [UInt8]) async throws -> SessionRecord?
    nonisolated(nonsending) func sessions(userID: UInt64) async throws -> [SessionRecord]
    nonisolated(nonsending) func touchSession(id: UInt64, now: UInt64) async throws
    /// False when no such session of that user exists.
    nonisolated(nonsending) func deleteSession(id: UInt64, userID: UInt64) async throws -> Bool
    /// Deletes all the user's sessions except `keep`; returns the ids deleted.
    nonisolated(nonsending) func deleteSessions(userID: UInt64, except keep: UInt64) async throws -> [UInt64]

    // MARK: People
    /// Users whose username starts with `query`, or whose display name has its words (the last
    /// as a prefix), or, for a query with "@", whose email is exactly it; case-insensitive,
    /// ordered by username, through indexes.
    nonisolated(nonsending) func searchUsers(query: String, limit: Int) async throws -> [UserRecord]
    /// Records that `owner` wants `contact` (a request, or an accept of theirs); idempotent,
    /// returns whether it is new.
    @discardableResult nonisolated(nonsending) func addContact(owner: UInt64, contact: UInt64, now: UInt64) async throws -> Bool
    nonisolated(nonsending) func removeContact(owner: UInt64, contact: UInt64) async throws -> Bool
    nonisolated(nonsending) func contacts(owner: UInt64) async throws -> [UserRecord]
    nonisolated(nonsending) func isContact(owner: UInt64, other: UInt64) async throws -> Bool
    nonisolated(nonsending) func sharesConversation(_ a: UInt64, _ b: UInt64) async throws -> Bool
    /// Who sees this user's presence: accepted contacts that neither side blocks.
    nonisolated(nonsending) func presenceAudience(userID: UInt64) async throws -> [UInt64]

    // MARK: Away (/away, /back)
    /// Marks the user away with `message` (may be empty), replacing an earlier mark.
    nonisolated(nonsending) func setAway(userID: UInt64, message: String, now: UInt64) async throws
    /// Clears the mark; returns whether there was one.
    @discardableResult nonisolated(nonsending) func clearAway(userID: UInt64) async throws -> Bool
    /// The away text (empty for none) when the user is marked away; nil when not away.
    nonisolated(nonsending) func awayMessage(userID: UInt64) async throws -> String?

    // MARK: Privacy (consent and blocking)
    nonisolated(nonsending) func contactLink(_ me: UInt64, _ other: UInt64) async throws -> ContactLink
    /// Wanted contacts and pending incoming requests, with their links.
    nonisolated(nonsending) func contactEntries(owner: UInt64) async throws -> [(UserRecord, ContactLink)]
    @discardableResult nonisolated(nonsending) func declineContact(owner: UInt64, requester: UInt64) async throws -> Bool
    @discardableResult nonisolated(nonsending) func block(blocker: UInt64, blocked: UInt64, now: UInt64) async throws -> Bool
    @discardableResult nonisolated(nonsending) func unblock(blocker: UInt64, blocked: UInt64) async throws -> Bool
    nonisolated(nonsending) func blockedUsers(blocker: UInt64) async throws -> [UserRecord]
    nonisolated(nonsending) func blockers(of userID: UInt64, among candidates: [UInt64]) async throws -> Set<UInt64>
    /// Membership, message request and block in one query (nil: not a member).
    nonisolated(nonsending) func membership(conversationID: UInt64, userID: UInt64) async throws -> Membership?
    /// Accepts the message request the member holds, if any; returns whether there was one.
    @discardableResult nonisolated(nonsending) func acceptRequest(conversationID: UInt64, userID: UInt64) async throws -> Bool
    /// Accepts the direct conversation of two users on both sides (they became contacts).
    nonisolated(nonsending) func acceptDirectRequests(_ a: UInt64, _ b: UInt64) async throws
    /// Everyone in a block with the user, either direction (typing fan-out).
    nonisolated(nonsending) func blockPartners(of userID: UInt64) async throws -> Set<UInt64>

    // MARK: Conversations
    /// The one direct conversation of the pair, created on first use.
    nonisolated(nonsending) func directConversation(_ a: UInt64, _ b: UInt64, now: UInt64) async throws -> (ConversationRecord, created: Bool)
    nonisolated(nonsending) func createGroup(name: String, creator: UInt64, members: [UInt64], now: UInt64) async throws -> ConversationRecord
    nonisolated(nonsending) func addMembers(conversationID: UInt64, userIDs: [UInt64], now: UInt64) async throws
    nonisolated(nonsending) func renameGroup(conversationID: UInt64, name: String) async throws
    nonisolated(nonsending) func removeMember(conversationID: UInt64, userID: UInt64) async throws
    nonisolated(nonsending) func conversation(id: UInt64) async throws -> ConversationRecord?
    nonisolated(nonsending) func members(conversationID: UInt64) async throws -> [MemberRecord]
    /// Just the members' ids, for fan-out on every message (no join, no sort).
    nonisolated(nonsending) func memberIDs(conversationID: UInt64) async throws -> [UInt64]
    /// The member ids with the members version, in one snapshot (the fan-out's cache).
    nonisolated(nonsending) func memberList(conversationID: UInt64) async throws -> MemberList
    nonisolated(nonsending) func isMember(conversationID: UInt64, userID: UInt64) async throws -> Bool
    /// The user's conversations, most recent activity first, each with last message, unread
    /// count (messages from others above the user's read marker) and the user's own markers.
    nonisolated(nonsending) func conversationList(userID: UInt64) async throws -> [ConversationEntry]
    /// One conversation as `userID` sees it (same fields as in the list).
    nonisolated(nonsending) func conversationView(id: UInt64, userID: UInt64) async throws -> ConversationEntry?

    // MARK: Messages
    /// Stores a batch in ONE transaction (group commit). Each message gets the next seq of its
    /// conversation; a (sender, client id) seen before yields `.duplicate` with the original.
    /// All or nothing: on error nothing of the batch is stored.
    nonisolated(nonsending) func append(_ batch: [NewMessage]) async throws -> [AppendOutcome]
    /// Ascending by seq, seq > afterSeq, at most `limit`.
    nonisolated(nonsending) func messages(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws -> [StoredMessage]
    /// The `limit` messages just before `beforeSeq` (0: the newest), ascending by seq.
    nonisolated(nonsending) func messages(conversationID: UInt64, beforeSeq: UInt64, limit: Int) async throws -> [StoredMessage]
    /// Search in the user's conversations (every word, accents and case ignored, the last word
    /// a prefix), newest first; it sees every message appended before the call.
    nonisolated(nonsending) func search(userID: UInt64, query: String, conversationID: UInt64?, offset: Int, limit: Int) async throws -> [StoredMessage]

    // MARK: Markers
    /// Raises the member's markers (never lowers; read implies delivered; capped at last seq).
    /// Returns the markers after the change, and whether anything changed.
    nonisolated(nonsending) func raiseMarkers(conversationID: UInt64, userID: UInt64, delivered: UInt64, read: UInt64) async throws -> (delivered: UInt64, read: UInt64, changed: Bool)
    nonisolated(nonsending) func markers(conversationID: UInt64) async throws -> [MemberMarker]

    // MARK: Additions (store branch)
    /// One message by its place in the conversation (READERS, previews).
    nonisolated(nonsending) func message(conversationID: UInt64, seq: UInt64) async throws -> StoredMessage?
    /// The message a sender stored under this client id, if any.
    nonisolated(nonsending) func message(senderID: UInt64, clientID: [UInt8]) async throws -> StoredMessage?
    /// Closes the database cleanly (shutdown); the store cannot be used afterwards. Idempotent.
    nonisolated(nonsending) func close() async

    // MARK: Changes (replies, reactions, edits, deletes)
    /// The change an actor stored under this client id, if any (a resend).
    nonisolated(nonsending) func change(actorID: UInt64, clientID: [UInt8]) async throws -> ChangeRecord?
    /// Stores a change the caller has checked (membership, sender, window, emoji), with the
    /// next seq of the conversation, and applies it to the message; see `ChangeOutcome`.
    /// A delete may leave work owed (`runDeferred(.purgeDeleted)`): the caller runs it after answering.
    nonisolated(nonsending) func apply(_ change: NewChange) async throws -> ChangeOutcome
    /// Changes with seq > afterSeq, ascending, at most `limit` (an edit carries the text now).
    nonisolated(nonsending) func changes(conversationID: UInt64, afterSeq: UInt64, limit: Int) async throws -> [ChangeRecord]
    /// The messages with their current reactions filled in.
    nonisolated(nonsending) func withReactions(_ messages: [StoredMessage]) async throws -> [StoredMessage]

    // MARK: Work kept out of the acknowledging transactions
    /// One bounded step of work the store keeps out of the transactions that acknowledge, for
    /// the caller to run between requests; true while more of it is owed. A store that does
    /// all its work inside its transactions answers false at once.
    @discardableResult nonisolated(nonsending) func runDeferred(_ work: DeferredWork) async throws -> Bool

    // MARK: Optional capabilities (asked for, never found by casting; nil: the store has none)
    /// The assistant's tables: items, summaries, switches, budgets.
    var assistant: AssistantStore? { get }
    /// Uploaded files and avatars.
    var files: FileStore? { get }
    /// The admin commands' capability (issue 27).
    var admin: AdminStore? { get }
    /// The log of committed events that several nodes on one database read (issue 26).
    var eventLog: EventLog? { get }
    /// Presence and typing across nodes on one database (issue 26 stage B).
    var nodes: NodeRegistry? { get }
    /// Whether `append` can confirm a sender's membership itself (`NewMessage.confirmMembership`).
    var confirmsMembership: Bool { get }
    /// Extraction queued as jobs in the database that several nodes share (issue 26 stage C).
    var extractionJobs: ExtractionJobs? { get }
    /// Limits counted in the database, shared by every node on it (issue 26).
    var limits: LimitStore? { get }
}

extension Store {
    /// One node, no log: what every store but PostgreSQL's answers.
    public var eventLog: EventLog? { nil }
    public var nodes: NodeRegistry? { nil }
    /// Whether `append` honours `NewMessage.confirmMembership`. PostgreSQL's does: there each
    /// check before the append is a round trip of its own (BENCHMARKS.md). SQLite's answers
    /// its checks inline, so the caller makes them.
    public var confirmsMembership: Bool { false }
    /// One node: the server counts its limits in memory.
    public var limits: LimitStore? { nil }
    /// One writer: no version (see `MemberList`).
    public nonisolated(nonsending) func memberList(conversationID: UInt64) async throws -> MemberList {
        MemberList(ids: try await memberIDs(conversationID: conversationID), version: 0)
    }
}
