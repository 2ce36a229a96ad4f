import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// The assistant's tables, held to the SQLite store's answers
/// (Tests/MessageAIServerTests/StoreAssistantTests.swift, StoreAssistantReplaceTests.swift).
final class AssistantTests: PostgresTestCase {
    typealias Item = NewAssistItem

    func testItemsAreStoredOnceAndEveryChangeRaisesTheRev() async throws {
        let store = try await openStore()
        let ann = try await store.createUser(username: "Ann", email: "a@x.org", displayName: "", passwordHash: "h", now: 1)
        let ben = try await makeUser(store, "ben"), eve = try await makeUser(store, "eve")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let item = Item(conversationID: dm.id, seq: 1, kind: .action, ordinal: 0, text: "tag the branch", who: "ben", due: "5pm",
                        senderID: ann, engine: "local", engineVersion: "0.1.0")
        let first = try await store.insertItems([item], now: 2)
        XCTAssertEqual(first.map(\.rev), [1])
        XCTAssertEqual(first.first?.from, "Ann")
        let again = try await store.insertItems([item], now: 3)
        XCTAssertEqual(again, [], "a second extraction of the same message stores nothing")
        let id = first[0].itemID
        let bens = try await store.items(userID: ben, conversationID: nil, filter: .mine, kind: nil, limit: 10).map(\.itemID)
        XCTAssertEqual(bens, [id])
        let anns = try await store.items(userID: ann, conversationID: nil, filter: .mine, kind: nil, limit: 10)
        XCTAssertEqual(anns, [])
        let eves = try await store.items(userID: eve, conversationID: nil, filter: .all, kind: nil, limit: 10)
        XCTAssertEqual(eves, [])
        let hidden = try await store.item(id: id, visibleTo: eve)
        XCTAssertNil(hidden)
        await assertThrows(.notFound) { _ = try await store.setItemDone(id: id, by: eve, done: true, now: 4) }

        let done = try await store.setItemDone(id: id, by: ben, done: true, now: 5)
        XCTAssertTrue(done.changed)
        XCTAssertEqual([done.item.rev, done.item.doneAt], [2, 5])
        XCTAssertEqual(done.item.doneBy, "ben")
        let unchanged = try await store.setItemDone(id: id, by: ann, done: true, now: 6)
        XCTAssertFalse(unchanged.changed)
        let undone = try await store.setItemDone(id: id, by: ann, done: false, now: 7)
        XCTAssertEqual(undone.item.rev, 3)
        XCTAssertEqual(undone.item.doneBy, "")
        let changed = try await store.itemsChanged(userID: ben, sinceRev: 2, limit: 10).map(\.rev)
        XCTAssertEqual(changed, [3])
        let cursor = try await store.assistantCursor()
        XCTAssertEqual(cursor, 3)
    }

