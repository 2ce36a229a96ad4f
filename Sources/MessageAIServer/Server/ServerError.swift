import MessageAIProtocol

/// Everything a request can fail with, in the server's words. Handlers throw (or pass to
/// `Peer.fail`) one of these; `ServerError+Frame.swift` turns each into its ERROR frame — code,
/// English text, field, limit, retry-after — in one place, so a text or a field name is
/// written once and the wire stays what PROTOCOL.md and the clients expect.
///
/// Cases carry the facts the text names (ids, sizes, limits), not the text itself.
enum ServerError: Error {
    // MARK: The handshake and the connection

    /// A first frame other than HELLO (closes).
    case handshakeRequired
    /// A compressed frame on a connection that did not agree on zlib (closes).
    case compressionNotAgreed
    case unknownFrameType(FrameType)
    /// A frame of a capability the connection did not agree on in HELLO.
    case capabilityNotAgreed(Capability)
    case helloRepeated
    /// No protocol version both sides speak (closes).
    case unsupportedVersion(clientMin: UInt64, clientMax: UInt64)
    /// A frame that does not decode (closes when its code does).
    case decoding(ProtocolError)
    case shuttingDown
    /// Nothing received for the idle timeout (ms), or a deadline bytes do not reset.
    case idleTimeout(millis: UInt64)
    case missedDeadline(String)
    /// Live pushes (`what`: messages or changes) piled up behind a sync the client reads too slowly (closes).
    case syncOverflow(what: String)

    // MARK: Accounts and sessions

    case notAuthenticated
    case alreadyLoggedIn
    case accountDisabled(DisabledBy)
    case wrongPassword
    case wrongCurrentPassword
    case sessionEnded
    /// A connection whose session another one revoked (closes).
    case sessionRevoked
    case throttled(Throttle, retryAfter: UInt64)
    case serverBusy(Busy, retryAfter: UInt64)
    case usernameTaken
    case emailTaken
    case invalidUsername(UsernameProblem)
    case invalidEmail
    case weakPassword(field: String)

    // MARK: Requests

    case tooLong(TooLong)
    case invalidArgument(InvalidArgument)
    case notFound(Missing)
    case notAMember(conversation: UInt64)
    case notAContact(NotAContact)
    case rateLimited(RateLimit)

    // MARK: Messages and changes

    /// `field` is `target_seq` for a change and `reply_to_seq` for a reply.
    case noSuchMessage(seq: UInt64, conversation: UInt64, field: String)
    case messageDeleted(seq: UInt64, field: String)
    case invalidReaction
    case notSender(sender: String, action: String, seq: UInt64)
    case editWindowClosed(seq: UInt64, windowMillis: UInt64)
    case clientIDReused(ClientIDUse)

    // MARK: Files and avatars

    case fileTooLarge(size: UInt64, max: UInt64)
    case quotaExceeded(quota: UInt64, left: UInt64)
    case tooManyUploads(max: Int)
    case imageTooLarge(pixels: UInt64, max: UInt64)
    case hashMismatch
    case fileNotStored
    case uploadIncomplete(for: UploadUse)
    case notAnImage(mediaType: String)
    case unreadableImage

    // MARK: The assistant

    case assistantUnavailable
    case providerOffHere
    case assistantBudgetExhausted(perDay: Int)

    // MARK: The server itself

    case storageFull
    /// The database cannot be reached or went away mid-request (`StoreError.unavailable`):
    /// nothing was committed, so nothing is acknowledged; the client retries with backoff.
    case databaseUnavailable
    /// A store failure the client cannot act on (the details go to the log, not the wire).
    case internalStorage
    case `internal`

    enum Capability { case files, messageChanges, assistant(FrameType) }
    enum DisabledBy { case admin, adminDisabling, adminDeleting }
    enum Throttle { case registrations, logins, passwordAttempts }
    enum Busy { case passwords, assistant, languageModel }
    enum RateLimit { case sending(retryAfter: UInt64), changing }
    enum UploadUse { case send, avatar }

    enum UsernameProblem {
        case length(Int)
        case uppercase(suggestion: String)
        case character(Unicode.Scalar)
        case leadingPunctuation
    }

    /// What was too long, with the limit it passed.
    enum TooLong {
        case password(max: Int, field: String)
        /// Display names, group names, away messages (`what` in the plural).
        case name(what: String, max: Int, length: Int, field: String)
        case clientLabel(max: Int)
        case device(max: Int)
        case searchQuery(max: Int)
        case userSearch(max: Int)
        case fileName(max: Int)
        case mediaType
        case chunk(max: Int)
        case message(max: Int, length: Int)
        case draft(max: Int, length: Int)
    }

    enum InvalidArgument {
        /// `hex` is the scalar's code point, four digits at least.
        case forbiddenCharacter(what: String, hex: String, field: String)
        case noVisibleCharacter(what: String, field: String)
        case deviceCharacter(hex: String)
        case tooManyUsernames(max: Int)
        case directWithSelf
        case groupTooSmall
        case notAGroup(conversation: UInt64)
        case groupTooLarge(max: Int, members: Int)
        case blockSelf
        case contactSelf
        /// PROFILE_UPDATE's time zone is neither an IANA name nor an offset (the value is not echoed).
        case notATimeZone
        case emptySearch
        case emptyUserSearch
        case syncRunning
        case fileName
        case chunkPastEnd(size: UInt64)
        case offsetPastEnd(size: UInt64)
        case changeAction(UInt64)
        case emptyMessage
        case emptyDraft
        case itemKind
        case notAnActionItem(UInt64)
    }

    enum Missing {
        /// The store found no row (a race with a delete).
        case record
        case session(UInt64)
        case contactRequest(from: String)
        case user(String)
        case conversation(UInt64)
        case message(seq: UInt64, conversation: UInt64)
        case actionItem(UInt64)
        case upload
        case expiredUpload
        case file
        case thumbnail
    }

    enum NotAContact {
        case youBlocked
        case undeliverable
        case cannotJoinGroup(String)
        case notInContacts(String)
        case profileHidden(String)
    }

    enum ClientIDUse {
        /// A SEND whose client id named a change (`nil` original) or another message.
        case sendAfterChange, sendAfterMessage
        /// A CHANGE whose client id named another change or one of the user's messages.
        case changeAfterChange, changeAfterMessage
    }
}
