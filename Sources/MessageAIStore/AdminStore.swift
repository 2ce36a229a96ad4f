/// What the admin commands (`messageai-server admin ...`, issue 27) need from a store, as a
/// capability of its own in the shape issue 25 gives the store interface: plain records, no
/// wire types, nothing of one backend (a PostgreSQL store implements the same requirements).
/// Reached through `Store.admin`, not by casting. Called on the hub's executor like the rest;
/// Sendable so that a closure may carry it back there.
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
    /// The single-file copy `admin backup` makes, when this backend has one (nil: use the
    /// database's own tools, e.g. `pg_dump`). A capability asked for, never found by casting.
    var backup: BackupStore? { get }
}

extension AdminStore {
    /// A backend has no single-file copy unless it says so.
    public var backup: BackupStore? { nil }
}

/// A consistent copy of the whole database in one file, taken while the server keeps writing
/// (SQLite's `VACUUM INTO`). An optional capability of the admin store (`AdminStore.backup`):
/// a backend whose database is a server of its own (PostgreSQL) leaves it out, and
/// `admin backup` then says to use the database's own tools.
public protocol BackupStore: AnyObject, Sendable {
    /// Writes the copy, as of one moment, to a new file at `path` (mode 0600). The one call
    /// made off the hub (it takes as long as the database is large): the backend uses a
    /// connection of its own, and the caller awaits it from a task of its own.
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
