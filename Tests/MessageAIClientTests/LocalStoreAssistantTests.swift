import XCTest
import MessageAISQLite
import MessageAIProtocol
@testable import MessageAIClient

/// The cached assistant items (cache schema 3): a schema-2 cache gains the tables, opening again
/// changes nothing, an older rev never overwrites a newer one, and "mine" reads like the server's.
final class LocalStoreAssistantTests: XCTestCase {
    func testASchema2CacheGainsTheItemsAndNewerRevsWin() throws {
        let path = NSTemporaryDirectory() + "cache-assist-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        do {
            _ = try LocalStore(path: path, userID: 1)
            let db = try Database(path: path)  // as a 0.2.0 client left it
            try db.execute("DROP TABLE assistant_items; DROP TABLE assistant_state; PRAGMA user_version = 2;")
        }
        let store = try LocalStore(path: path, userID: 1)
        XCTAssertFalse(try store.hasAssistItems())
        let open = AssistItem(itemID: 7, conversationID: 5, seq: 3, kind: .action, text: "review the 東京 deck 👩🏽‍💻", who: "Ann",
                              due: "Friday", from: "ben", rev: 4, engine: "local", engineVersion: "0.1.0")
        var done = open
        done.done = true; done.doneBy = "ann"; done.doneAt = 9; done.rev = 6
        XCTAssertEqual(try store.upsertAssistItems([done]).count, 1)
        XCTAssertEqual(try store.upsertAssistItems([open]), [], "an older rev arriving late changes nothing")
        XCTAssertEqual(try store.assistItems(conversationID: 5, filter: .all, kind: nil, me: "ann").first?.done, true)
        XCTAssertEqual(try store.assistItems(conversationID: nil, filter: .mine, kind: nil, me: "ann"), [], "done is not open")
        var reopened = open
        reopened.rev = 8
        try store.upsertAssistItems([reopened])
        XCTAssertEqual(try store.assistItems(conversationID: nil, filter: .mine, kind: .action, me: "ANN").map(\.text), ["review the 東京 deck 👩🏽‍💻"])
        try store.setAssistCursor(8)
        try store.setAssistCursor(5)
        XCTAssertEqual(try store.assistCursor(), 8, "the cursor never goes back")

        let again = try LocalStore(path: path, userID: 1)
        XCTAssertEqual(try again.assistItems(conversationID: 5, filter: .all, kind: nil, me: "ann").count, 1, "opening again keeps the items")
        let version = try Database(path: path).queryOne("PRAGMA user_version") { $0.int(0) }
        XCTAssertEqual(version, LocalStore.schemaVersion)
    }

    /// The model's second opinion or an edit changes an item in place: the cache takes its new
    /// wording and engine, and tells a done toggle from other changes by the done mark it held.
    func testAnItemChangedInPlaceTakesItsNewEngineAndKeepsItsDoneMarkKnown() throws {
        let path = NSTemporaryDirectory() + "cache-assist-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        let store = try LocalStore(path: path, userID: 1)
        var item = AssistItem(itemID: 7, conversationID: 5, seq: 3, kind: .action, text: "tag the branch", who: "ann",
                              due: "5pm", from: "ben", done: true, doneBy: "ann", rev: 4, engine: "local", engineVersion: "0.1.0")
        try store.upsertAssistItems([item])
        XCTAssertEqual(try store.cachedAssistDone([7, 8]), [7: true])
        item.due = "6pm"; item.engine = "provider"; item.engineVersion = "0.1.0 gemma"; item.rev = 9
        XCTAssertEqual(try store.upsertAssistItems([item]).count, 1)
        let cached = try XCTUnwrap(try store.assistItems(conversationID: 5, filter: .all, kind: nil, me: "ann").first)
        XCTAssertEqual([cached.due, cached.engine, cached.engineVersion], ["6pm", "provider", "0.1.0 gemma"])
        XCTAssertTrue(cached.done)
    }
}
