import Foundation
import MessageAISQLite
import MessageAIProtocol

extension LocalStore {
    /// Most recent activity first, as /list and tab completion show them: every conversation
    /// with its unread count and last message in one query, and every member in a second, not
    /// a handful of queries per conversation.
    public func summaries() throws -> [ConversationSummary] {
        var members: [UInt64: [UserInfo]] = [:]
        for (cid, user) in try db.query("""
            SELECT conversation_id, user_id, username, display_name FROM members ORDER BY conversation_id, username
            """, row: { ($0.uint64(0), UserInfo(userID: $0.uint64(1), username: $0.string(2), displayName: $0.string(3))) }) {
            members[cid, default: []].append(user)
        }
        return try db.query("""
            SELECT c.id, c.kind, c.name, c.last_activity, c.request,
                (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.sender_id != ?1
                    AND m.seq > coalesce((SELECT read_seq FROM markers WHERE conversation_id = c.id AND user_id = ?1), 0)),
                coalesce((SELECT text FROM messages m WHERE m.conversation_id = c.id ORDER BY seq DESC LIMIT 1), '')
            FROM conversations c ORDER BY c.last_activity DESC, c.id DESC
            """, userID) { r in
            let id = r.uint64(0)
            let c = conversation(id, kind: r.uint64(1), name: r.string(2), members: members[id] ?? [],
                                 lastActivity: r.uint64(3), request: r.int(4) != 0)
            return ConversationSummary(conversation: c, unread: Int(r.int64(5)), lastText: r.string(6))
        }
    }
}
