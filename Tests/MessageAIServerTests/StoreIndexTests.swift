import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// The full-text index trails the commits (it is written in batches, off the ack path); these
/// check that no search can tell.
final class StoreIndexTests: XCTestCase {
    func testMessagesSearchedRightAfterAppendAreFound() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            _ = try store.send(ann, dm.id, "first pancake", time: 10)
            XCTAssertEqual(try store.highestIndexedID(), 0, "\(kind): append leaves indexing to later")
            XCTAssertEqual(try store.search(userID: ben.id, query: "pancake", conversationID: nil, offset: 0, limit: 9)
                            .map(\.text), ["first pancake"], "\(kind)")
            // After a catch-up, only the new ones are added: nothing twice, nothing missed.
            _ = try store.send(ben, dm.id, "second pancake", time: 20)
            _ = try store.send(ann, dm.id, "third pancake", time: 30)
            XCTAssertEqual(try store.search(userID: ann.id, query: "pancake", conversationID: dm.id, offset: 0, limit: 9)
                            .map(\.text), ["third pancake", "second pancake", "first pancake"], "\(kind)")
            try store.indexPendingMessages()  // nothing left: a no-op
            XCTAssertEqual(try store.search(userID: ann.id, query: "pancake", conversationID: nil, offset: 0, limit: 9).count, 3)
        }
    }

    func testMessagesNotIndexedBeforeACrashAreIndexedOnReopen() throws {
        let dir = try TempDirectory()
        var store = try SQLiteStore(path: dir.databasePath)
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let dm = try store.directConversation(ann.id, ben.id, now: 1).0
        _ = try store.send(ann, dm.id, "indexed soon", time: 10)
        try store.indexPendingMessages()
        // Committed, then the process stops before the next batch is indexed.
        _ = try store.send(ben, dm.id, "committed but never indexed", time: 20)
        let newest = try store.send(ann, dm.id, "also never indexed", time: 30)
        let newestID = try store.db.queryOne("SELECT max(id) FROM messages") { $0.uint64(0) } ?? 0
        XCTAssertLessThan(try store.highestIndexedID(), newestID)
        store.close()

        store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertEqual(try store.highestIndexedID(), newestID, "opening indexes what is missing")
        XCTAssertEqual(try store.search(userID: ben.id, query: "never", conversationID: nil, offset: 0, limit: 9).map(\.text),
                       ["also never indexed", "committed but never indexed"])
        XCTAssertEqual(try store.search(userID: ben.id, query: "indexed", conversationID: nil, offset: 0, limit: 9).map(\.seq),
                       [newest.message.seq, 2, 1])
    }

    func testTwoConnectionsIndexEachMessageOnce() throws {
        let dir = try TempDirectory()
        let a = try SQLiteStore(path: dir.databasePath), b = try SQLiteStore(path: dir.databasePath)
        defer { a.close(); b.close() }
        let ann = try a.makeUser("ann"), ben = try a.makeUser("ben")
        let dm = try a.directConversation(ann.id, ben.id, now: 1).0
        _ = try a.send(ann, dm.id, "shared word one", time: 10)
        // b indexes what a stored; a's own idea of the index is now stale.
        XCTAssertEqual(try b.search(userID: ben.id, query: "shared", conversationID: nil, offset: 0, limit: 9).count, 1)
        _ = try a.send(ann, dm.id, "shared word two", time: 20)
        XCTAssertEqual(try a.search(userID: ben.id, query: "shared", conversationID: nil, offset: 0, limit: 9).map(\.text),
                       ["shared word two", "shared word one"])
        XCTAssertEqual(try b.search(userID: ann.id, query: "word", conversationID: nil, offset: 0, limit: 9).count, 2)
    }

    func testMigrationV3RemovesTheIndexTrigger() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertTrue(try store.appliedMigrations().contains("v3_index_after_commit"))
        XCTAssertNil(try store.db.queryOne("SELECT name FROM sqlite_master WHERE type = 'trigger'") { $0.string(0) })
    }
}
