/// The `code` of an ERROR frame. Codes never change meaning; new ones may be added, and a client
/// treats an unknown code by its `closesConnection` field and shows the message.
public enum ErrorCode: UInt16, CaseIterable, Sendable {
    case malformedFrame = 1
    case frameTooLarge = 2
    case unsupportedVersion = 3
    case handshakeRequired = 4
    case unknownFrameType = 5
    case badRequest = 6
    case invalidUTF8 = 7
    case tooLong = 8
    case notAuthenticated = 9
    case alreadyAuthenticated = 10
    case invalidCredentials = 11
    case throttled = 12
    case usernameTaken = 13
    case emailTaken = 14
    case invalidUsername = 15
    case invalidEmail = 16
    case weakPassword = 17
    case invalidToken = 18
    case notFound = 19
    case notAContact = 20
    case notAMember = 21
    case rateLimited = 22
    case internalError = 23
    case storageFull = 24
    case idleTimeout = 25
    case outputOverflow = 26
    case decompressionFailed = 27
    case shuttingDown = 28
    case invalidArgument = 29
    case clientIDReused = 30
    case serverBusy = 31
    // The assistant (40-49).
    case assistantUnavailable = 40
    case assistantBudgetExhausted = 41
    case providerOffHere = 42
    // Message changes (replies, reactions, edits, deletes)
    case notSender = 50
    case editWindowClosed = 51
    case invalidReaction = 52
    case messageDeleted = 53
    case noSuchMessage = 54
    // Files (60-69). Each names the limit it is about in ERROR's `limit`.
    case fileTooLarge = 60
    case hashMismatch = 61
    case quotaExceeded = 62
    case tooManyUploads = 63
    case imageTooLarge = 64
    case uploadIncomplete = 65
    // Avatars (66-69).
    case notAnImage = 66
    // Administration (76): an admin disabled the account (issue 27). Answers LOGIN and RESUME
    // (stays open); pushed with `closes` to the account's connections when it is disabled.
    case accountDisabled = 76
    // The server's database (77, issue 25): a PostgreSQL store that cannot be reached, or went
    // away mid-request. Nothing was stored; retryable, with backoff. Stays open.
    case databaseUnavailable = 77

    /// Whether the server closes the connection after sending this error.
    public var closesConnection: Bool {
        switch self {
        case .malformedFrame, .frameTooLarge, .unsupportedVersion, .handshakeRequired,
             .idleTimeout, .outputOverflow, .decompressionFailed, .shuttingDown:
            return true
        default:
            return false
        }
    }

    /// The name used in the spec and in logs.
    public var name: String {
        switch self {
        case .malformedFrame: return "malformed_frame"
        case .frameTooLarge: return "frame_too_large"
        case .unsupportedVersion: return "unsupported_version"
        case .handshakeRequired: return "handshake_required"
        case .unknownFrameType: return "unknown_frame_type"
        case .badRequest: return "bad_request"
        case .invalidUTF8: return "invalid_utf8"
        case .tooLong: return "too_long"
        case .notAuthenticated: return "not_authenticated"
        case .alreadyAuthenticated: return "already_authenticated"
        case .invalidCredentials: return "invalid_credentials"
        case .throttled: return "throttled"
        case .usernameTaken: return "username_taken"
        case .emailTaken: return "email_taken"
        case .invalidUsername: return "invalid_username"
        case .invalidEmail: return "invalid_email"
        case .weakPassword: return "weak_password"
        case .invalidToken: return "invalid_token"
        case .notFound: return "not_found"
        case .notAContact: return "not_a_contact"
        case .notAMember: return "not_a_member"
        case .rateLimited: return "rate_limited"
        case .internalError: return "internal_error"
        case .storageFull: return "storage_full"
        case .idleTimeout: return "idle_timeout"
        case .outputOverflow: return "output_overflow"
        case .decompressionFailed: return "decompression_failed"
        case .shuttingDown: return "shutting_down"
        case .invalidArgument: return "invalid_argument"
        case .clientIDReused: return "client_id_reused"
        case .serverBusy: return "server_busy"
        case .assistantUnavailable: return "assistant_unavailable"
        case .assistantBudgetExhausted: return "assistant_budget_exhausted"
        case .providerOffHere: return "provider_off_here"
        case .notSender: return "not_sender"
        case .editWindowClosed: return "edit_window_closed"
        case .invalidReaction: return "invalid_reaction"
        case .messageDeleted: return "message_deleted"
        case .noSuchMessage: return "no_such_message"
        case .fileTooLarge: return "file_too_large"
        case .hashMismatch: return "hash_mismatch"
        case .quotaExceeded: return "quota_exceeded"
        case .tooManyUploads: return "too_many_uploads"
        case .imageTooLarge: return "image_too_large"
        case .uploadIncomplete: return "upload_incomplete"
        case .notAnImage: return "not_an_image"
        case .accountDisabled: return "account_disabled"
        case .databaseUnavailable: return "database_unavailable"
        }
    }
}
