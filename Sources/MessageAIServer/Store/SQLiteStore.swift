import MessageAISQLite
import Foundation
import MessageAIProtocol

/// `--fsync`, as the server's options carry it whatever the backend: `.normal` survives a
/// crash of the process, `.full` also power loss (SQLite's `synchronous`; another backend maps
/// it to its own setting).
public typealias CommitDurability = SQLiteStore.Synchronous

/// The SQLite implementation of `Store`: one connection, used from one serial queue. Its
/// synchronous methods witness the asynchronous interface's `nonisolated(nonsending)`
/// requirements, so a caller that awaits them gets its answer inline, with no thread hop.
///
/// Durability: the database runs in WAL mode. With `synchronous = NORMAL` a commit is appended
/// to the WAL without an fsync, which survives a crash of the process (kill -9): the data is in
/// the kernel's page cache and the WAL is replayed on the next open. That is what the server
/// promises by default. `.full` also fsyncs the WAL at every commit, which additionally
/// survives power loss or a kernel crash (server flag `--fsync always`), at the cost of one
/// fsync per commit — group commit amortises it over a batch.
// @unchecked Sendable: the connection is confined to the hub queue (ChatServer's `queue`);
// the one call made elsewhere, `snapshot(into:)` for a backup, opens a connection of its own.
public final class SQLiteStore: Store, @unchecked Sendable {
    /// `--fsync`: NORMAL survives kill -9, FULL also power loss (see above).
    public enum Synchronous: String, Sendable {
        case normal = "NORMAL"
        case full = "FULL"
    }

    let db: Database
    /// Every message up to this id is in the full-text index (see `indexPendingMessages`).
    var indexedThrough: UInt64 = 0
    /// A delete's words are still in old index pages or the WAL (`scrubStep`).
    var scrubPending = false
    /// Runs the WAL checkpoints on its own connection when the store was opened with limits.
    private(set) var checkpointer: WALCheckpointer?

    /// `":memory:"` gives a private in-memory database (tests); anything else is a file path.
    public convenience init(path: String) throws {
        try self.init(path: path, synchronous: .normal)
    }

    /// `exclusive` keeps the database's file locks for as long as the store is open, so no other
    /// process (and no other store in this one) can open the database meanwhile. The server
    /// turns it on: it is the only user of its file, and taking and dropping the POSIX locks of
    /// the database and WAL cost ~10 `fcntl` calls per transaction (BENCHMARKS.md E1); in this
    /// mode WAL also needs no shared-memory index. Off by default, so tests can open a file
    /// from several connections.
    ///
    /// `checkpoints` moves the WAL checkpoints to a second connection on a background queue
    /// (`WALCheckpointer`); it needs the shared locking mode, so it excludes `exclusive`. The
    /// server uses it (BENCHMARKS.md, issue 13: what each choice costs).
    public init(path: String, synchronous: Synchronous, exclusive: Bool = false,
                checkpoints: WALCheckpointer.Limits? = nil) throws {
        precondition(!(exclusive && checkpoints != nil), "a second connection cannot open an exclusive database")
        db = try Database(path: path, translate: StoreError.init(sqlite:))
        sqlite3_busy_timeout(db.handle, 5_000)
        // journal_mode answers with the mode in effect; ":memory:" stays "memory", which is fine.
        let mode = try db.queryOne("PRAGMA journal_mode = WAL") { $0.string(0) } ?? ""
        if path != ":memory:" && mode.lowercased() != "wal" {
            // The durability promise above depends on WAL: refuse rather than run without it.
            throw StoreError.sqlite(code: 1, message: "cannot use WAL journal mode for \(path) (got '\(mode)')")
        }
        if exclusive {
            // After journal_mode = WAL: the WAL then lives without the -shm file.
            try db.execute("PRAGMA locking_mode = EXCLUSIVE")
        }
        try db.execute("PRAGMA synchronous = \(synchronous.rawValue)") // a constant from the enum
        try db.execute("PRAGMA foreign_keys = ON")
        // A deleted message's text must not survive in free space: SQLite zeroes what it frees.
        // Messages are only ever deleted or rewritten by CHANGE, so the cost falls there.
        try db.execute("PRAGMA secure_delete = ON")
        try Migrations.apply(to: db, now: SQLiteStore.nowMillis())
        if let checkpoints, path != ":memory:", let handle = db.handle {
            // No `journal_size_limit`: its `ftruncate` of the WAL runs on the hub when the WAL
            // starts over and waited 20-30 ms behind the checkpoint's fdatasync on ext4 (strace
            // -T of W1, BENCHMARKS.md). The WAL file keeps its high-water mark, which the hard
            // limit bounds (16,000 frames, ~64 MB); closing the store removes it.
            let checkpointer = try WALCheckpointer(path: path, synchronous: synchronous, limits: checkpoints)
            checkpointer.attach(to: handle)
            self.checkpointer = checkpointer
        }
        // Messages committed but not indexed when the last process stopped (or crashed).
        indexedThrough = try highestIndexedID()
        try indexPendingMessages()
        // A scrub a crash or shutdown cut short is finished before anything is served.
        scrubPending = try owesScrub()
        try finishScrub()
    }

