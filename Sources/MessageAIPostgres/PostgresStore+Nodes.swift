import Logging
import MessageAIStore
import PostgresNIO

/// Presence across nodes (PostgresSchema+V9.swift): `node_users` holds a row per node and user
/// with a connection there, `nodes` each node's heartbeat. Every change of a user's rows takes
/// the user's advisory lock first, before the transaction writes anything (so before it has an
/// xid): two nodes changing one user's rows run one after the other, and their presence events
/// sit in the log (ordered by xid) in the order they happened. Whether the user is on some node
/// is then read under the lock, so exactly one transaction logs each change.
extension PostgresStore: NodeRegistry {
    public var nodes: NodeRegistry? { self }

    /// The first key of the two-key advisory lock ("MA"+26): ours, apart from the migrations'.
    static let presenceLockClass: Int32 = 0x4D41_0026
    /// Now in milliseconds on the database's clock (heartbeats and their deadline use it only).
    static let databaseNow = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

    private static func lockUser(_ userID: UInt64, _ db: PostgresConnection, _ logger: Logger) async throws {
        // User ids are identity numbers well below 2^31; a collision above would only serialise two users.
        try await db.query("SELECT pg_advisory_xact_lock(\(presenceLockClass), (\(userID) % 2147483647)::int)", logger: logger)
    }

    private static func onSomeNode(_ userID: UInt64, _ db: PostgresConnection, _ logger: Logger) async throws -> Bool {
        try await db.firstRow("SELECT 1 FROM node_users WHERE user_id = \(userID) LIMIT 1", logger: logger) != nil
    }

    public func connected(userID: UInt64) async throws(StoreError) -> Bool {
        let origin = self.origin
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await Self.lockUser(userID, db, logger)
                let before = try await Self.onSomeNode(userID, db, logger)
                // The node's row too, before its first heartbeat: no reaper takes a new node's users for orphans.
                try await db.query("""
                    INSERT INTO nodes (id, heartbeat_at) VALUES (\(origin), \(unescaped: Self.databaseNow))
                    ON CONFLICT (id) DO NOTHING
                    """, logger: logger)
                try await db.query("INSERT INTO node_users (node_id, user_id) VALUES (\(origin), \(userID)) ON CONFLICT DO NOTHING",
                                   logger: logger)
                guard !before else { return false }
                try await db.query("INSERT INTO events (kind, user_id, seq, origin) VALUES (6, \(userID), 0, \(origin))",
                                   logger: logger)
                return true
            }
        }
    }

    public func disconnected(userID: UInt64) async throws(StoreError) -> UInt64? {
        let origin = self.origin
        return try await perform { client, logger in
            try await client.withTransaction(logger: logger) { db in
                try await Self.lockUser(userID, db, logger)
                // Not held any more: reaped while this node was away, and shown offline then.
                guard try await db.firstRow("DELETE FROM node_users WHERE node_id = \(origin) AND user_id = \(userID) RETURNING 1",
                                            logger: logger) != nil,
                      !(try await Self.onSomeNode(userID, db, logger)) else { return nil }
                return try await Self.wentOffline(userID, lastSeen: nil, origin: origin, db, logger)
            }
        }
    }

    /// Stores the last-seen time (now when nil) and logs the user's going offline.
    private static func wentOffline(_ userID: UInt64, lastSeen: UInt64?, origin: Int64,
                                    _ db: PostgresConnection, _ logger: Logger) async throws -> UInt64 {
        let row = try await db.firstRow("""
            UPDATE users SET last_seen = coalesce(\(lastSeen.map { Int64($0) }), \(unescaped: databaseNow))
            WHERE id = \(userID) RETURNING last_seen
            """, logger: logger)
        let seen = try row?.decode(Int64.self) ?? 0
        try await db.query("INSERT INTO events (kind, user_id, seq, origin) VALUES (6, \(userID), \(seen), \(origin))",
                           logger: logger)
        return UInt64(max(seen, 0))
    }

    public func heartbeat() async throws(StoreError) -> Int {
        let origin = self.origin
        return try await perform { client, logger in
            try await client.query("""
                INSERT INTO nodes (id, heartbeat_at) VALUES (\(origin), \(unescaped: Self.databaseNow))
                ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at
                """, logger: logger)
            let row = try await client.firstRow("SELECT count(*) FROM node_users WHERE node_id = \(origin)", logger: logger)
            return Int(try row?.decode(Int64.self) ?? 0)
        }
    }

    public func heldUsers() async throws(StoreError) -> [UInt64] {
        let origin = self.origin
        return try await perform { client, logger in
            try await client.allRows("SELECT user_id FROM node_users WHERE node_id = \(origin)", logger: logger)
                .map { try $0.decode(UInt64.self) }
        }
    }

    /// One transaction per user (each under its lock), then the dead nodes' rows: a reaper
    /// killed half way leaves rows that the next one takes. A node that heartbeats again
    /// before its turn keeps its users (the delete asks again whether it is stale).
    public func reap(staleAfter: UInt64) async throws(StoreError) -> [(userID: UInt64, lastSeen: UInt64)] {
        let origin = self.origin
        let stale = Int64(staleAfter)
        return try await perform { client, logger in
            let dead = try await client.allRows("""
                SELECT u.node_id, u.user_id, n.heartbeat_at FROM node_users u JOIN nodes n ON n.id = u.node_id
                WHERE n.heartbeat_at < \(unescaped: Self.databaseNow) - \(stale)
                """, logger: logger).map { try $0.decode((Int64, UInt64, Int64).self) }
            var offline: [(userID: UInt64, lastSeen: UInt64)] = []
            for (node, user, beat) in dead {
                let seen: UInt64? = try await client.withTransaction(logger: logger) { db in
                    try await Self.lockUser(user, db, logger)
                    guard try await db.firstRow("""
                        DELETE FROM node_users WHERE node_id = \(node) AND user_id = \(user)
                          AND EXISTS (SELECT 1 FROM nodes WHERE id = \(node) AND heartbeat_at < \(unescaped: Self.databaseNow) - \(stale))
                        RETURNING 1
                        """, logger: logger) != nil,
                          !(try await Self.onSomeNode(user, db, logger)) else { return nil }
                    return try await Self.wentOffline(user, lastSeen: UInt64(max(beat, 0)), origin: origin, db, logger)
                }
                if let seen { offline.append((user, seen)) }
            }
            try await client.query("""
                DELETE FROM nodes n WHERE heartbeat_at < \(unescaped: Self.databaseNow) - \(stale)
                  AND NOT EXISTS (SELECT 1 FROM node_users u WHERE u.node_id = n.id)
                """, logger: logger)
            return offline
        }
    }

    public func publishTyping(conversationID: UInt64, userID: UInt64) async throws(StoreError) {
        let origin = self.origin
        try await perform { client, logger in
            _ = try await client.query("""
                INSERT INTO events (kind, conversation_id, user_id, origin) VALUES (7, \(conversationID), \(userID), \(origin))
                """, logger: logger)
        }
    }
}
