/// A token bucket per key (a user for SEND, an address for REGISTER): `capacity` tokens,
/// refilled at capacity/window per second.
struct KeyedRateLimiter<Key: Hashable> {
    let capacity: Double
    let refillPerMilli: Double
    /// What it was made with, as WELCOME announces it (a SIGHUP reload may change it).
    let limit: Int
    let windowSeconds: Double
    private var buckets: [Key: (tokens: Double, at: UInt64)] = [:]

    init(limit: Int, windowSeconds: Double) {
        self.limit = limit
        self.windowSeconds = windowSeconds
        capacity = Double(max(limit, 1))
        refillPerMilli = capacity / max(windowSeconds * 1000, 1)
    }

    /// Takes one token; when none is left, returns how long until the next one (ms).
    mutating func take(_ key: Key, now: UInt64) -> UInt64? {
        // Full buckets carry no information: drop them when the table grows large.
        if buckets.count > 100_000 { buckets = buckets.filter { $0.value.tokens + Double(now &- $0.value.at) * refillPerMilli < capacity } }
        var b = buckets[key] ?? (capacity, now)
        b.tokens = min(capacity, b.tokens + Double(now &- b.at) * refillPerMilli)
        b.at = now
        if b.tokens >= 1 {
            b.tokens -= 1
            buckets[key] = b
            return nil
        }
        buckets[key] = b
        return UInt64(((1 - b.tokens) / refillPerMilli).rounded(.up))
    }
}

/// SEND's limit, per user.
typealias RateLimiter = KeyedRateLimiter<UInt64>

extension KeyedRateLimiter where Key == UInt64 {
    mutating func take(user: UInt64, now: UInt64) -> UInt64? { take(user, now: now) }
}
