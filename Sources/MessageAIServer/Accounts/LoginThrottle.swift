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

    mutating func recordFailure(account accountKey: String, address addr: String, now: UInt64) {
        pair.recordFailure(addr + " " + accountKey, now: now)
        // The owner's typos at their usual address do not spend the shared budgets.
        guard !isUsual(addr, for: accountKey) else { return }
        account.recordFailure(accountKey, now: now)
        address.recordFailure(addr, now: now)
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
