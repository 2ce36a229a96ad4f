import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// On a real server: an edit re-extracts its message's items (a kept item keeps its done mark,
/// the others are withdrawn on every device), and a member added to a group later gets the
/// group's earlier items without asking.
final class AssistantEditTests: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!, cat: TestClient!
    var group: Conversation!
    static let caps: Capabilities = [.zlib, .assistant, .messageChanges]

    override func setUpWithError() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: server.port, capabilities: Self.caps)
        (ann, ben, cat) = (users[0], users[1], users[2])
        group = try ann.request(GroupCreate(name: "release", usernames: ["ben", "cat"]))
    }
    override func tearDown() { server?.stop() }

    private func edit(_ seq: UInt64, _ text: String) throws {
        let _: SendAck = try ann.request(ChangeRequest(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                                       targetSeq: seq, action: .edit, text: text))
    }

    func testAnEditReplacesItsItemsAndKeepsTheDoneMarkOfTheSameItem() throws {
        let ack = try ann.sendText("Ben, could you tag the 2.3 hotfix branch by 5pm?", in: group.conversationID)
        let item = try XCTUnwrap(try ben.push(AssistItems.self) { $0.items.contains { $0.seq == ack.seq } }.items.first)
        let _: AssistItems = try ben.request(AssistItemDone(itemID: item.itemID, done: true))

        // Same work, later: the same item, still done, with the new due date, on every device.
        try edit(ack.seq, "Ben, could you tag the 2.3 hotfix branch by 6pm?")
        let moved = try cat.push(AssistItems.self) { $0.items.contains { $0.itemID == item.itemID && $0.due == "6pm" } }
        XCTAssertEqual(moved.items.first { $0.itemID == item.itemID }?.done, true, "the done mark survives an edit that kept the item")

        // Other work: the old item is withdrawn and a new open one takes its place.
        try edit(ack.seq, "Cat, could you book the room for Friday? 東京 👩🏽‍💻")
        _ = try ben.push(AssistItems.self) { $0.items.contains { $0.itemID == item.itemID && $0.text.isEmpty } }
        let fresh = try XCTUnwrap(try cat.push(AssistItems.self) { $0.items.contains { $0.who == "cat" } }.items.first { $0.who == "cat" })
        XCTAssertFalse(fresh.done)
        XCTAssertNotEqual(fresh.itemID, item.itemID)
        let all: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(all.items.map(\.itemID), [fresh.itemID], "the listing holds the new item only")
        let sync: AssistItems = try cat.request(AssistSync(sinceRev: 0))
        XCTAssertEqual(sync.items.first { $0.itemID == item.itemID }?.text, "", "a device that was away learns the withdrawal")
    }

    /// An edit sent right behind its message (no wait for the ack) can reach the server before
    /// the message's first extraction is stored: the old text's items must not come back.
    func testAnEditRightBehindItsMessageLeavesOnlyTheNewTextsItems() throws {
        let sent = ann.send(Send(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                 text: "Ben, could you tag the 2.3 hotfix branch by 5pm?"))
        let edit = ann.send(ChangeRequest(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                          targetSeq: 1, action: .edit, text: "Thanks all, see you at standup."))
        let ack: SendAck = try ann.answer(sent)
        XCTAssertEqual(ack.seq, 1)
        let _: SendAck = try ann.answer(edit)
        // A later message's items come after whatever the first two produce (one thread, in order).
        let later = try ann.sendText("Cat, please book the room for Friday.", in: group.conversationID)
        _ = try itemsPush(cat, seq: later.seq)
        let all: AssistItems = try cat.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(all.items.map(\.seq), [later.seq], "nothing from the text the edit replaced")
    }

    private func itemsPush(_ c: TestClient, seq: UInt64) throws -> [AssistItem] {
        try c.push(AssistItems.self) { $0.items.contains { $0.seq == seq } }.items
    }

    func testAMemberAddedLaterGetsTheEarlierItemsWithoutAsking() throws {
        let ack = try ann.sendText("Decision: we ship 2.3 on Thursday. Ben, please tag the branch by Friday.", in: group.conversationID)
        let items = try cat.push(AssistItems.self) { $0.items.contains { $0.seq == ack.seq } }.items
        XCTAssertFalse(items.isEmpty)
        // Dan has been using the server: his device's cursor is past these items' revs.
        let dan = try TestUsers.register(["dan"], port: server.port, capabilities: Self.caps)[0]
        let danAndCat = try dan.openDM(with: "cat")
        let other = try dan.sendText("Cat, please send me the build notes by 3pm.", in: danAndCat.conversationID)
        _ = try dan.push(AssistItems.self) { $0.items.contains { $0.seq == other.seq } }
        let danCursor: AssistItems = try dan.request(AssistSync(sinceRev: 0))

        let _: Conversation = try ann.request(GroupAdd(conversationID: group.conversationID, usernames: ["dan"]))
        let pushed = try dan.push(AssistItems.self) { $0.items.contains { $0.conversationID == self.group.conversationID } }
        XCTAssertEqual(Set(pushed.items.map(\.itemID)), Set(items.map(\.itemID)))
        // His phone, offline meanwhile, gets them from its old cursor.
        let phone = try TestUsers.secondSession(of: dan, port: server.port, capabilities: Self.caps)
        let synced: AssistItems = try phone.request(AssistSync(sinceRev: danCursor.cursor))
        XCTAssertEqual(Set(synced.items.filter { $0.conversationID == self.group.conversationID }.map(\.itemID)), Set(items.map(\.itemID)))
    }
}
