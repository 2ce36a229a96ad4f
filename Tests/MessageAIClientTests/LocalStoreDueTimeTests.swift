import XCTest
import MessageAISQLite
import MessageAIProtocol
@testable import MessageAIClient

/// Cache schema 9: an item's resolved due date. A schema-8 cache gains the columns, forgets its
/// assistant cursor so the next sync brings every item again, and then takes the due date of an
/// item whose rev it already holds.
final class LocalStoreDueTimeTests: XCTestCase {
    func testASchema8CacheTakesTheDueInstantsOfItemsItAlreadyHolds() throws {
        let path = NSTemporaryDirectory() + "cache-due-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { unlink(path + s) } }
        var item = AssistItem(itemID: 7, conversationID: 5, seq: 3, kind: .action, text: "send the deck", who: "ann",
                              due: "Friday 5pm", from: "ben", rev: 4, engine: "local", engineVersion: "0.5.0")
        do {
            let store = try LocalStore(path: path, userID: 1)
            try store.upsertAssistItems([item])
            try store.setAssistCursor(4)
            let db = try Database(path: path)  // as a 0.4.x client left it
            try db.execute("""
                ALTER TABLE assistant_items DROP COLUMN due_at; ALTER TABLE assistant_items DROP COLUMN due_time_zone;
                PRAGMA user_version = 8;
                """)
        }
        let store = try LocalStore(path: path, userID: 1)
        XCTAssertEqual(try store.assistCursor(), 0, "every item comes again at the next ASSIST_SYNC")
        XCTAssertEqual(try store.assistItems(conversationID: 5, filter: .all, kind: nil, me: "ann").first?.dueAt, 0)
        item.dueAt = 1_795_766_400_000
        item.dueTimeZone = "Asia/Tokyo"
        XCTAssertEqual(try store.upsertAssistItems([item]).count, 1, "the same rev with its due instant")
        let cached = try XCTUnwrap(try store.assistItems(conversationID: 5, filter: .all, kind: nil, me: "ann").first)
        XCTAssertEqual(cached.dueAt, 1_795_766_400_000)
        XCTAssertEqual(cached.dueTimeZone, "Asia/Tokyo")
        XCTAssertEqual(cached.due, "Friday 5pm", "the words as written stay")
        XCTAssertEqual(try store.upsertAssistItems([item]), [], "nothing new the second time")
        let version = try Database(path: path).queryOne("PRAGMA user_version") { $0.int(0) }
        XCTAssertEqual(version, 9)
    }
}
