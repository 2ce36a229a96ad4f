import Foundation
import MessageAIProtocol

// Full-text search over the user's own conversations.
extension SQLiteStore {
    public func search(userID: UInt64, query: String, conversationID: UInt64?, offset: Int, limit: Int) throws -> [ChatMessage] {
        guard let match = Self.ftsQuery(query) else { return [] }
        // FTS5 walks its matches by rowid descending (newest first, as ids grow with time) and
        // stops after offset+limit rows of the user's conversations.
        return try db.query("""
            SELECT \(Self.messageColumns)
            FROM messages_fts f
            JOIN messages m ON m.id = f.rowid
            JOIN members mb ON mb.conversation_id = m.conversation_id AND mb.user_id = ?2
            JOIN users u ON u.id = m.sender_id
            WHERE messages_fts MATCH ?1 AND (?3 = 0 OR m.conversation_id = ?3)
            ORDER BY f.rowid DESC LIMIT ?4 OFFSET ?5
            """, match, userID, conversationID ?? 0, Self.clamp(limit, max: 500), Swift.max(0, offset)) { Self.chatMessage($0) }
    }

    /// The user's words as an FTS5 query that cannot be a syntax error: every term is a
    /// quoted string (FTS operators and punctuation in it lose their meaning) and the terms
    /// are ANDed; the last term also matches as a prefix ("hel" finds "hello"), so results
    /// follow what is being typed. Nil when there is nothing to search for.
    static func ftsQuery(_ text: String) -> String? {
        let terms = text.split(whereSeparator: { $0.isWhitespace }).map { term in
            "\"" + term.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        guard !terms.isEmpty else { return nil }
        return terms.joined(separator: " ") + "*"
    }
}
