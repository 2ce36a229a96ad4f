import MessageAIVocabulary
import MessageAIStore
import PostgresNIO

/// The assistant's summary cache, per-conversation switch and per-user budget
/// (SQLiteStore+Assistant.swift). No revs here: plain upserts.
extension PostgresStore {
    /// A cached answer, reused only by the same engine and version.
    public func cachedSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String,
                              engineVersion: String) async throws(StoreError) -> [UInt8]? {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT answer FROM assistant_summaries WHERE conversation_id = \(conversationID) AND from_seq = \(fromSeq)
                  AND to_seq = \(toSeq) AND engine = \(engine) AND engine_version = \(engineVersion)
                """, logger: logger).map { Array(try $0.decode(ByteBuffer.self).readableBytesView) }
        }
    }

    public func cacheSummary(conversationID: UInt64, fromSeq: UInt64, toSeq: UInt64, engine: String, engineVersion: String,
                             answer: [UInt8], now: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.query("""
                INSERT INTO assistant_summaries (conversation_id, from_seq, to_seq, engine, engine_version, answer, created_at)
                VALUES (\(conversationID), \(fromSeq), \(toSeq), \(engine), \(engineVersion), \(ByteBuffer(bytes: answer)), \(now))
                ON CONFLICT (conversation_id, from_seq, to_seq, engine, engine_version)
                DO UPDATE SET answer = excluded.answer, created_at = excluded.created_at
                """, logger: logger)
        }
    }

    public func assistSwitch(conversationID: UInt64) async throws(StoreError) -> AssistSwitch {
        try await perform { client, logger in
            try await client.firstRow("""
                SELECT s.provider_off, COALESCE(u.username, '') FROM assistant_settings s LEFT JOIN users u ON u.id = s.changed_by
                WHERE s.conversation_id = \(conversationID)
                """, logger: logger).map { row in
                let (off, by) = try row.decode((Bool, String).self)
                return AssistSwitch(providerOff: off, changedBy: by)
            } ?? AssistSwitch()
        }
    }

    public func setProviderOff(conversationID: UInt64, by userID: UInt64, off: Bool, now: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            do {
                try await client.query("""
                    INSERT INTO assistant_settings (conversation_id, provider_off, changed_by, changed_at)
                    VALUES (\(conversationID), \(off), \(userID), \(now))
                    ON CONFLICT (conversation_id) DO UPDATE SET provider_off = excluded.provider_off,
                        changed_by = excluded.changed_by, changed_at = excluded.changed_at
                    """, logger: logger)
            } catch let error where Self.isMissingReference(error) {
                throw PostgresStoreError.notFound
            }
        }
    }

    /// Provider requests the user made on `day` (days since the epoch, UTC).
    public func providerRequests(userID: UInt64, day: UInt64) async throws(StoreError) -> Int {
        try await perform { client, logger in
            try await client.firstRow("SELECT requests FROM assistant_usage WHERE user_id = \(userID) AND day = \(day)",
                                      logger: logger).map { Int(try $0.decode(Int32.self)) } ?? 0
        }
    }

    /// One more request: a single upsert, so two nodes counting at once both count.
    public func countProviderRequest(userID: UInt64, day: UInt64) async throws(StoreError) {
        try await perform { client, logger in
            _ = try await client.query("""
                INSERT INTO assistant_usage (user_id, day, requests) VALUES (\(userID), \(day), 1)
                ON CONFLICT (user_id, day) DO UPDATE SET requests = assistant_usage.requests + 1
                """, logger: logger)
        }
    }
}
