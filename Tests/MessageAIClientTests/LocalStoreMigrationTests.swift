import XCTest
import MessageAISQLite
import MessageAIProtocol
@testable import MessageAIClient

/// A cache written by 0.1.0 (schema 1) opens in this client: its messages stay, and the
/// message-request flag of schema 2 works on it.
final class LocalStoreMigrationTests: XCTestCase {
    func testA010CacheIsMigratedAndKeepsItsMessages() throws {
        let path = NSTemporaryDirectory() + "cache-010-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        do {  // exactly the tables 0.1.0 created, and one conversation with a message
            let old = try Database(path: path)
            try old.execute("""
                CREATE TABLE conversations(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, name TEXT NOT NULL,
                    last_activity INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE members(conversation_id INTEGER NOT NULL, user_id INTEGER NOT NULL,
                    username TEXT NOT NULL, display_name TEXT NOT NULL, PRIMARY KEY(conversation_id, user_id));
                CREATE TABLE messages(conversation_id INTEGER NOT NULL, seq INTEGER NOT NULL, client_id BLOB NOT NULL,
                    sender_id INTEGER NOT NULL, sender TEXT NOT NULL, text TEXT NOT NULL,
                    server_time INTEGER NOT NULL, sent_here INTEGER NOT NULL DEFAULT 0, PRIMARY KEY(conversation_id, seq));
                CREATE TABLE markers(conversation_id INTEGER NOT NULL, user_id INTEGER NOT NULL, username TEXT NOT NULL,
                    delivered_seq INTEGER NOT NULL DEFAULT 0, read_seq INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY(conversation_id, user_id));
                INSERT INTO conversations VALUES(5, 1, '', 7);
                INSERT INTO members VALUES(5, 1, 'alice', 'Alice'), (5, 2, 'bob', '');
                INSERT INTO messages VALUES(5, 1, x'00', 2, 'bob', 'héllo 東京 👍🏽', 7, 0);
                PRAGMA user_version = 1;
                """)
        }
        let store = try LocalStore(path: path, userID: 1)
        XCTAssertEqual(try store.summaries().map(\.lastText), ["héllo 東京 👍🏽"], "0.1.0's messages stay")
        XCTAssertEqual(try store.conversation(5)?.request, false)
        XCTAssertEqual(try store.search("HELLO 東京").map(\.text), ["héllo 東京 👍🏽"], "0.1.0's messages are indexed for /find")

        let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
        let carol = UserInfo(userID: 3, username: "carol", displayName: "")
        try store.upsert(Conversation(conversationID: 6, kind: .direct, name: "", members: [alice, carol], request: true))
        XCTAssertEqual(try store.conversation(6)?.request, true, "a stranger's DM is held apart")
        try store.clearRequest(6)
        XCTAssertEqual(try store.conversation(6)?.request, false, "a reply accepts it")

        let reopened = try LocalStore(path: path, userID: 1)
        XCTAssertEqual(try reopened.summaries().count, 2, "opening a migrated cache again changes nothing")
        XCTAssertEqual(try reopened.search("hello").count, 1, "indexed once, not once per opening")

        // Schema 5: the old message can be reacted to, edited and deleted; each change once.
        func change(_ seq: UInt64, _ action: ChangeAction, emoji: String = "", text: String = "") -> MessageChange {
            MessageChange(conversationID: 5, seq: seq, clientID: [UInt8](repeating: UInt8(seq), count: 16), actorID: 2,
                          actorUsername: "bob", serverTime: 9, targetSeq: 1, action: action, emoji: emoji, text: text)
        }
        XCTAssertTrue(try reopened.apply(change(2, .react, emoji: "👍🏽")))
        XCTAssertFalse(try reopened.apply(change(2, .react, emoji: "👍🏽")), "a change seen twice (push and sync) applies once")
        XCTAssertTrue(try reopened.apply(change(3, .react, emoji: "🎉")))
        XCTAssertTrue(try reopened.apply(change(4, .edit, text: "hello Tokyo")))
        XCTAssertEqual(try reopened.reactionSummary(in: 5, seq: 1), "👍🏽 1  🎉 1")
        XCTAssertEqual(try reopened.message(in: 5, seq: 1)?.text, "hello Tokyo")
        XCTAssertEqual(try reopened.syncPositions().first { $0.conversationID == 5 }?.lastSeq, 4, "sync asks from past the changes")
        XCTAssertEqual(try reopened.lastSeq(in: 5), 1, "references still count messages only")
        XCTAssertTrue(try reopened.apply(change(5, .delete)))
        let gone = try XCTUnwrap(try reopened.message(in: 5, seq: 1))
        XCTAssertTrue(gone.deleted)
        XCTAssertEqual(gone.text, "")
        XCTAssertEqual(try reopened.reactionSummary(in: 5, seq: 1), "")
        XCTAssertEqual(try reopened.search("Tokyo").count, 0, "a deleted message is not found")
        for suffix in ["", "-wal"] {
            let bytes = FileManager.default.contents(atPath: path + suffix) ?? Data()
            XCTAssertNil(bytes.range(of: Data("hello Tokyo".utf8)), "the deleted text left the cache file\(suffix)")
        }
    }

    /// Schema 7 -> 8 (issue 24): the index held the text as typed, so `テスト` did not find
    /// `日本語のテスト`; it is rebuilt with the words the server's index has.
    func testASchema7CacheIsReindexedForCJKSearch() throws {
        let path = NSTemporaryDirectory() + "cache-7-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        do {
            let store = try LocalStore(path: path, userID: 1)
            try store.db.execute("""
                DROP TRIGGER messages_fts_insert; DROP TRIGGER messages_fts_update; DROP TRIGGER messages_fts_delete;
                DROP TABLE messages_fts;
                CREATE VIRTUAL TABLE messages_fts USING fts5(text, conversation_id UNINDEXED, seq UNINDEXED,
                    tokenize='unicode61 remove_diacritics 2');
                CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
                    INSERT INTO messages_fts(text, conversation_id, seq) VALUES (new.text, new.conversation_id, new.seq);
                END;
                INSERT INTO conversations(id, kind, name) VALUES(5, 1, '');
                INSERT INTO messages VALUES(5, 1, x'00', 2, 'bob', '日本語のテスト', 7, 0, 0, 0, 0);
                PRAGMA user_version = 7;
                """)
            XCTAssertEqual(try store.search("テスト").count, 0, "the old index cannot find it")
        }
        let store = try LocalStore(path: path, userID: 1)
        XCTAssertEqual(try store.search("テスト").map(\.text), ["日本語のテスト"])
        XCTAssertEqual(try store.search("日本").map(\.text), ["日本語のテスト"])
    }
}
