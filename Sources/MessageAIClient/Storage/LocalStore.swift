import Foundation
import MessageAISQLite
import MessageAIProtocol

/// A conversation as the local cache holds it.
public struct StoredConversation: Equatable {
    public var id: UInt64
    public var kind: ConversationKind
    /// Group name; for a direct conversation the other member's username.
    public var name: String
    public var members: [UserInfo]
    public var lastActivity: UInt64
    /// A message request (protocol 2): a direct conversation a non-contact started, held apart
    /// in /list until the user replies (or the two become contacts).
    public var request = false
}

/// A line of /list: a conversation with its unread count and last message.
public struct ConversationSummary: Equatable {
    public var conversation: StoredConversation
    public var unread: Int
    public var lastText: String
}

/// The per-account local cache (SQLite): conversations, members, messages and every member's
/// delivered/read markers. It lets /list, /history and /find work with no server, and gives
/// SYNC the last seq held per conversation. (conversation_id, seq) identifies a message, so a
/// message seen twice (a push and a sync) is stored once.
public final class LocalStore {
    let db: Database
    /// The account's user id; direct conversations are named after the other member.
    public let userID: UInt64
    /// 1: 0.1.0. 2: conversations.request (message requests, 0.2.0). 3: messages_fts (/find).
    /// 4: muted (/mute). 5: replies, reactions, edits and deletes (messages.reply_to/edited_at/
    /// deleted, reactions, changes). 6: the assistant's items. 7: attachments (files).
    /// 8: messages_fts holds `search_words(text)` (CJK and Thai runs as pairs), rebuilt once.
    /// 9: assistant_items.due_at/due_time_zone (due dates as instants), items synced again.
    public static let schemaVersion = 9

    public init(path: String, userID: UInt64) throws {
        db = try Database(path: path)
        self.userID = userID
        // secure_delete: a deleted message's text is zeroed, not left in free pages.
        try db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA secure_delete=ON;")
        try db.execute("""
            CREATE TABLE IF NOT EXISTS conversations(
                id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, name TEXT NOT NULL,
                last_activity INTEGER NOT NULL DEFAULT 0, request INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS members(
                conversation_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
                username TEXT NOT NULL, display_name TEXT NOT NULL,
                PRIMARY KEY(conversation_id, user_id));
            CREATE TABLE IF NOT EXISTS messages(
                conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, client_id BLOB NOT NULL,
                sender_id INTEGER NOT NULL, sender TEXT NOT NULL, text TEXT NOT NULL,
                server_time INTEGER NOT NULL, sent_here INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY(conversation_id, seq));
            CREATE INDEX IF NOT EXISTS messages_client ON messages(client_id);
            CREATE TABLE IF NOT EXISTS markers(
                conversation_id INTEGER NOT NULL, user_id INTEGER NOT NULL, username TEXT NOT NULL,
                delivered_seq INTEGER NOT NULL DEFAULT 0, read_seq INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY(conversation_id, user_id));
            CREATE TABLE IF NOT EXISTS muted(conversation_id INTEGER PRIMARY KEY);
            """)
        try createAssistantTables()  // 5 -> 6, idempotent
        // Idempotent, so it needs no migration step: whatever order schema steps were merged in.
        try db.execute(LocalStore.attachmentsTable)
        try db.execute(LocalStore.syncFloorsTable)
        try migrate()
    }

    /// Brings a cache written by an earlier client up to `schemaVersion`, one step at a time.
    /// (The CREATE statements above already have the newest shape for a new file.)
    private func migrate() throws {
        let version = try db.query("PRAGMA user_version") { $0.int(0) }.first ?? 0
        guard version < LocalStore.schemaVersion else { return }
        try db.transaction {
            let columns = try db.query("PRAGMA table_info(conversations)") { $0.string(1) }
            if !columns.contains("request") {  // 1 -> 2
                try db.execute("ALTER TABLE conversations ADD COLUMN request INTEGER NOT NULL DEFAULT 0")
            }
            if version >= 3 && version < 8 { try dropSearchIndex() }  // 7 -> 8: rebuilt below
            try addSearchIndex()  // 2 -> 3
            // 3 -> 4: conversations muted with /mute (no bell, no notification).
            try db.execute("CREATE TABLE IF NOT EXISTS muted(conversation_id INTEGER PRIMARY KEY)")
            try migrateToMessageChanges()  // 4 -> 5
            try addDueTimes()  // 8 -> 9
            try db.execute("PRAGMA user_version = \(LocalStore.schemaVersion)")
        }
    }