    /// Closes the connection; the store cannot be used afterwards. Safe to call twice.
    public func close() {
        checkpointer?.close()
        db.close()
    }

    /// "wal" for a file database, "memory" for ":memory:".
    public func journalMode() throws -> String {
        try db.queryOne("PRAGMA journal_mode") { $0.string(0) } ?? ""
    }

    /// "exclusive" when the store holds its file locks until closed, else "normal".
    public func lockingMode() throws -> String {
        try db.queryOne("PRAGMA locking_mode") { $0.string(0) } ?? ""
    }

    /// The names of the migrations recorded in the database, in the order applied.
    public func appliedMigrations() throws -> [String] {
        try Migrations.appliedNames(db)
    }

    static func nowMillis() -> UInt64 {
        UInt64(Date().timeIntervalSince1970 * 1000)
    }

    // MARK: Row mapping shared by the extensions

    static let userColumns = "u.id, u.username, u.email, u.display_name, u.password_hash, u.created_at, u.last_seen, u.time_zone"
    /// How many columns `userColumns` selects: a query's own columns follow them.
    static let userColumnCount: Int32 = 8

    static func userRecord(_ s: Statement, from c: Int32 = 0) -> UserRecord {
        UserRecord(id: s.uint64(c), username: s.string(c + 1), email: s.string(c + 2),
                   displayName: s.string(c + 3), passwordHash: s.string(c + 4),
                   createdAt: s.uint64(c + 5), lastSeen: s.uint64(c + 6), timeZone: s.string(c + 7))
    }

    static let userInfoColumns = "u.id, u.username, u.display_name"

    static func memberRecord(_ s: Statement, from c: Int32 = 0) -> MemberRecord {
        MemberRecord(userID: s.uint64(c), username: s.string(c + 1), displayName: s.string(c + 2))
    }

    static let conversationColumns = "c.id, c.kind, c.name, c.created_at, c.last_seq, c.last_activity, c.avatar_file_id"

    static func conversationRecord(_ s: Statement, from c: Int32 = 0) -> ConversationRecord {
        var r = ConversationRecord(id: s.uint64(c), kind: ConversationKind(rawValue: s.uint64(c + 1)) ?? .group,
                                   name: s.string(c + 2), createdAt: s.uint64(c + 3),
                                   lastSeq: s.uint64(c + 4), lastActivity: s.uint64(c + 5))
        r.avatarID = s.isNull(c + 6) ? [] : s.blob(c + 6)
        return r
    }

    /// Messages are always read joined with their sender (`m` and `u`).
    static let messageColumns = "m.conversation_id, m.seq, m.client_id, m.sender_id, u.username, m.server_time, m.text, m.kind, m.reply_to, m.edited_at, m.deleted, m.attachment"

    /// The message's state without its reactions (`withReactions` adds them where shown).
    static func storedMessage(_ s: Statement, from c: Int32 = 0) -> StoredMessage {
        // The attachment column holds the protocol's Attachment encoding, written by `append`
        // (NULL: none): a format of this store's files, not of its interface.
        let attachment = s.isNull(c + 11) ? nil : (try? Attachment(from: FieldReader(s.blob(c + 11)))).map(AttachmentRecord.init)
        return StoredMessage(conversationID: s.uint64(c), seq: s.uint64(c + 1), clientID: s.blob(c + 2),
                           senderID: s.uint64(c + 3), senderUsername: s.string(c + 4),
                           serverTime: s.uint64(c + 5), text: s.string(c + 6), kind: s.uint64(c + 7),
                           replyTo: s.uint64(c + 8), editedAt: s.uint64(c + 9), deleted: s.uint64(c + 10) != 0,
                           attachment: attachment)
    }

    /// Result limits from callers are clamped so a bad value can never ask for everything.
    static func clamp(_ limit: Int, max: Int = 1_000) -> Int { Swift.max(0, Swift.min(limit, max)) }

    /// "A referenced user or conversation does not exist" (a foreign key failed).
    static func isMissingReference(_ error: Error) -> Bool {
        if case StoreError.missingReference = error { return true }
        return false
    }
}

extension StoreError {
    /// How the SQLite wrapper's errors surface from the store, in the interface's terms: a full
    /// disk (answered storage_full), a unique or primary key that holds, a foreign key that
    /// failed, anything else with SQLite's code and message (for the log).
    init(sqlite e: SQLiteError) {
        if e.isDiskFull {
            self = .diskFull
        } else if e.code == SQLiteCode.constraintUnique || e.code == SQLiteCode.constraintPrimaryKey {
            self = .conflict(e.description)
        } else if e.code == SQLiteCode.constraintForeignKey {
            self = .missingReference
        } else {
            self = .failed(e.description)
        }
    }

    /// A failure of the SQLite store's own (not SQLite's), worded like SQLite's.
    static func sqlite(code: Int32, message: String) -> StoreError { .failed("sqlite error \(code): \(message)") }
}
