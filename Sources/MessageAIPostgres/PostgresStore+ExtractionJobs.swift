import MessageAIStore
import Logging
import PostgresNIO

/// Extraction jobs (schema v11, PostgresSchema+V11.swift), claimed for a lease rather than
/// under a transaction held while the engine runs: a transaction with row locks has an xid, and
/// an open one holds back every node's reading of the event log (PostgresStore+EventLog.swift
/// reads below the oldest running transaction), so a batch would delay every cross-node push.
///
/// 1. Claim: one statement takes up to `limit` jobs whose lease ran out (`FOR UPDATE SKIP
///    LOCKED`: two nodes claiming at once take different jobs) and stamps them with a random
///    claim and a lease of `extractionLease`; the node renews it while its engine runs.
/// 2. The engine runs, outside any transaction.
/// 3. Store: one transaction deletes the jobs still stamped with this claim and stores the
///    items of exactly those messages, then commits.
///
/// A node killed before 3 leaves its jobs to whichever node claims them once the lease runs out.
/// A node too slow to renew may lose its jobs to another; then both judge them, but only the
/// transaction that deletes a job stores its items (the other's delete finds the row gone or
/// stamped by another claim), so a message's items are stored once.
extension PostgresStore: ExtractionJobs {
    public var extractionJobs: ExtractionJobs? { self }

    public func setExtractionQueued(_ queued: Bool) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.query("UPDATE extraction_queue SET enabled = \(queued) WHERE id = 1", logger: logger)
        }
    }

    /// How long a claim holds without renewal: how soon a dead node's jobs are taken again.
    static let extractionLease: Duration = .seconds(10)
    static let extractionRenewal: Duration = .seconds(3)
    /// Long enough for a batch of the local engine on a busy machine (milliseconds per message).
    static let extractionBatchTimeout: Duration = .seconds(120)
    /// The database's clock in ms: every node's leases are read against the same clock.
    static let databaseMillis = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT"

    public func runExtractionJobs(
        limit: Int, now: UInt64,
        _ extract: @escaping @Sendable ([StoredMessage]) async throws -> [NewAssistItem]
    ) async throws(StoreError) -> (jobs: Int, messages: [StoredMessage], stored: [AssistItemRecord]) {
        let limit = Self.clamp(limit, max: 1_000)
        let claim = Int64.random(in: 1...Int64.max)
        let leaseMillis = Int64(Self.extractionLease.components.seconds * 1000)
        return try await perform(timeout: Self.extractionBatchTimeout) { client, logger in
            var conversations: [Int64] = [], seqs: [Int64] = []
            for try await (cid, seq) in try await client.query("""
                UPDATE extraction_jobs j SET claim = \(claim), claimed_until = \(unescaped: Self.databaseMillis) + \(leaseMillis)
                FROM (SELECT conversation_id, seq FROM extraction_jobs WHERE claimed_until < \(unescaped: Self.databaseMillis)
                      ORDER BY conversation_id, seq LIMIT \(limit) FOR UPDATE SKIP LOCKED) k
                WHERE j.conversation_id = k.conversation_id AND j.seq = k.seq
                RETURNING j.conversation_id, j.seq
                """, logger: logger).decode((Int64, Int64).self) {
                conversations.append(cid); seqs.append(seq)
            }
            guard !conversations.isEmpty else { return (0, [], []) }
            // A message gone since (deleted, its conversation purged) just loses its job.
            let messages = try await client.allRows("""
                SELECT \(unescaped: Self.messageColumns) \(unescaped: Self.messageJoins)
                JOIN unnest(\(conversations)::BIGINT[], \(seqs)::BIGINT[]) AS k(c, s) ON m.conversation_id = k.c AND m.seq = k.s
                WHERE NOT m.deleted ORDER BY m.conversation_id, m.seq
                """, logger: logger).map(Self.message)
            let items = try await withThrowingTaskGroup(of: [NewAssistItem]?.self) { group in
                group.addTask { messages.isEmpty ? [] : try await extract(messages) }
                group.addTask {
                    while true {
                        try await Task.sleep(for: Self.extractionRenewal)
                        _ = try await client.query("""
                            UPDATE extraction_jobs SET claimed_until = \(unescaped: Self.databaseMillis) + \(leaseMillis)
                            WHERE claim = \(claim)
                            """, logger: logger)
                    }
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let items = next { return items }
                }
                return []
            }
            return try await client.withTransaction(logger: logger) { db in
                var held = Set<[Int64]>()
                for try await (cid, seq) in try await db.query("""
                    DELETE FROM extraction_jobs WHERE claim = \(claim) RETURNING conversation_id, seq
                    """, logger: logger).decode((Int64, Int64).self) {
                    held.insert([cid, seq])
                }
                let mine = items.filter { held.contains([Int64($0.conversationID), Int64($0.seq)]) }
                let stored = mine.isEmpty ? [] : try await Self.insertItems(db, mine, now: now, logger: logger)
                return (held.count, messages.filter { held.contains([Int64($0.conversationID), Int64($0.seq)]) }, stored)
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
