import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Replacing a message's items after an edit, and re-announcing a group's items to a member
/// added later, in the store.
final class StoreAssistantReplaceTests: XCTestCase {
    func testAnEditKeepsTheSameItemsDoneMarkAndWithdrawsTheRest() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
        let m = try store.send(ann, dm.id, "ben, please tag the branch by 5pm and write the notes").message
        func item(_ ordinal: Int, _ text: String, due: String = "", who: String = "ben") -> NewAssistItem {
            NewAssistItem(conversationID: dm.id, seq: m.seq, kind: .action, ordinal: ordinal, text: text, who: who, due: due,
                          senderID: ann.id, engine: "local", engineVersion: "test")
        }
        let first = try store.insertItems([item(0, "tag the branch", due: "5pm"), item(1, "write the notes")], now: 2)
        XCTAssertEqual(first.count, 2)
        _ = try store.setItemDone(id: first[0].itemID, by: ben.id, done: true, now: 3)
        try store.cacheSummary(conversationID: dm.id, fromSeq: 1, toSeq: m.seq, engine: "local", engineVersion: "t", answer: [1], now: 3)
        let cursor = try store.assistantCursor()

        // The edit moves the tag to 6pm, drops the notes and adds a changelog; "Tag  the Branch"
        // is the same item (case and spaces aside), now second.
        let changed = try store.replaceItems(conversationID: dm.id, seq: m.seq,
                                             with: [item(0, "update the changelog"), item(1, "Tag  the Branch", due: "6pm")], now: 4)
        XCTAssertEqual(Set(changed.map(\.text)), ["", "Tag  the Branch", "update the changelog"])
        XCTAssertTrue(changed.allSatisfy { $0.rev > cursor }, "every changed row reaches devices by its new rev")
        let kept = try XCTUnwrap(changed.first { $0.itemID == first[0].itemID })
        XCTAssertEqual([kept.due, kept.doneBy], ["6pm", "ben"])
        XCTAssertTrue(kept.done, "the same item keeps its done mark")
        XCTAssertEqual(changed.first { $0.itemID == first[1].itemID }?.text, "", "the notes are withdrawn")
        XCTAssertEqual(try store.items(userID: ben.id, conversationID: nil, filter: .all, kind: nil, limit: 10).map(\.text).sorted(),
                       ["Tag  the Branch", "update the changelog"])
        XCTAssertNotNil(try store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: m.seq, engine: "local", engineVersion: "t"),
                        "replacing items leaves summaries to the edit (the model's second opinion changes no text)")

        // The same extraction again changes nothing; another owner is another item.
        XCTAssertEqual(try store.replaceItems(conversationID: dm.id, seq: m.seq,
                                              with: [item(0, "update the changelog"), item(1, "Tag  the Branch", due: "6pm")], now: 5), [])
        let other = try store.replaceItems(conversationID: dm.id, seq: m.seq, with: [item(0, "tag the branch", due: "6pm", who: "ann")], now: 6)
        XCTAssertFalse(other.contains { $0.itemID == first[0].itemID && !$0.text.isEmpty })
        XCTAssertEqual(try store.items(userID: ann.id, conversationID: nil, filter: .open, kind: nil, limit: 10).map(\.who), ["ann"])
    }

    /// With extraction off, an edit alone still drops the summaries over the old text.
    func testAnEditDropsTheSummariesOverItsMessage() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
        let (dm, _) = try store.directConversation(ann.id, ben.id, now: 1)
        let m = try store.send(ann, dm.id, "we ship on Friday").message
        let later = try store.send(ann, dm.id, "and the notes by Monday").message
        try store.cacheSummary(conversationID: dm.id, fromSeq: m.seq, toSeq: later.seq, engine: "local", engineVersion: "t", answer: [1], now: 2)
        try store.cacheSummary(conversationID: dm.id, fromSeq: later.seq, toSeq: later.seq, engine: "local", engineVersion: "t", answer: [2], now: 2)
        guard case .stored = try store.apply(NewChange(conversationID: dm.id, actorID: ann.id, clientID: newClientID(), targetSeq: m.seq,
                                                       action: .edit, text: "we ship on Thursday", serverTime: 3)) else { return XCTFail() }
        XCTAssertNil(try store.cachedSummary(conversationID: dm.id, fromSeq: m.seq, toSeq: later.seq, engine: "local", engineVersion: "t"))
        XCTAssertEqual(try store.cachedSummary(conversationID: dm.id, fromSeq: later.seq, toSeq: later.seq, engine: "local", engineVersion: "t"),
                       [2], "a summary that does not cover it stays")
    }

    func testAMemberAddedLaterGetsTheGroupsItemsBySync() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cat = try store.makeUser("cat"), dan = try store.makeUser("dan")
        let g = try store.createGroup(name: "release", creator: ann.id, members: [ben.id, cat.id], now: 1)
        let m = try store.send(ann, g.id, "ben, please tag the branch").message
        let stored = try store.insertItems([NewAssistItem(conversationID: g.id, seq: m.seq, kind: .action, ordinal: 0, text: "tag the branch",
                                                          who: "ben", senderID: ann.id, engine: "local", engineVersion: "t")], now: 2)
        // Dan's devices synced elsewhere long after: their cursor is past the item's rev.
        let (dm, _) = try store.directConversation(dan.id, cat.id, now: 3)
        let d = try store.send(dan, dm.id, "cat, please book the room").message
        _ = try store.insertItems([NewAssistItem(conversationID: dm.id, seq: d.seq, kind: .action, ordinal: 0, text: "book the room",
                                                 who: "cat", senderID: dan.id, engine: "local", engineVersion: "t")], now: 4)
        let danCursor = try store.assistantCursor()
        try store.addMembers(conversationID: g.id, userIDs: [dan.id], now: 5)
        let again = try store.reannounceItems(conversationID: g.id)
        XCTAssertEqual(again.map(\.itemID), stored.map(\.itemID), "the same item, not a copy")
        XCTAssertEqual(try store.itemsChanged(userID: dan.id, sinceRev: danCursor, limit: 10).map(\.text), ["tag the branch"])
    }
}
