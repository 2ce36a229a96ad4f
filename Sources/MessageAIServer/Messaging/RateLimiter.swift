/// A token bucket per user: `capacity` messages, refilled at capacity/window per second.
struct RateLimiter {
    let capacity: Double
    let refillPerMilli: Double
    private var buckets: [UInt64: (tokens: Double, at: UInt64)] = [:]

    init(limit: Int, windowSeconds: Double) {
        capacity = Double(max(limit, 1))
        refillPerMilli = capacity / max(windowSeconds * 1000, 1)
    }

    /// Takes one token; when none is left, returns how long until the next one (ms).
    mutating func take(user: UInt64, now: UInt64) -> UInt64? {
        var b = buckets[user] ?? (capacity, now)
        b.tokens = min(capacity, b.tokens + Double(now &- b.at) * refillPerMilli)
        b.at = now
        if b.tokens >= 1 {
            b.tokens -= 1
            buckets[user] = b
            return nil
        }
        buckets[user] = b
        return UInt64(((1 - b.tokens) / refillPerMilli).rounded(.up))
    }
}
