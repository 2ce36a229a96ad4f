import MessageAISQLite
import Foundation
import MessageAIProtocol

// Full-text search over the user's own conversations.
extension SQLiteStore {
    /// Above this many conversations the index is not narrowed by conversation (an OR of that
    /// many tokens costs more than it saves); the membership test in SQL still applies.
    static let searchScopeTokenLimit = 64

    /// FTS5 walks its matches by rowid descending (newest first, as ids grow with time) with no
    /// sort step, and the query stops after offset+limit rows. The membership test is what
    /// guarantees a user only sees their own conversations, whatever the MATCH expression.
    /// ?1 match, ?2 user, ?3 conversation (0: all), ?4 limit, ?5 offset.
    static let searchSQL = """
        SELECT \(messageColumns)
        FROM messages_fts f
        JOIN messages m ON m.id = f.rowid
        JOIN users u ON u.id = m.sender_id
        WHERE messages_fts MATCH ?1 AND (?3 = 0 OR m.conversation_id = ?3)
          AND m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?2)
        ORDER BY f.rowid DESC LIMIT ?4 OFFSET ?5
        """

    public func search(userID: UInt64, query: String, conversationID: UInt64?, offset: Int, limit: Int) throws -> [StoredMessage] {
        // The index trails the commits: catch up first, so a search never misses a stored message.
        try indexPendingMessages()
        guard let words = FullTextQuery.match(query) else { return [] }
        let scope: [UInt64]
        if let conversationID {
            scope = [conversationID]
        } else {
            scope = try db.query("SELECT conversation_id FROM members WHERE user_id = ? LIMIT ?",
                                 userID, Self.searchScopeTokenLimit + 1) { $0.uint64(0) }
            if scope.isEmpty { return [] }
        }
        var match = "text : (\(words))"
        if scope.count <= Self.searchScopeTokenLimit {
            match += " AND conv : (" + scope.map { "\"c\($0)\"" }.joined(separator: " OR ") + ")"
        }
        return try db.query(Self.searchSQL, match, userID, conversationID ?? 0, Self.clamp(limit, max: 500),
                            Swift.max(0, offset)) { Self.storedMessage($0) }
    }

    /// The query plan of `search`, for the test that it needs no sort.
    func searchPlan() throws -> [String] {
        try db.query("EXPLAIN QUERY PLAN " + Self.searchSQL, "text : (\"x\")", 1, 0, 10, 0) { $0.string(3) }
    }
}
