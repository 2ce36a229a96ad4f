import Foundation

/// Paces SENDs to the rate limit the server announces in WELCOME (`send_limit` messages per
/// `send_window_ms`): a token bucket like the server's, so a 200-line script goes at the
/// server's pace instead of meeting `rate_limited` (which is still handled: several devices
/// share the server's bucket). It refills a little slower than the server's (2 %), so that
/// network jitter does not bring two sends closer together than the server allows.
struct SendPacer {
    private(set) var limit: UInt64 = 0
    private(set) var windowMs: UInt64 = 0
    private var tokens: Double = 0
    private var at: UInt64 = 0

    static let margin = 0.98

    /// Takes the server's figures; a change (another server) starts a full bucket, as the
    /// server's does. No limit announced (an older server): never waits.
    mutating func configure(limit: UInt64, windowMs: UInt64, now: UInt64) {
        guard limit != self.limit || windowMs != self.windowMs else { return }
        self.limit = limit
        self.windowMs = windowMs
        tokens = Double(limit)
        at = now
    }

    /// "5 messages per 10 min", "20 messages per 1 s".
    static func describe(_ p: SendPacer) -> String {
        let s = Double(p.windowMs) / 1000
        let window = s >= 120 && s.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(s / 60)) min" : (s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s))
        return "\(p.limit) messages per \(window)"
    }

    /// Takes a token for one SEND (nil), or says how long until there is one (ms).
    mutating func take(now: UInt64) -> UInt64? {
        guard limit > 0, windowMs > 0 else { return nil }
        let perMs = Double(limit) / Double(windowMs) * SendPacer.margin
        tokens = min(Double(limit), tokens + Double(now >= at ? now - at : 0) * perMs)
        at = max(at, now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, UInt64(((1 - tokens) / perMs).rounded(.up)))
    }
}
