/// Limits counted in the database, so that several nodes on one database give the limits of
/// one node (issue 26): the send rate per user, the registrations per address, and the login
/// throttle. A capability of the store (`Store.limits`): a store that serves one node (SQLite)
/// has none, and the server counts in its own memory. Times are the database's clock, so that
/// nodes whose clocks differ still share one bucket.
public protocol LimitStore: AnyObject, Sendable {
    /// The send limit per user that `Store.append` applies from now on, inside the batch's
    /// transaction (no round trip of its own): a message over it is `.rateLimited`, nothing
    /// of it stored; a resend of a stored message passes (it is no new traffic). Nil: none.
    func setSendLimit(_ limit: SendLimit?)
    /// Takes `count` tokens from the bucket `key` (a user's sends share `SendLimit.key(user:)`
    /// with `append`); returns how many it got and, when fewer, the milliseconds until the next.
    nonisolated(nonsending) func takeTokens(_ key: String, count: Int, limit: SendLimit) async throws -> (granted: Int, retryAfter: UInt64)
    /// Starts a password check: the wait when one of its counters says so (nothing counted),
    /// else counts it as a failure at once (checks in flight at once on several nodes spend
    /// the free failures as checks made one after another) and returns `.counted`.
    nonisolated(nonsending) func beginPasswordCheck(_ keys: LoginKeys, policy: FailurePolicy) async throws -> PasswordCheckStart
    /// Ends one: `shared` is what `beginPasswordCheck` said (whether the account-wide and
    /// address-wide counters were charged).
    nonisolated(nonsending) func endPasswordCheck(_ keys: LoginKeys, shared: Bool, _ end: PasswordCheckEnd, policy: FailurePolicy) async throws
    /// Deletes buckets that are full again and failures that are forgotten; returns how many.
    @discardableResult nonisolated(nonsending) func purgeLimits() async throws -> Int
}

/// A token bucket's size: `limit` tokens, refilled at limit/window.
public struct SendLimit: Sendable, Equatable {
    public var limit: Int
    public var windowMillis: UInt64
    public init(limit: Int, windowMillis: UInt64) { self.limit = limit; self.windowMillis = windowMillis }
    public static func key(user: UInt64) -> String { "send:\(user)" }
}

/// Whose attempt: the account's throttle key and the client's address.
public struct LoginKeys: Sendable, Equatable {
    public var account: String
    public var address: String
    public init(account: String, address: String) { self.account = account; self.address = address }
}

/// The login throttle's figures (PROTOCOL.md, "Rate limits and throttling").
public struct FailurePolicy: Sendable, Equatable {
    public var pairFailures: Int
    public var accountFailures: Int
    public var addressFailures: Int
    public var maxDelayMillis: UInt64
    public var forgetAfterMillis: UInt64
    /// How many addresses per account count as its usual ones.
    public var usualAddresses: Int
    public init(pairFailures: Int, accountFailures: Int, addressFailures: Int, maxDelayMillis: UInt64 = 300_000,
                forgetAfterMillis: UInt64 = 900_000, usualAddresses: Int = 8) {
        self.pairFailures = max(pairFailures, 1); self.accountFailures = max(accountFailures, 1)
        self.addressFailures = max(addressFailures, 1); self.maxDelayMillis = maxDelayMillis
        self.forgetAfterMillis = forgetAfterMillis; self.usualAddresses = usualAddresses
    }
}

public enum PasswordCheckStart: Sendable, Equatable {
    /// Not now: try again after this many milliseconds.
    case wait(UInt64)
    /// Counted as a failure until it ends otherwise; `shared`: the account-wide and
    /// address-wide counters were charged too (the address is not one the account uses).
    case counted(shared: Bool)
}

public enum PasswordCheckEnd: Int16, Sendable {
    /// The password was wrong: the wait runs from now.
    case failed = 1
    /// The check never ran, or the connection went: no failure.
    case notAFailure = 2
    /// The password was right: no failure, this address's count is reset and it becomes usual.
    case succeeded = 3
    /// Logged in without a password check of this kind (registered, resumed a session): the
    /// address's count is reset and it becomes usual; nothing was counted to take back.
    case loggedIn = 4
}
