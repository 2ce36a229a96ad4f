import Foundation

/// When the user last used this client at a terminal (milliseconds since 1970), for the catch-up
/// shown after 6 hours away. A row of `assistant_state` (the table of named counters the
/// assistant's sync cursor lives in), so the cache's schema does not change.
extension LocalStore {
    public func lastSeen() throws -> UInt64? {
        try db.queryOne("SELECT value FROM assistant_state WHERE name='last_seen'") { $0.uint64(0) }
    }

    /// Set as is, not raised: a clock set back must not leave "last seen" in the future.
    public func setLastSeen(_ value: UInt64) throws {
        try db.run("INSERT INTO assistant_state(name, value) VALUES('last_seen', ?) ON CONFLICT(name) DO UPDATE SET value=excluded.value", value)
    }
}
