/// Counts failed logins per key (an account name or an address) in a sliding window.
/// Past `limit` failures within `window`, further attempts are refused until the oldest
/// failure leaves the window. Memory is bounded: stale keys are pruned as they are seen, and
/// the whole table is swept when it grows large.
struct LoginThrottle {
    let limit: Int
    let windowMillis: UInt64
    private var failures: [String: [UInt64]] = [:]

    init(limit: Int, windowMillis: UInt64 = 60_000) {
        self.limit = limit
        self.windowMillis = windowMillis
    }

    /// Milliseconds to wait before trying `key` again, or nil when allowed now.
    mutating func retryAfter(_ key: String, now: UInt64) -> UInt64? {
        guard var times = failures[key] else { return nil }
        times.removeAll { $0 + windowMillis <= now }
        failures[key] = times.isEmpty ? nil : times
        guard times.count >= limit, let oldest = times.first else { return nil }
        return oldest + windowMillis - now
    }

    mutating func recordFailure(_ key: String, now: UInt64) {
        if failures.count > 100_000 { sweep(now: now) }
        failures[key, default: []].append(now)
        if failures[key]!.count > limit * 2 { failures[key]!.removeFirst() }
    }

    mutating func reset(_ key: String) { failures[key] = nil }

    private mutating func sweep(now: UInt64) {
        failures = failures.filter { $0.value.contains { $0 + windowMillis > now } }
    }
}