    /// Due dates as v17 keeps them, an ask and the owner's "I'll do it" as one item, and a
    /// failed insert that leaves no gap in the revs.
    func testDueDatesDuplicateAsksAndNoGapAfterAFailure() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        var ask = Item(conversationID: dm.id, seq: 1, kind: .action, ordinal: 0, text: "Book the room", who: "ben", due: "Friday",
                       senderID: ann, engine: "local", engineVersion: "t")
        ask.dueAt = 1_800_000_000_000
        ask.dueTimeZone = "Europe/Paris"
        let stored = try await store.insertItems([ask], now: 2)
        XCTAssertEqual(stored.map(\.dueAt), [1_800_000_000_000])
        XCTAssertEqual(stored.map(\.dueTimeZone), ["Europe/Paris"])
        var promise = ask
        promise.seq = 2
        promise.text = "book the ROOM"
        let twice = try await store.insertItems([promise], now: 3)
        XCTAssertEqual(twice, [], "the same open action, same owner and words: one item")
        await assertThrows(.notFound) {  // no such conversation
            _ = try await store.insertItems([Item(conversationID: 987_654, seq: 1, kind: .decision, ordinal: 0, text: "x",
                                                  senderID: ann, engine: "local", engineVersion: "t")], now: 4)
        }
        let next = try await store.insertItems([Item(conversationID: dm.id, seq: 3, kind: .decision, ordinal: 0, text: "ship Friday",
                                                     senderID: ann, engine: "local", engineVersion: "t")], now: 5)
        XCTAssertEqual(next.map(\.rev), [2], "the failed transaction took no rev")
    }

    func testSummaryCacheSwitchAndBudget() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        try await store.cacheSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0", answer: [1, 2], now: 1)
        let cached = try await store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0")
        XCTAssertEqual(cached, [1, 2])
        let newer = try await store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.2.0")
        XCTAssertNil(newer, "a newer engine does not reuse an older answer")
        try await store.cacheSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0", answer: [3], now: 2)
        let replaced = try await store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: 9, engine: "local", engineVersion: "0.1.0")
        XCTAssertEqual(replaced, [3])
        let unset = try await store.assistSwitch(conversationID: dm.id)
        XCTAssertEqual(unset, AssistSwitch())
        try await store.setProviderOff(conversationID: dm.id, by: ben, off: true, now: 2)
        let off = try await store.assistSwitch(conversationID: dm.id)
        XCTAssertEqual(off, AssistSwitch(providerOff: true, changedBy: "ben"))
        try await store.countProviderRequest(userID: ann, day: 20_000)
        try await store.countProviderRequest(userID: ann, day: 20_000)
        let counts = try await [store.providerRequests(userID: ann, day: 20_000), store.providerRequests(userID: ann, day: 20_001),
                                store.providerRequests(userID: ben, day: 20_000)]
        XCTAssertEqual(counts, [2, 0, 0])
    }

    func testAnEditKeepsTheSameItemsDoneMarkAndWithdrawsTheRest() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let m = try await store.appendMessage(conversationID: dm.id, senderID: ann, clientID: newClientID(),
                                              text: "ben, please tag the branch by 5pm and write the notes", serverTime: 1)
        func item(_ ordinal: Int, _ text: String, due: String = "", who: String = "ben") -> Item {
            Item(conversationID: dm.id, seq: m.seq, kind: .action, ordinal: ordinal, text: text, who: who, due: due,
                 senderID: ann, engine: "local", engineVersion: "test")
        }
        let first = try await store.insertItems([item(0, "tag the branch", due: "5pm"), item(1, "write the notes")], now: 2)
        XCTAssertEqual(first.count, 2)
        _ = try await store.setItemDone(id: first[0].itemID, by: ben, done: true, now: 3)
        try await store.cacheSummary(conversationID: dm.id, fromSeq: 1, toSeq: m.seq, engine: "local", engineVersion: "t", answer: [1], now: 3)
        let cursor = try await store.assistantCursor()

        let changed = try await store.replaceItems(conversationID: dm.id, seq: m.seq,
                                                   with: [item(0, "update the changelog"), item(1, "Tag  the Branch", due: "6pm")], now: 4)
        XCTAssertEqual(Set(changed.map(\.text)), ["", "Tag  the Branch", "update the changelog"])
        XCTAssertTrue(changed.allSatisfy { $0.rev > cursor }, "every changed row reaches devices by its new rev")
        let kept = try XCTUnwrap(changed.first { $0.itemID == first[0].itemID })
        XCTAssertEqual([kept.due, kept.doneBy], ["6pm", "ben"])
        XCTAssertTrue(kept.done, "the same item keeps its done mark")
        XCTAssertEqual(changed.first { $0.itemID == first[1].itemID }?.text, "", "the notes are withdrawn")
        let listed = try await store.items(userID: ben, conversationID: nil, filter: .all, kind: nil, limit: 10).map(\.text).sorted()
        XCTAssertEqual(listed, ["Tag  the Branch", "update the changelog"])
        let summary = try await store.cachedSummary(conversationID: dm.id, fromSeq: 1, toSeq: m.seq, engine: "local", engineVersion: "t")
        XCTAssertNotNil(summary, "replacing items leaves summaries to the edit")

        let same = try await store.replaceItems(conversationID: dm.id, seq: m.seq,
                                                with: [item(0, "update the changelog"), item(1, "Tag  the Branch", due: "6pm")], now: 5)
        XCTAssertEqual(same, [], "the same extraction again changes nothing")
        let other = try await store.replaceItems(conversationID: dm.id, seq: m.seq, with: [item(0, "tag the branch", due: "6pm", who: "ann")], now: 6)
        XCTAssertFalse(other.contains { $0.itemID == first[0].itemID && !$0.text.isEmpty }, "another owner is another item")
        let annOpen = try await store.items(userID: ann, conversationID: nil, filter: .open, kind: nil, limit: 10).map(\.who)
        XCTAssertEqual(annOpen, ["ann"])
    }

    /// An edit drops the summaries over the old text; a delete withdraws the message's items
    /// (each with a new rev, so devices drop them) and drops its summaries, for every reader.
    func testAnEditDropsSummariesAndADeleteWithdrawsItems() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let m = try await store.appendMessage(conversationID: dm.id, senderID: ann, clientID: newClientID(), text: "we ship on Friday", serverTime: 1)
        let later = try await store.appendMessage(conversationID: dm.id, senderID: ann, clientID: newClientID(), text: "and the notes by Monday", serverTime: 1)
        try await store.cacheSummary(conversationID: dm.id, fromSeq: m.seq, toSeq: later.seq, engine: "local", engineVersion: "t", answer: [1], now: 2)
        try await store.cacheSummary(conversationID: dm.id, fromSeq: later.seq, toSeq: later.seq, engine: "local", engineVersion: "t", answer: [2], now: 2)
        let edit = try await store.apply(NewChange(conversationID: dm.id, actorID: ann, clientID: newClientID(), targetSeq: m.seq,
                                                                 action: .edit, text: "we ship on Thursday", serverTime: 3))
        guard case .stored = edit else { return XCTFail("\(edit)") }
        let over = try await store.cachedSummary(conversationID: dm.id, fromSeq: m.seq, toSeq: later.seq, engine: "local", engineVersion: "t")
        let beside = try await store.cachedSummary(conversationID: dm.id, fromSeq: later.seq, toSeq: later.seq, engine: "local", engineVersion: "t")
        XCTAssertNil(over)
        XCTAssertEqual(beside, [2], "a summary that does not cover it stays")

        let items = try await store.insertItems([Item(conversationID: dm.id, seq: later.seq, kind: .action, ordinal: 0, text: "write the notes",
                                                      who: "ben", senderID: ann, engine: "local", engineVersion: "t")], now: 4)
        let cursor = try await store.assistantCursor()
        let delete = try await store.apply(NewChange(conversationID: dm.id, actorID: ann, clientID: newClientID(),
                                                                   targetSeq: later.seq, action: .delete, serverTime: 5))
        guard case .stored = delete else { return XCTFail("\(delete)") }
        let synced = try await store.itemsChanged(userID: ben, sinceRev: cursor, limit: 10)
        XCTAssertEqual(synced.map(\.itemID), items.map(\.itemID), "the withdrawn item reaches devices by a new rev")
        XCTAssertEqual(synced.map(\.text), [""])
        let listed = try await store.items(userID: ben, conversationID: nil, filter: .all, kind: nil, limit: 10)
        XCTAssertEqual(listed, [])
        let gone = try await store.cachedSummary(conversationID: dm.id, fromSeq: later.seq, toSeq: later.seq, engine: "local", engineVersion: "t")
        XCTAssertNil(gone)
        let late = try await store.insertItems([Item(conversationID: dm.id, seq: later.seq, kind: .action, ordinal: 1, text: "late",
                                                     who: "ben", senderID: ann, engine: "local", engineVersion: "t")], now: 6)
        XCTAssertEqual(late, [], "an extraction finishing after the delete stores nothing")
    }

    func testAMemberAddedLaterGetsTheGroupsItemsBySync() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let cat = try await makeUser(store, "cat"), dan = try await makeUser(store, "dan")
        let g = try await store.createGroup(name: "release", creator: ann, members: [ben, cat], now: 1)
        let m = try await store.appendMessage(conversationID: g.id, senderID: ann, clientID: newClientID(), text: "ben, please tag the branch", serverTime: 1)
        let stored = try await store.insertItems([Item(conversationID: g.id, seq: m.seq, kind: .action, ordinal: 0, text: "tag the branch",
                                                       who: "ben", senderID: ann, engine: "local", engineVersion: "t")], now: 2)
        let (dm, _) = try await store.directConversation(dan, cat, now: 3)
        let d = try await store.appendMessage(conversationID: dm.id, senderID: dan, clientID: newClientID(), text: "cat, please book the room", serverTime: 3)
        _ = try await store.insertItems([Item(conversationID: dm.id, seq: d.seq, kind: .action, ordinal: 0, text: "book the room",
                                              who: "cat", senderID: dan, engine: "local", engineVersion: "t")], now: 4)
        let danCursor = try await store.assistantCursor()
        try await store.addMembers(conversationID: g.id, userIDs: [dan], now: 5)
        let again = try await store.reannounceItems(conversationID: g.id)
        XCTAssertEqual(again.map(\.itemID), stored.map(\.itemID), "the same item, not a copy")
        let synced = try await store.itemsChanged(userID: dan, sinceRev: danCursor, limit: 10).map(\.text)
        XCTAssertEqual(synced, ["tag the branch"])
        let cursor = try await store.assistantCursor()
        XCTAssertEqual(cursor, danCursor + 1, "one new rev per live item")
    }
}
