import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Issue 24: Japanese, Chinese and Thai put no spaces between words, and the index kept a whole
/// run as one word: `テスト` did not find `日本語のテスト`. A run is indexed as overlapping pairs.
final class StoreSearchCJKTests: XCTestCase {
    private func texts(_ store: SQLiteStore, _ user: UInt64, _ query: String) throws -> [String] {
        try store.search(userID: user, query: query, conversationID: nil, offset: 0, limit: 20).map(\.text)
    }

    /// A database indexed the old way (whole runs as words) is indexed again when v15 applies.
    func testMigrationReindexesAnOldIndex() throws {
        let dir = try TempDirectory()
        var store = try SQLiteStore(path: dir.databasePath)
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        _ = try store.send(ann, dm.id, "日本語のテスト", time: 10)
        try store.indexPendingMessages()
        // As 0.4.0 left it: the text as typed in the index, v15 not applied.
        try store.db.execute("""
            INSERT INTO messages_fts (messages_fts) VALUES ('delete-all');
            INSERT INTO messages_fts (rowid, text, conv) SELECT id, text, 'c' || conversation_id FROM messages;
            DELETE FROM schema_migrations WHERE name = 'v15_search_words';
            """)
        XCTAssertEqual(try texts(store, ann.id, "テスト"), [], "the old index cannot find it")
        store.close()

        store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertTrue(try store.appliedMigrations().contains("v15_search_words"))
        XCTAssertEqual(try texts(store, ann.id, "テスト"), ["日本語のテスト"])
        XCTAssertEqual(try texts(store, ann.id, "日本語のテスト"), ["日本語のテスト"], "the whole text still finds it")
    }
}
