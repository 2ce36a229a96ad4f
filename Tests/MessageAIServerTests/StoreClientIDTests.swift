import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol
import MessageAISQLite

/// One client-id namespace per user (SchemaV12) and kept declines (SchemaV13) in the store.
final class StoreClientIDTests: XCTestCase {
    /// A database from before v12 with a message and a change: the migration copies both ids,
    /// so each is refused for the other kind afterwards; another user may use them.
    func testMigrationCopiesTheStoredIdsIntoOneNamespace() throws {
        let dir = try TempDirectory()
        let messageID = newClientID(), changeID = newClientID()
        var dm: UInt64 = 0
        do {
            let store = try SQLiteStore(path: dir.databasePath)
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            dm = try store.directConversation(ann.id, ben.id, now: 1).0.id
            _ = try store.send(ann, dm, "hello", clientID: messageID)
            _ = try store.apply(NewChange(conversationID: dm, actorID: ann.id, clientID: changeID, targetSeq: 1, action: .react,
                                          emoji: "👍", serverTime: 5))
            // As an older server left it: no table of ids, v12 not applied.
            try store.db.execute("DROP TABLE client_ids")
            try store.db.run("DELETE FROM schema_migrations WHERE name = 'v12_client_ids'")
            store.close()
        }
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        XCTAssertTrue(try store.appliedMigrations().contains("v12_client_ids"))
        let ann = try XCTUnwrap(try store.user(username: "ann")), ben = try XCTUnwrap(try store.user(username: "ben"))
        guard case .clientIDReused(.none) = try store.send(ann, dm, "a message with the change's id", clientID: changeID) else {
            return XCTFail("a SEND reusing a change's id was stored")
        }
        XCTAssertEqual(try store.apply(NewChange(conversationID: dm, actorID: ann.id, clientID: messageID, targetSeq: 1, action: .react,
                                                 emoji: "🎉", serverTime: 6)), .clientIDReused)
        XCTAssertTrue(try store.send(ann, dm, "hello", clientID: messageID).isDuplicate, "the message's own resend")
        guard case .stored = try store.send(ben, dm, "ben's own", clientID: changeID) else { return XCTFail("ids are per user") }
        XCTAssertEqual(try store.messages(conversationID: dm, afterSeq: 0, limit: 10).map(\.text), ["hello", "ben's own"])
    }
}
