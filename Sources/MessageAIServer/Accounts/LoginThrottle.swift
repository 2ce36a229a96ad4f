/// Failed password attempts, counted per key with growing delays: the first `freeFailures`
/// cost nothing, then each further attempt must wait 1 s, 2 s, 4 s ... (at most `maxDelay`)
/// after the last failure. A refused (throttled) attempt is not a failure and does not extend
/// the wait. A key is forgotten `forgetAfter` after its last failure. Memory is bounded: the
/// table is swept of forgotten keys when it grows large.
struct FailureCounter {
    let freeFailures: Int
    let maxDelayMillis: UInt64
    let forgetAfterMillis: UInt64
    private var entries: [String: (count: Int, last: UInt64)] = [:]

    init(freeFailures: Int, maxDelayMillis: UInt64 = 300_000, forgetAfterMillis: UInt64 = 900_000) {
        self.freeFailures = max(freeFailures, 1)
        self.maxDelayMillis = maxDelayMillis
        self.forgetAfterMillis = forgetAfterMillis
    }

    /// The wait after `count` failures (0 while they are free).
    func delay(after count: Int) -> UInt64 {
        guard count >= freeFailures else { return 0 }
        return min(maxDelayMillis, 1_000 << UInt64(min(count - freeFailures, 20)))
    }

    /// Milliseconds to wait before `key` may try again, or nil when it may now.
    mutating func retryAfter(_ key: String, now: UInt64) -> UInt64? {
        guard let e = entries[key] else { return nil }
        if now &- e.last >= forgetAfterMillis { entries[key] = nil; return nil }
        let until = e.last + delay(after: e.count)
        return until > now ? until - now : nil
    }

    mutating func recordFailure(_ key: String, now: UInt64) {
        if entries.count > 100_000 { entries = entries.filter { now &- $0.value.last < forgetAfterMillis } }
        var e = entries[key] ?? (0, now)
        if now &- e.last >= forgetAfterMillis { e.count = 0 }
        e.count += 1
        e.last = now
        entries[key] = e
    }

    mutating func reset(_ key: String) { entries[key] = nil }

    /// Takes back one failure counted for an attempt that turned out not to be one.
    mutating func undo(_ key: String) {
        guard var e = entries[key] else { return }
        e.count -= 1
        entries[key] = e.count > 0 ? e : nil
    }

    /// The wait runs from the end of the last failed check, not from its start.
    mutating func touch(_ key: String, now: UInt64) {
        if entries[key] != nil { entries[key]!.last = now }
    }

    func failures(_ key: String) -> Int { entries[key]?.count ?? 0 }
}

/// The login throttle (PROTOCOL.md, "Rate limits and throttling"):
/// - per (address, account): 5 free failures, then growing delays; a success resets it;
/// - per account, from all addresses: 20 free failures, then growing delays;
/// - per address, over all accounts: 50 free failures (an office behind one NAT), then growing delays.
/// The account-wide and address-wide counters do not apply from an address where the account
/// logged in successfully before (its usual address): a stranger's failures elsewhere cannot
/// lock the owner out. Session RESUME with a valid token is never throttled.
struct LoginThrottle {
    private(set) var pair: FailureCounter
    private(set) var account: FailureCounter
    private(set) var address: FailureCounter
    /// Per account key, the addresses it recently logged in from (at most `usualAddressLimit`).
    private var usual: [String: [String]] = [:]
    static let usualAddressLimit = 8

    init(pairFailures: Int = 5, accountFailures: Int = 20, addressFailures: Int = 50) {
        pair = FailureCounter(freeFailures: pairFailures)
        account = FailureCounter(freeFailures: accountFailures)
        address = FailureCounter(freeFailures: addressFailures)
    }

    func isUsual(_ address: String, for accountKey: String) -> Bool { usual[accountKey]?.contains(address) ?? false }

    /// Milliseconds to wait before this address may try this account again, or nil.
    mutating func retryAfter(account accountKey: String, address addr: String, now: UInt64) -> UInt64? {
        let own = pair.retryAfter(addr + " " + accountKey, now: now)
        if isUsual(addr, for: accountKey) { return own }
        let waits = [own, account.retryAfter(accountKey, now: now), address.retryAfter(addr, now: now)].compactMap { $0 }
        return waits.max()
    }

    /// Counts a password check as a failure when it starts, before its answer is known:
    /// checks in flight at once (16 parallel connections) spend the free failures like
    /// checks made one after another, so the sixth waits instead of being checked too.
    mutating func begin(account accountKey: String, address addr: String, now: UInt64) -> LoginAttempt {
        pair.recordFailure(addr + " " + accountKey, now: now)
        // The owner's typos at their usual address do not spend the shared budgets.
        let shared = !isUsual(addr, for: accountKey)
        if shared {
            account.recordFailure(accountKey, now: now)
            address.recordFailure(addr, now: now)
        }
        return LoginAttempt(accountKey: accountKey, address: addr, shared: shared)
    }

    /// A failure known at once (no check in flight).
    mutating func recordFailure(account accountKey: String, address addr: String, now: UInt64) {
        _ = begin(account: accountKey, address: addr, now: now)
    }

    /// The check failed: it was counted at its start; the delay now runs from here.
    mutating func failed(_ a: LoginAttempt, now: UInt64) {
        pair.touch(a.address + " " + a.accountKey, now: now)
        guard a.shared else { return }
        account.touch(a.accountKey, now: now)
        address.touch(a.address, now: now)
    }

    /// The check never ran (`server_busy`) or the password was right: it was no failure.
    mutating func cancel(_ a: LoginAttempt) {
        pair.undo(a.address + " " + a.accountKey)
        guard a.shared else { return }
        account.undo(a.accountKey)
        address.undo(a.address)
    }

    /// The password was right: no failure, and a successful login resets this address's count.
    mutating func succeeded(_ a: LoginAttempt) {
        cancel(a)
        recordSuccess(account: a.accountKey, address: a.address)
    }

    /// The account logged in (or resumed a session) from `addr`.
    mutating func recordSuccess(account accountKey: String, address addr: String) {
        pair.reset(addr + " " + accountKey)
        var list = usual[accountKey] ?? []
        list.removeAll { $0 == addr }
        list.append(addr)
        if list.count > Self.usualAddressLimit { list.removeFirst() }
        usual[accountKey] = list
    }
}

/// One password check in flight, counted as a failure until it is known not to be one.
struct LoginAttempt {
    let accountKey: String
    let address: String
    /// Whether the account-wide and address-wide counters were charged (not a usual address).
    let shared: Bool
}

/// Registrations per address: a token bucket of `perHour` (0: no limit), so that one address
/// cannot create accounts (each a costly password hash) without end.
struct RegistrationLimiter {
    private var buckets: KeyedRateLimiter<String>
    let enabled: Bool

    init(perHour: Int) {
        enabled = perHour > 0
        buckets = KeyedRateLimiter<String>(limit: max(perHour, 1), windowSeconds: 3_600)
    }

    mutating func take(_ address: String, now: UInt64) -> UInt64? {
        enabled ? buckets.take(address, now: now) : nil
    }
}