    /// The user answered in `conversationID`: a message request there is accepted.
    public func clearRequest(_ conversationID: UInt64) throws {
        try db.run("UPDATE conversations SET request=0 WHERE id=? AND request<>0", conversationID)
    }

    // MARK: Conversations

    /// Stores the metadata and members; the user's own markers only move forward.
    public func upsert(_ c: Conversation) throws {
        try db.transaction {
            try db.run("""
                INSERT INTO conversations(id, kind, name, last_activity, request) VALUES(?,?,?,?,?)
                ON CONFLICT(id) DO UPDATE SET kind=excluded.kind, name=excluded.name,
                    last_activity=max(last_activity, excluded.last_activity), request=excluded.request
                """, c.conversationID, c.kind.rawValue, c.name, c.lastActivity, c.request ? 1 : 0)
            try db.run("DELETE FROM members WHERE conversation_id=?", c.conversationID)
            for m in c.members {
                try db.run("INSERT OR REPLACE INTO members VALUES(?,?,?,?)", c.conversationID, m.userID, m.username, m.displayName)
            }
            if let me = c.members.first(where: { $0.userID == userID }) {
                try raiseMarker(c.conversationID, userID: me.userID, username: me.username,
                                delivered: c.deliveredSeq, read: c.readSeq)
            }
        }
    }

    public func conversation(_ id: UInt64) throws -> StoredConversation? {
        let rows = try db.query("SELECT id, kind, name, last_activity, request FROM conversations WHERE id=?", id) { r in
            (r.uint64(0), r.uint64(1), r.string(2), r.uint64(3), r.int(4) != 0)
        }
        guard let (cid, kind, name, last, request) = rows.first else { return nil }
        let members = try db.query("SELECT user_id, username, display_name FROM members WHERE conversation_id=? ORDER BY username", cid) { UserInfo(userID: $0.uint64(0), username: $0.string(1), displayName: $0.string(2)) }
        return conversation(cid, kind: kind, name: name, members: members, lastActivity: last, request: request)
    }

    /// A conversation from its row and members: a direct one is named after the other member.
    func conversation(_ id: UInt64, kind: UInt64, name: String, members: [UserInfo], lastActivity: UInt64, request: Bool) -> StoredConversation {
        let k = ConversationKind(rawValue: kind) ?? .group
        var shown = name
        if k == .direct {
            shown = members.first(where: { $0.userID != userID })?.username ?? (name.isEmpty ? "direct" : name)
        }
        return StoredConversation(id: id, kind: k, name: shown, members: members, lastActivity: lastActivity, request: request)
    }

    public func conversationIDs() throws -> [UInt64] {
        try db.query("SELECT id FROM conversations ORDER BY last_activity DESC, id DESC") { $0.uint64(0) }
    }

    /// Finds a conversation by numeric id, group name or the other member of a direct one
    /// (case-insensitive).
    public func findConversation(_ key: String) throws -> StoredConversation? {
        if let id = UInt64(key), let c = try conversation(id) { return c }
        let lower = key.lowercased()
        for id in try conversationIDs() {
            if let c = try conversation(id), c.name.lowercased() == lower { return c }
        }
        return nil
    }

    /// Usernames and conversation names the user has seen, for tab completion.
    public func knownNames() throws -> [String] {
        let users = try db.query("SELECT DISTINCT username FROM members WHERE user_id != ?", userID) { $0.string(0) }
        let groups = try db.query("SELECT name FROM conversations WHERE kind=2") { $0.string(0) }
        return Array(Set(users + groups)).sorted()
    }
}
