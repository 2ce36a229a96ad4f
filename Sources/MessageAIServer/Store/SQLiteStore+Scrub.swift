import MessageAISQLite

// After a delete: FTS5 keeps a deleted entry in old index segments until a merge reaches them,
// and the WAL keeps old page images until it starts over. Merging every segment into one
// (with secure_delete zeroing the freed pages) and a TRUNCATE checkpoint leave no copy of the
// text in the database file or its WAL. SQLite 3.40 (Debian 12) has no FTS5 `secure-delete`.
extension SQLiteStore {
    /// Pages one step writes, about: a step took 2-7 ms (median) on an index of 100,000
    /// messages, where one `optimize` of the whole index took 176-348 ms inside the delete's
    /// request on the hub (BENCHMARKS.md, issue 13).
    static let scrubPagesPerStep = 16

    /// The deferred work of the interface: SQLite fills its FTS5 index in batches after the
    /// acknowledging commit (`indexPendingMessages`) and scrubs a delete in steps (`scrubStep`).
    @discardableResult public func runDeferred(_ work: DeferredWork) throws -> Bool {
        switch work {
        case .catchUpSearch:
            try indexPendingMessages()
            return false
        case .purgeDeleted:
            return try scrubStep()
        }
    }

    /// One step of the merge; the TRUNCATE checkpoint after the last (on the checkpointer's
    /// thread when there is one). False when no scrub is owed or this step finished it.
    public func scrubStep() throws -> Bool {
        guard scrubPending, let handle = db.handle else { return false }
        let before = sqlite3_total_changes64(handle)
        // A negative count merges segments of every level, as `optimize` does, ~N pages at a
        // time; FTS5 counts 2+ changes when it found work (its documented test for a no-op).
        try db.run("INSERT INTO messages_fts (messages_fts, rank) VALUES ('merge', ?)", -Self.scrubPagesPerStep)
        if sqlite3_total_changes64(handle) - before >= 2 { return true }
        // One segment left: every deleted entry met its tombstone.
        try db.run("DELETE FROM pending_scrub")
        scrubPending = false
        if let checkpointer {
            checkpointer.truncate()
        } else {
            _ = try db.query("PRAGMA wal_checkpoint(TRUNCATE)") { $0.int64(0) }
        }
        return false
    }

    /// Whether a delete left a scrub owed (read at open: a crash may have cut one short).
    func owesScrub() throws -> Bool {
        try db.queryOne("SELECT count(*) FROM pending_scrub") { $0.int64(0) } ?? 0 > 0
    }

    /// Runs the owed scrub to its end, TRUNCATE checkpoint included (open, tests).
    public func finishScrub() throws {
        while try scrubStep() {}
        checkpointer?.waitUntilIdle()
    }
}
