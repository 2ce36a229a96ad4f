import MessageAISQLite
import Foundation

/// Moves the WAL checkpoints off the store's (hub's) connection.
///
/// SQLite's auto-checkpoint runs inside the commit that pushes the WAL past 1,000 pages: on the
/// server that is a SEND's commit on the hub queue, and every connection waited for it (W1's
/// ~10 ms p999, BENCHMARKS.md). Instead, the store's connection gets a WAL hook (which replaces
/// the auto-checkpoint) that, once the WAL holds `softFrames` frames, asks this object for a
/// PASSIVE checkpoint on its own connection and queue. PASSIVE never blocks the writer: the hub
/// keeps appending while pages are copied, and its next transaction after a complete backfill
/// starts the WAL over from its beginning.
///
/// Bounded: under writes faster than the copy, a background checkpoint can keep finishing
/// behind the last frame and the WAL would grow. Past `hardFrames` the hook runs a FULL
/// checkpoint on the hub's own connection, after the commit (which is already durable; only
/// that commit's ack waits). The hub being the only writer, that one always reaches the end
/// of the WAL. So the WAL never holds more than `hardFrames` plus one transaction.
///
/// Durability is unchanged: a commit is in the WAL (fsynced with `.full`) before the store
/// returns, whoever checkpoints later; a checkpoint syncs the WAL before copying and the
/// database before the WAL is reused, with this connection's `synchronous` set like the store's.
public final class WALCheckpointer: @unchecked Sendable {
    /// In WAL frames (one page each, 4 KiB by default): 1,000 is SQLite's auto-checkpoint point.
    public struct Limits: Sendable {
        public var softFrames: Int32
        public var hardFrames: Int32
        public init(softFrames: Int32 = 1_000, hardFrames: Int32 = 16_000) {
            self.softFrames = softFrames
            self.hardFrames = max(hardFrames, softFrames)
        }
    }

    let limits: Limits
    private let queue = DispatchQueue(label: "messageai.checkpoint", qos: .utility)
    /// Only used on `queue` (opened before any request, closed through `queue.sync`).
    private var handle: OpaquePointer?
    private let lock = NSLock()
    private var requested = false
    /// WAL frames already copied by the last background checkpoint: the next one is asked for
    /// only after `softFrames` new ones, not at every commit while the WAL is still long.
    private var backfilled: Int32 = 0
    private var counts = (background: 0, onWriter: 0)

    init(path: String, synchronous: SQLiteStore.Synchronous, limits: Limits) throws {
        self.limits = limits
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(db)
            throw StoreError.sqlite(code: rc, message: "checkpoint connection: \(message)")
        }
        // A checkpoint syncs with its own connection's setting: keep it the store's.
        sqlite3_exec(db, "PRAGMA synchronous = \(synchronous.rawValue)", nil, nil, nil)
        // Only `truncate` waits for locks (PASSIVE never does): for the hub's commit in progress.
        sqlite3_busy_timeout(db, 5_000)
        handle = db
    }

    deinit { close() }

    /// Installs the hook on the writer's connection (after which the auto-checkpoint is off).
    func attach(to writer: OpaquePointer) {
        sqlite3_wal_hook(writer, { context, writer, _, frames in
            guard let context else { return SQLITE_OK }
            Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().committed(frames: frames, writer: writer)
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called on the writer's thread after each commit with the number of frames in the WAL.
    private func committed(frames: Int32, writer: OpaquePointer?) {
        if frames >= limits.hardFrames, let writer {
            // A background checkpoint still running makes this one fail at once (SQLite does not
            // wait for the checkpoint lock): wait for it, then copy the rest. The hub is the only
            // reader and writer, so nothing else can hold a FULL checkpoint up.
            var rc = sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_FULL, nil, nil)
            if rc == SQLITE_BUSY {
                queue.sync {}
                rc = sqlite3_wal_checkpoint_v2(writer, nil, SQLITE_CHECKPOINT_FULL, nil, nil)
            }
            if rc == SQLITE_OK {
                lock.withLock { counts.onWriter += 1 }
            }
            return
        }
        guard frames >= limits.softFrames else { return }
        let start = lock.withLock { () -> Bool in
            if frames < backfilled { backfilled = 0 } // the WAL started over
            if requested || frames - backfilled < limits.softFrames { return false }
            requested = true
            return true
        }
        if start { queue.async { self.checkpoint() } }
    }

    private func checkpoint() {
        guard let handle else { return }
        // The writer appends while pages are copied; a few short rounds copy those frames too,
        // so the WAL is usually complete in the database and starts over at the next commit.
        var log: Int32 = 0, copied: Int32 = 0, rc = SQLITE_OK
        for _ in 0..<3 {
            rc = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &log, &copied)
            if rc != SQLITE_OK || copied >= log { break }
        }
        lock.withLock {
            requested = false
            if rc == SQLITE_OK { counts.background += 1; backfilled = copied }
        }
    }

    /// A TRUNCATE checkpoint on this connection's thread: copies the whole WAL into the database
    /// and empties the file (after a delete, no old page image may stay in it). The hub only
    /// waits if it commits meanwhile. Retried while the hub holds its write lock.
    func truncate() {
        queue.async { [self] in
            guard let handle else { return }
            var tries = 0
            while sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil) == SQLITE_BUSY, tries < 10 { tries += 1 }
            lock.withLock { backfilled = 0 }
        }
    }

    /// Returns once the checkpoints asked for so far have run (tests, `finishScrub`).
    func waitUntilIdle() { queue.sync {} }

    /// How many checkpoints ran in the background and on the writer (tests, diagnostics).
    var checkpointCounts: (background: Int, onWriter: Int) { lock.withLock { counts } }

    /// Waits for a running checkpoint and closes the connection (before the store's own, so
    /// that the store's close is the last and checkpoints and removes the WAL). Idempotent.
    func close() {
        queue.sync {
            if let handle { sqlite3_close_v2(handle) }
            handle = nil
        }
    }
}
