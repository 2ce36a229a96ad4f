import MessageAIStore
import Logging
import PostgresNIO

/// Extraction jobs (schema v11, PostgresSchema+V11.swift). A batch is one transaction: the
/// claim's row locks (`FOR UPDATE SKIP LOCKED`: another node passes over them instead of
/// waiting), the engine's run while they are held, the items, the jobs' removal, one commit.
/// A node killed at any point before the commit leaves the jobs as they were, unlocked as soon
/// as PostgreSQL sees its connection close; after the commit the items exist and the jobs do
/// not. So a message's items are stored by exactly one batch, and the unique index on
/// (conversation_id, seq, kind, ordinal) would refuse a second even so.
extension PostgresStore: ExtractionJobs {
    public var extractionJobs: ExtractionJobs? { self }

    public func setExtractionQueued(_ queued: Bool) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.query("UPDATE extraction_queue SET enabled = \(queued) WHERE id = 1", logger: logger)
        }
    }

    /// Long enough for a batch of the local engine on a busy machine (milliseconds per message);
    /// the claim itself never waits for a lock (SKIP LOCKED), so this bounds the engine only.
    static let extractionBatchTimeout: Duration = .seconds(120)

    public func runExtractionJobs(
        limit: Int, now: UInt64,
        _ extract: @escaping @Sendable ([StoredMessage]) async throws -> [NewAssistItem]
    ) async throws(StoreError) -> (jobs: Int, messages: [StoredMessage], stored: [AssistItemRecord]) {
        let limit = Self.clamp(limit, max: 1_000)
        return try await perform(timeout: Self.extractionBatchTimeout) { client, logger in
            try await client.withTransaction(logger: logger) { db in
                var conversations: [Int64] = [], seqs: [Int64] = []
                for try await (cid, seq) in try await db.query("""
                    SELECT conversation_id, seq FROM extraction_jobs
                    ORDER BY conversation_id, seq LIMIT \(limit) FOR UPDATE SKIP LOCKED
                    """, logger: logger).decode((Int64, Int64).self) {
                    conversations.append(cid); seqs.append(seq)
                }
                guard !conversations.isEmpty else { return (0, [], []) }
                // A message gone since (its conversation purged) just loses its job.
                let messages = try await db.allRows("""
                    SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                    JOIN unnest(\(conversations)::BIGINT[], \(seqs)::BIGINT[]) AS k(c, s) ON m.conversation_id = k.c AND m.seq = k.s
                    WHERE NOT m.deleted ORDER BY m.conversation_id, m.seq
                    """, logger: logger).map(Self.message)
                let items = messages.isEmpty ? [] : try await extract(messages)
                let stored = try await Self.insertItems(db, items, now: now, logger: logger)
                try await db.query("""
                    DELETE FROM extraction_jobs j USING unnest(\(conversations)::BIGINT[], \(seqs)::BIGINT[]) AS k(c, s)
                    WHERE j.conversation_id = k.c AND j.seq = k.s
                    """, logger: logger)
                return (conversations.count, messages, stored)
            }
        }
    }

    public func queuedExtractions() async throws(StoreError) -> Int {
        try await perform { client, logger in
            guard let row = try await client.firstRow("SELECT count(*) FROM extraction_jobs", logger: logger) else { return 0 }
            return Int(try row.decode(Int64.self))
        }
    }
}
