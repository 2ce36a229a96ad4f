import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Schema v13: every write that gives an assistant item a new rev is an event of kind 10 for
/// the other nodes (the item's id, never its text), and they read the items back by id.
final class ItemEventsTests: PostgresTestCase {
    func testEachNewRevIsOneEventAndTheOtherNodeReadsTheItemsByID() async throws {
        let database = try newDatabase()
        let node1 = try await openStore(database: database)
        let node2 = try await openStore(database: database)
        let ann = try await makeUser(node1, "ann"), ben = try await makeUser(node1, "ben")
        let (dm, _) = try await node1.directConversation(ann, ben, now: 1)
        let m = try await node1.appendMessage(conversationID: dm.id, senderID: ann, clientID: newClientID(),
                                              text: "tag the branch and write the notes", serverTime: 1)
        let start = try await node2.start()
        func itemEvents(_ store: some EventLog) async throws -> [CommitEvent] {
            try await store.events(after: start.cursor, limit: 1_000).filter { $0.kind == .assistItem }
        }

        func item(_ ordinal: Int, _ text: String) -> NewAssistItem {
            NewAssistItem(conversationID: dm.id, seq: m.seq, kind: .action, ordinal: ordinal, text: text, who: "ben",
                          senderID: ann, engine: "local", engineVersion: "t")
        }
        let stored = try await node1.insertItems([item(0, "tag the branch"), item(1, "write the notes")], now: 2)
        let ids = stored.map(\.itemID)
        var seen = try await itemEvents(node2)
        XCTAssertEqual(seen.map(\.seq), ids, "one event per item, naming it")
        XCTAssertEqual(Set(seen.map(\.conversationID)), [dm.id])
        XCTAssertEqual(seen.map(\.own), [false, false], "another node's")
        let mine = try await itemEvents(node1)
        XCTAssertEqual(mine.map(\.own), [true, true], "the writer's own")

        _ = try await node1.setItemDone(id: ids[0], by: ben, done: true, now: 3)
        _ = try await node1.setItemDone(id: ids[0], by: ann, done: true, now: 4)  // no change, no rev
        // An edit that keeps both items in another order only moves their places: no rev, no event.
        _ = try await node1.replaceItems(conversationID: dm.id, seq: m.seq,
                                         with: [item(0, "write the notes"), item(1, "tag the branch")], now: 5)
        seen = try await itemEvents(node2)
        XCTAssertEqual(seen.map(\.seq), ids + [ids[0]], "only the done mark gave a new rev")

        let read = try await node2.items(ids: [ids[1], ids[0]])
        XCTAssertEqual(read.map(\.itemID), ids, "by id")
        XCTAssertEqual(read.map(\.done), [true, false])
        XCTAssertEqual(read.first?.doneBy, "ben")
        let none = try await node2.items(ids: [])
        XCTAssertEqual(none, [])
    }
}
