/// What the admin commands (`messageai-server admin ...`, issue 27) need from a store, as a
/// capability of its own in the shape issue 25 gives the store interface: plain records, no
/// wire types, nothing of one backend (a PostgreSQL store implements the same requirements).
/// Reached through `Store.admin`, not by casting. Called on the hub queue like the rest.
/// Sendable: a backup calls `snapshot(into:)` off the hub; everything else runs on the hub.
public protocol AdminStore: AnyObject, Sendable {
    /// Every account, by username, with whether it is disabled.
    nonisolated(nonsending) func accounts() async throws -> [AccountRecord]
    nonisolated(nonsending) func account(username: String) async throws -> AccountRecord?
    /// Disables (`at` > 0, when) or enables (`at` == 0) an account; false when there is no such user.
    nonisolated(nonsending) func setDisabled(userID: UInt64, at: UInt64) async throws -> Bool
    nonisolated(nonsending) func isDisabled(userID: UInt64) async throws -> Bool
    nonisolated(nonsending) func session(id: UInt64) async throws -> SessionRecord?
    /// Deletes every session of the user; returns their ids.
    nonisolated(nonsending) func deleteAllSessions(userID: UInt64) async throws -> [UInt64]
    nonisolated(nonsending) func statistics() async throws -> StoreStatistics
    /// Deletes an account as far as others' history allows, in one transaction: its sessions,
    /// contacts, blocks and status go; its name and email are freed (the row becomes
    /// `deleted-ID`, display name "deleted user", a password hash nothing matches, disabled);
    /// the messages it sent stay in their conversations under that name. Returns the new
    /// username; nil when there is no such user.
    nonisolated(nonsending) func deleteAccount(userID: UInt64, now: UInt64) async throws -> String?
    /// Writes a consistent copy of the whole database, as of one moment, to a new file at
    /// `path` (mode 0600) while the server keeps writing. The one requirement called off the
    /// hub: it must use a connection of its own. A backend that has no single-file copy throws
    /// (PostgreSQL: `pg_dump`, README "Operating a server").
    nonisolated(nonsending) func snapshot(into path: String) async throws
}

/// An account as the admin sees it.
public struct AccountRecord: Equatable, Sendable {
    public var user: UserRecord
    /// When it was disabled (ms since 1970), 0 when it is not.
    public var disabledAt: UInt64
    public var disabled: Bool { disabledAt != 0 }
    public init(user: UserRecord, disabledAt: UInt64) { self.user = user; self.disabledAt = disabledAt }
}

/// Counts for `admin stats`. Sizes are bytes as the store keeps them.
public struct StoreStatistics: Equatable, Sendable {
    public var users = 0
    public var disabledUsers = 0
    public var conversations = 0
    public var messages = 0
    public var sessions = 0
    public var files = 0
    /// Bytes of complete files as served (each upload counted, before deduplication).
    public var fileBytes: UInt64 = 0
    /// The database's own size (for SQLite the main file, without its WAL).
    public var databaseBytes: UInt64 = 0
    public init() {}
}
