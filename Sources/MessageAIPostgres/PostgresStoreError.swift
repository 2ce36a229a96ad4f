import MessageAIStore
import MessageAIStore
import PostgresNIO

/// How the PostgreSQL store sorts a failure. `open` throws these (an unreachable database and
/// a refused login are told apart at start); every store operation throws the shared
/// interface's `StoreError` instead (`storeError`). Nothing of PostgresNIO leaks past `classify`.
public enum PostgresStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The database could not be reached in time, or the connection was lost mid-operation.
    /// Retryable: the operation's transaction did not commit (a commit whose answer was lost
    /// is the one exception, and every write here is idempotent by its client id, so a resend
    /// is safe). `StoreError.unavailable`; the server answers error 77 `database_unavailable`.
    case databaseUnavailable(reason: String)
    /// The database refused the login (wrong password, unknown user or database, no password
    /// given where one is needed, or pg_hba.conf refuses): retrying will not help.
    case loginRefused(reason: String)
    /// The sender is not a member of the conversation (or the conversation does not exist:
    /// the two are not told apart, as over the wire).
    case notMember
    /// A send into a direct conversation where either side blocks the other. `bySender`: the
    /// sender is the blocker (they are told why; the blocked side gets the generic words).
    case blocked(bySender: Bool)
    /// A username or email is taken, ignoring case.
    case usernameTaken
    case emailTaken
    /// No such conversation, member, message or user.
    case notFound
    /// A reply or change names a seq that is no message of the conversation.
    case noSuchMessage
    /// A reply or change names a message deleted for everyone.
    case messageDeleted
    /// The client id belongs to another message (another conversation or text) or a change.
    case clientIDReused
    /// The database holds a migration this code does not know (written by a newer server).
    case schemaTooNew(migration: String)
    /// Anything else the database refused: a bug, not a condition to retry. `sqlState` is
    /// PostgreSQL's five-character code when the server sent one.
    case failed(sqlState: String?, message: String)

    public var description: String {
        switch self {
        case .databaseUnavailable(let reason): "database unavailable: \(reason)"
        case .loginRefused(let reason): "database refused the login: \(reason)"
        case .notMember: "not a member of the conversation"
        case .blocked(let bySender): bySender ? "the sender blocks the other member" : "the message cannot be delivered"
        case .usernameTaken: "username taken"
        case .emailTaken: "email taken"
        case .notFound: "not found"
        case .noSuchMessage: "no such message"
        case .messageDeleted: "the message was deleted"
        case .clientIDReused: "client id already used for another message or change"
        case .schemaTooNew(let name): "database has migration '\(name)' unknown to this server (newer version?)"
        case .failed(let state, let message): "database error \(state ?? "-"): \(message)"
        }
    }

    /// Sorts any error thrown while talking to PostgreSQL into the cases above. Errors that
    /// are already ours pass through (from inside a transaction they arrive wrapped).
    static func classify(_ error: any Error) -> PostgresStoreError {
        switch error {
        case let ours as PostgresStoreError:
            return ours
        case let transaction as PostgresTransactionError:
            if let inner = transaction.closureError ?? transaction.beginError ?? transaction.commitError {
                return classify(inner)
            }
            return .failed(sqlState: nil, message: "transaction failed")
        case let psql as PSQLError:
            return classify(psql)
        case is CancellationError:
            return .databaseUnavailable(reason: "cancelled")
        default:
            // The pool's own error (no connection could be made for 60 s, or the pool is shut
            // down) lives in PostgresNIO's underscored module, an unstable product we do not
            // import; both mean the same to a caller.
            let name = String(describing: type(of: error))
            if name == "ConnectionPoolError" { return .databaseUnavailable(reason: "connection pool: \(error)") }
            return .failed(sqlState: nil, message: name)
        }
    }

    private static func classify(_ error: PSQLError) -> PostgresStoreError {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState]
            // Class 28: invalid authorization (password, pg_hba.conf); 3D000: no such database.
            if let state, state.hasPrefix("28") || state == "3D000" {
                return .loginRefused(reason: error.serverInfo?[.message] ?? state)
            }
            // Class 08: connection exception; 57P01-57P03: the server is shutting down,
            // crashed, or not yet accepting connections; 53300: too many connections.
            if let state, state.hasPrefix("08") || state.hasPrefix("57P") || state == "53300" {
                return .databaseUnavailable(reason: "server said \(state)")
            }
            // The message, not the query or its binds: those may hold a user's text.
            return .failed(sqlState: state, message: error.serverInfo?[.message] ?? "server error")
        case .authMechanismRequiresPassword:
            return .loginRefused(reason: "the server asks for a password and none was given")
        case .unsupportedAuthMechanism:
            return .loginRefused(reason: "the server asks for an authentication method PostgresNIO does not support")
        case .sslUnsupported:
            return .databaseUnavailable(reason: "TLS is required (sslmode) but the server does not offer it")
        case .connectionError:
            return .databaseUnavailable(reason: "cannot connect: \(error.underlying.map { "\($0)" } ?? "connection error")")
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed:
            return .databaseUnavailable(reason: error.code.description)
        case .queryCancelled:
            return .databaseUnavailable(reason: "query cancelled")
        default:
            return .failed(sqlState: nil, message: error.code.description)
        }
    }
}

extension PostgresStoreError {
    /// The shared interface's error for this one, with the SQLite store's meaning. A refusal
    /// that a check in the transaction found (another node changed membership, a block or the
    /// target since the caller checked) is `notFound`, as SQLite answers a missing row; an
    /// unreachable database, and a login refused mid-run (a changed password), are
    /// `unavailable`: nothing was committed, and a retry later may succeed.
    var storeError: StoreError {
        switch self {
        case .databaseUnavailable(let reason): .unavailable(reason)
        case .loginRefused(let reason): .unavailable("login refused: \(reason)")
        case .notMember, .blocked, .notFound, .noSuchMessage, .messageDeleted: .notFound
        case .usernameTaken: .usernameTaken
        case .emailTaken: .emailTaken
        case .clientIDReused: .conflict("client id already used")
        case .schemaTooNew: .failed(description)
        case .failed(let state, _) where state == "53100": .diskFull  // disk_full
        case .failed(let state, let message) where state == "23505": .conflict(message)  // unique_violation
        case .failed(let state, _) where state == "23503": .missingReference  // foreign_key_violation
        case .failed: .failed(description)
        }
    }
}
