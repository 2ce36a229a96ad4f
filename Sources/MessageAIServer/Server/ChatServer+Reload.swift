import Logging

/// What SIGHUP changes besides the certificate (`reloadTLS`): settings a running server can
/// take without dropping anyone.
extension ChatServer {
    /// New send limits: connections made from now on are told them in WELCOME; those already
    /// open keep pacing to what they were told and meet `rate_limited` at worst. Buckets start
    /// full again (a reload is rare; carrying fractional state across limits is not worth it).
    public func updateRateLimit(limit: Int, windowSeconds: Double) {
        queue.async { [self] in
            let old = (rateLimiter.limit, rateLimiter.windowSeconds)
            guard old != (limit, windowSeconds) else { return }
            rateLimiter = RateLimiter(limit: limit, windowSeconds: windowSeconds)
            shareSendLimit()
            logger.notice("SIGHUP: rate limit \(old.0) per \(old.1) s -> \(limit) per \(windowSeconds) s")
        }
    }
}
