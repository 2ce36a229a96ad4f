import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The assistant's tables: items stored once per message and place, revs that only rise, the
/// summary cache keyed by engine version, the switch and the budget.
final class StoreAssistantTests: XCTestCase {
    func testItemsAreStoredOnceAndEveryChangeRaisesTheRev() {
        forEachStore { store, kind in
            let ann = try store.createUser(email: "a@x.org", username: "Ann", displayName: "", passwordHash: "h", now: 1)
            let ben = try store.createUser(email: "b@x.org", username: "ben", displayName: "", passwordHash: "h", now: 1)
            let eve = try store.createUser(email: "e@x.org", username: "eve", displayName: "", passwordHash: "h", now: 1)
            let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
            XCTAssertTrue(try store.appliedMigrations().contains("v5_assistant"), "\(kind)")
            let item = NewAssistItem(conversationID: dm.id, seq: 1, kind: .action, ordinal: 0, text: "tag the branch",
                                     who: "ben", due: "5pm", senderID: ann.id, engine: "local", engineVersion: "0.1.0")
            let first = try store.insertItems([item], now: 2)
            XCTAssertEqual(first.map(\.rev), [1], "\(kind)")
            XCTAssertEqual(first.first?.from, "Ann")
            XCTAssertEqual(try store.insertItems([item], now: 3), [], "a second extraction of the same message stores nothing")
            let id = first[0].itemID
            XCTAssertEqual(try store.items(userID: ben.id, conversationID: nil, filter: .mine, kind: nil, limit: 10).map(\.itemID), [id])
            XCTAssertEqual(try store.items(userID: ann.id, conversationID: nil, filter: .mine, kind: nil, limit: 10), [])
            XCTAssertEqual(try store.items(userID: eve.id, conversationID: nil, filter: .all, kind: nil, limit: 10), [])
            XCTAssertNil(try store.item(id: id, visibleTo: eve.id))
            XCTAssertThrowsError(try store.setItemDone(id: id, by: eve.id, done: true, now: 4))

            let done = try store.setItemDone(id: id, by: ben.id, done: true, now: 5)
            XCTAssertTrue(done.changed)
            XCTAssertEqual([done.item.rev, done.item.doneAt], [2, 5])
            XCTAssertEqual(done.item.doneBy, "ben")
            XCTAssertFalse(try store.setItemDone(id: id, by: ann.id, done: true, now: 6).changed)
            let undone = try store.setItemDone(id: id, by: ann.id, done: false, now: 7)
            XCTAssertEqual(undone.item.rev, 3)
            XCTAssertEqual(undone.item.doneBy, "")
            XCTAssertEqual(try store.itemsChanged(userID: ben.id, sinceRev: 2, limit: 10).map(\.rev), [3])
            XCTAssertEqual(try store.assistantCursor(), 3)
            // By id, as a node reads another's items (unknown ids are left out).
            XCTAssertEqual(try store.items(ids: [id, 999]).map(\.rev), [3], "\(kind)")
            XCTAssertEqual(try store.items(ids: []), [])
        }
    }

    func testSummaryCacheSwitchAndBudget() {
        forEachStore { store, kind in
            let ann = try store.createUser(email: "a@x.org", username: "ann", displayName: "", passwordHash: "h", now: 1)
            let ben = try store.createUser(email: "b@x.org", username: "ben", displayName: "", passwordHash: "h", now: 1)
            let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
            try store.cacheSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0", answer: [1, 2], now: 1)
            XCTAssertEqual(try store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0"), [1, 2])
            XCTAssertNil(try store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.2.0"),
                         "\(kind): a newer engine does not reuse an older answer")
            XCTAssertEqual(try store.assistSwitch(conversationID: dm.id), AssistSwitch())
            try store.setProviderOff(conversationID: dm.id, by: ben.id, off: true, now: 2)
            XCTAssertEqual(try store.assistSwitch(conversationID: dm.id), AssistSwitch(providerOff: true, changedBy: "ben"))
            try store.countProviderRequest(userID: ann.id, day: 20_000)
            try store.countProviderRequest(userID: ann.id, day: 20_000)
            XCTAssertEqual(try store.providerRequests(userID: ann.id, day: 20_000), 2)
            XCTAssertEqual(try store.providerRequests(userID: ann.id, day: 20_001), 0)
            XCTAssertEqual(try store.providerRequests(userID: ben.id, day: 20_000), 0)
        }
    }
}
