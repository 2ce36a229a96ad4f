import MessageAIStore
import PostgresNIO

/// Delete for everyone on PostgreSQL: what is promised, and how.
///
/// **At once, for every reader.** The delete's transaction empties the message's text and its
/// search words and drops its reactions, under the conversation's lock: no query on any node
/// returns the text after the delete's position is visible.
///
/// **The bytes: a stated bound, not crypto-shredding.** An UPDATE leaves the old row version
/// in the table file until VACUUM makes its space reusable (without zeroing it), GIN keeps a
/// word's key in its entry tree even after its last posting is vacuumed, and the WAL keeps the
/// inserted text until its segment is removed. Crypto-shredding (text encrypted under a key per
/// message, the key deleted with it) would not close this: the search index must hold the
/// words in the clear to find prefixes, and the deleted key row lies in the same dead versions
/// and WAL as the text would have. So the promise is this purge, which the server runs after
/// deletes (batched; `purgeOwedSince` says since when one is owed):
///
/// 1. `VACUUM (FULL) messages` (with the assistant's items and summaries, which quote messages) rewrites the table, its TOAST table and its indexes into new
///    files and unlinks the old ones: no dead version and no stale GIN key survives in the
///    database's files. It holds an ACCESS EXCLUSIVE lock on `messages` for the rewrite (every
///    send and read of messages waits), which is why it is batched, not run per delete.
/// 2. `pg_switch_wal()` and `CHECKPOINT`: the segments holding the text (the insert, and full
///    page images of its page) end before the checkpoint's redo point, so the checkpoint removes
///    them, given `wal_recycle = off` (else a segment is renamed for reuse with its old bytes
///    in it), no replication slot or `wal_keep_size` holding them, and no WAL archiving.
///    Needs the `pg_checkpoint` role and EXECUTE on `pg_switch_wal()` (or a superuser); without
///    them step 2 is skipped and reported, and the bound is the next checkpoints' recycling.
///
/// Outside the bound, as with SQLite: backups, WAL archives, replicas, and the file system's
/// freed blocks. The test (PurgeTests) greps every file of the cluster's data directory.
extension PostgresStore {
    public struct PurgeReport: Sendable, Equatable {
        /// False when nothing was owed (nothing was done).
        public var rewrote: Bool
        /// Whether the WAL step ran (false without the privileges it needs).
        public var walCleared: Bool

        public init(rewrote: Bool, walCleared: Bool) {
            self.rewrote = rewrote
            self.walCleared = walCleared
        }
    }

    /// The time of the oldest delete or edit whose old text may still lie in the files; nil
    /// when none is owed.
    public func purgeOwedSince() async throws(StoreError) -> UInt64? {
        try await perform { client, logger in
            try await client.firstRow("SELECT owed_since FROM purge_owed", logger: logger).map { try $0.decode(UInt64.self) }
        }
    }

    /// Runs the purge described above if one is owed. A delete committed while it runs owes
    /// another (the generation it read no longer matches, so the row stays).
    @discardableResult
    public func purgeDeletedText(timeout: Duration = .seconds(600)) async throws(StoreError) -> PurgeReport {
        try await perform(timeout: timeout) { client, logger in
            guard let owed = try await client.firstRow("SELECT generation FROM purge_owed", logger: logger) else {
                return PurgeReport(rewrote: false, walCleared: false)
            }
            let generation = try owed.decode(UInt64.self)
            // The assistant's items and summaries quote the message: withdrawn in the delete's
            // transaction, their old versions go with the messages' in the same rewrite.
            try await client.query("VACUUM (FULL) messages, assistant_items, assistant_summaries", logger: logger)
            var walCleared = true
            do {
                try await client.query("SELECT pg_switch_wal()", logger: logger)
                try await client.query("CHECKPOINT", logger: logger)
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42501" {
                logger.notice("purge: no privilege to switch WAL or checkpoint; deleted text stays in WAL until recycled")
                walCleared = false
            }
            try await client.query("DELETE FROM purge_owed WHERE generation = \(generation)", logger: logger)
            return PurgeReport(rewrote: true, walCleared: walCleared)
        }
    }
}
