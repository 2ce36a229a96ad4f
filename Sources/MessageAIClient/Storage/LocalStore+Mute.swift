import Foundation
import MessageAISQLite

/// Muted conversations (/mute, /unmute) and the messages that mention the user (/mentions).
extension LocalStore {
    /// Returns whether anything changed (muting a muted conversation changes nothing).
    @discardableResult
    public func setMuted(_ conversationID: UInt64, _ muted: Bool) throws -> Bool {
        if muted {
            return try db.run("INSERT OR IGNORE INTO muted(conversation_id) VALUES(?)", conversationID) > 0
        }
        return try db.run("DELETE FROM muted WHERE conversation_id=?", conversationID) > 0
    }

    public func isMuted(_ conversationID: UInt64) throws -> Bool {
        try db.query("SELECT 1 FROM muted WHERE conversation_id=?", conversationID) { $0.int(0) }.first != nil
    }

    public func mutedConversations() throws -> Set<UInt64> {
        Set(try db.query("SELECT conversation_id FROM muted") { $0.uint64(0) })
    }

    /// Messages from others that mention `username` (as @name or the bare word), newest last,
    /// at most `limit`. SQL narrows by substring; the word rule is `Mention.matches`.
    public func mentions(of username: String, limit: Int) throws -> [StoredMessage] {
        let pattern = "%" + username.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
        var found: [StoredMessage] = []
        // Newest first, scanned in pages so a common substring does not load the whole cache.
        var before = Int64.max
        while found.count < limit {
            let page = try db.query("""
                SELECT conversation_id, seq, client_id, sender_id, sender, text, server_time, sent_here, rowid FROM messages
                WHERE sender_id != ? AND text LIKE ? ESCAPE '\\' AND rowid < ? ORDER BY rowid DESC LIMIT 200
                """, userID, pattern, before) { r in
                (StoredMessage(conversationID: r.uint64(0), seq: r.uint64(1), clientID: Hex.encode(r.blob(2)), senderID: r.uint64(3),
                               sender: r.string(4), text: r.string(5), serverTime: r.uint64(6), sentHere: r.int64(7) != 0), r.int64(8))
            }
            guard let last = page.last else { break }
            before = last.1
            found += page.map(\.0).filter { Mention.matches($0.text, username) }
        }
        return Array(found.prefix(limit)).sorted { ($0.serverTime, $0.seq) < ($1.serverTime, $1.seq) }
    }
}

/// Whether a text mentions a user: "@name" or the name as a word, ignoring case (the rule the
/// terminal uses to highlight mentions).
public enum Mention {
    public static func matches(_ text: String, _ username: String) -> Bool {
        let me = username.lowercased()
        return text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "." && $0 != "-" })
            .contains { $0 == me || $0.trimmingCharacters(in: CharacterSet(charactersIn: ".-")) == me }
    }
}
