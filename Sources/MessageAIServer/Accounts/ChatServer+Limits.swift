import MessageAIStore

/// Where the limits are counted: in this node's memory (SQLite, one node), or in the database
/// every node shares (`Store.limits`, PostgreSQL; issue 26), so that three nodes give the limits
/// of one. The password-hash work in flight stays per node (`hashesInFlight`): it protects this
/// node's CPU. With the database unreachable, a shared limit cannot be asked: the request fails
/// with `databaseUnavailable` (77), as a send does, rather than being let through uncounted.
extension ChatServer {
    /// One password check in flight, counted as a failure until it is known not to be one.
    enum PasswordAttempt {
        case local(LoginAttempt)
        case shared(LoginKeys, shared: Bool)
    }

    var loginPolicy: FailurePolicy {
        FailurePolicy(pairFailures: configuration.loginFailuresPerAccountAtAddress, accountFailures: configuration.loginFailuresPerAccount,
                      addressFailures: configuration.loginFailuresPerAddress, usualAddresses: LoginThrottle.usualAddressLimit)
    }

    /// Tells a shared store the send limit `append` applies (at start and on SIGHUP).
    func shareSendLimit() {
        store.limits?.setSendLimit(SendLimit(limit: rateLimiter.limit,
                                             windowMillis: UInt64((rateLimiter.windowSeconds * 1000).rounded())))
    }

    /// Starts a password check for `account` from `address`: the wait when throttled (nothing
    /// counted), else the attempt, counted as a failure from now.
    func beginPasswordAttempt(account: String, address: String) async throws -> Result<PasswordAttempt, Wait> {
        if let limits = store.limits {
            let keys = LoginKeys(account: account, address: address)
            switch try await limits.beginPasswordCheck(keys, policy: loginPolicy) {
            case .wait(let millis): return .failure(Wait(millis: millis))
            case .counted(let shared): return .success(.shared(keys, shared: shared))
            }
        }
        let now = Clock.uptimeMillis()
        if let wait = loginThrottle.retryAfter(account: account, address: address, now: now) { return .failure(Wait(millis: wait)) }
        return .success(.local(loginThrottle.begin(account: account, address: address, now: now)))
    }

    /// Ends a password check. A shared counter the database could not update stays charged
    /// (the safe side: at worst a later attempt waits); the failure is logged.
    func endPasswordAttempt(_ attempt: PasswordAttempt, _ end: PasswordCheckEnd) async {
        switch attempt {
        case .local(let a):
            switch end {
            case .failed: loginThrottle.failed(a, now: Clock.uptimeMillis())
            case .notAFailure: loginThrottle.cancel(a)
            case .succeeded, .loggedIn: loginThrottle.succeeded(a)
            }
        case .shared(let keys, let shared):
            do {
                try await store.limits?.endPasswordCheck(keys, shared: shared, end, policy: loginPolicy)
            } catch {
                logger.error("login throttle: cannot record the end of a password check: \(error)")
            }
        }
    }

    /// The account logged in without a password check (registered, resumed a session): this
    /// address becomes a usual one.
    func recordLogin(account: String, address: String) async {
        guard let limits = store.limits else {
            loginThrottle.recordSuccess(account: account, address: address)
            return
        }
        do {
            try await limits.endPasswordCheck(LoginKeys(account: account, address: address), shared: false, .loggedIn, policy: loginPolicy)
        } catch {
            logger.error("login throttle: cannot record a login: \(error)")
        }
    }

    /// A registration from `address`: nil when it may go ahead, else the wait (ms).
    func takeRegistration(_ address: String) async throws -> UInt64? {
        let perHour = configuration.registrationsPerAddressPerHour
        guard let limits = store.limits, perHour > 0 else { return registrations.take(address, now: Clock.uptimeMillis()) }
        let (granted, wait) = try await limits.takeTokens("register:" + address, count: 1,
                                                          limit: SendLimit(limit: perHour, windowMillis: 3_600_000))
        return granted == 1 ? nil : wait
    }

    /// A CHANGE spends the user's send budget: from the bucket `append` uses when it is shared
    /// (one round trip per change; a SEND's check rides in its batch's transaction instead).
    func takeChangeToken(_ userID: UInt64) async throws -> UInt64? {
        guard let limits = store.limits else { return rateLimiter.take(user: userID, now: Clock.uptimeMillis()) }
        let limit = SendLimit(limit: rateLimiter.limit, windowMillis: UInt64((rateLimiter.windowSeconds * 1000).rounded()))
        let (granted, wait) = try await limits.takeTokens(SendLimit.key(user: userID), count: 1, limit: limit)
        return granted == 1 ? nil : wait
    }

    struct Wait: Error { let millis: UInt64 }
}
