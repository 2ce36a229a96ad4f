import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The assistant on a real server: items extracted after commit and pushed, listed, marked done
/// and undone on every session, synced by cursor; a client without the capability sees none of it.
class AssistantTestCase: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!, cat: TestClient!
    var group: Conversation!
    static let caps: Capabilities = [.zlib, .assistant]

    func configure(_ c: inout ServerConfiguration) {}

    override func setUpWithError() throws {
        server = try TestServer { self.configure(&$0); $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: server.port, capabilities: Self.caps)
        (ann, ben, cat) = (users[0], users[1], users[2])
        group = try ann.request(GroupCreate(name: "release", usernames: ["ben", "cat"]))
    }
    override func tearDown() { server?.stop() }

    /// The push of the items of the message at `seq`.
    func itemsPush(_ c: TestClient, seq: UInt64) throws -> [AssistItem] {
        try c.push(AssistItems.self) { $0.items.contains { $0.seq == seq } }.items
    }
}

final class AssistantItemTests: AssistantTestCase {
    func testAnAskIsExtractedAfterItsAckAndPushedToEveryMember() throws {
        let ack = try ann.sendText("Ben, could you tag the 2.3 hotfix branch by 5pm?", in: group.conversationID)
        for c in [ann!, ben!, cat!] {
            let items = try itemsPush(c, seq: ack.seq)
            XCTAssertEqual(items.count, 1, c.username)
            XCTAssertEqual(items.first?.kind, .action)
            XCTAssertEqual(items.first?.who, "ben")
            XCTAssertEqual(items.first?.due, "5pm")
            XCTAssertEqual(items.first?.from, "ann")
            XCTAssertTrue(items.first?.text.hasPrefix("tag") ?? false, items.first?.text ?? "")
        }
        let mine: AssistItems = try ben.request(AssistItemsList(filter: .mine))
        XCTAssertEqual(mine.items.map(\.seq), [ack.seq])
        let annMine: AssistItems = try ann.request(AssistItemsList(filter: .mine))
        XCTAssertEqual(annMine.items, [], "ann asked; the item is ben's")
    }

    func testDoneAndUndoReachTheOtherSessionOfTheSameUserAndSync() throws {
        let benPhone = try TestUsers.secondSession(of: ben, port: server.port, capabilities: Self.caps)
        let ack = try ann.sendText("Ben, please update the dashboard by Monday.", in: group.conversationID)
        let item = try XCTUnwrap(try itemsPush(ben, seq: ack.seq).first)
        _ = try itemsPush(benPhone, seq: ack.seq)

        let done: AssistItems = try ben.request(AssistItemDone(itemID: item.itemID, done: true))
        XCTAssertEqual(done.items.first?.done, true)
        XCTAssertEqual(done.items.first?.doneBy, "ben")
        let seen = try benPhone.push(AssistItems.self) { $0.items.first?.itemID == item.itemID && $0.items.first?.done == true }
        XCTAssertEqual(seen.items.first?.rev, done.items.first?.rev)
        _ = try cat.push(AssistItems.self) { $0.items.first?.done == true }

        let open: AssistItems = try benPhone.request(AssistItemsList(conversationID: group.conversationID, filter: .open))
        XCTAssertFalse(open.items.contains { $0.itemID == item.itemID }, "done items are not open")
        let all: AssistItems = try benPhone.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertTrue(all.items.contains { $0.itemID == item.itemID && $0.done })

        // Marking it done again changes nothing (same rev, no push).
        let again: AssistItems = try ben.request(AssistItemDone(itemID: item.itemID, done: true))
        XCTAssertEqual(again.items.first?.rev, done.items.first?.rev)

        let undone: AssistItems = try benPhone.request(AssistItemDone(itemID: item.itemID, done: false))
        XCTAssertEqual(undone.items.first?.done, false)
        _ = try ben.push(AssistItems.self) { $0.items.first?.itemID == item.itemID && $0.items.first?.done == false }

        // A device that was away catches up from its cursor: the item once, in its latest state.
        let sync: AssistItems = try cat.request(AssistSync(sinceRev: 0))
        XCTAssertEqual(sync.items.filter { $0.itemID == item.itemID }.map(\.done), [false])
        XCTAssertEqual(sync.cursor, undone.items.first?.rev)
        let nothing: AssistItems = try cat.request(AssistSync(sinceRev: sync.cursor))
        XCTAssertEqual(nothing.items, [])
    }

    func testDecisionsAreListedAndCannotBeDone() throws {
        let ack = try cat.sendText("Decision: we ship 2.3 on Thursday.", in: group.conversationID)
        let item = try XCTUnwrap(try itemsPush(ann, seq: ack.seq).first { $0.kind == .decision })
        XCTAssertTrue(item.text.lowercased().contains("thursday"), item.text)
        let decisions: AssistItems = try ann.request(AssistItemsList(filter: .open, kind: .decision))
        XCTAssertEqual(decisions.items.map(\.itemID), [item.itemID])
        let e = try ann.requestError(AssistItemDone(itemID: item.itemID, done: true))
        XCTAssertEqual(e.errorCode, .invalidArgument)
    }

    func testOutsidersCannotSeeOrMarkItems() throws {
        let ack = try ann.sendText("Cat, could you book the room for Friday?", in: group.conversationID)
        let item = try XCTUnwrap(try itemsPush(cat, seq: ack.seq).first)
        let dan = try TestUsers.register(["dan"], port: server.port, capabilities: Self.caps)[0]
        XCTAssertEqual(try dan.requestError(AssistItemDone(itemID: item.itemID, done: true)).errorCode, .notFound)
        XCTAssertEqual(try dan.requestError(AssistItemsList(conversationID: group.conversationID)).errorCode, .notAMember)
        let everything: AssistItems = try dan.request(AssistSync(sinceRev: 0))
        XCTAssertEqual(everything.items, [])
    }

    func testAClientWithoutTheCapabilityGetsNoAssistantFrames() throws {
        let plain = try TestUsers.secondSession(of: ben, port: server.port)
        let ack = try ann.sendText("Ben, could you send the build notes by 3pm?", in: group.conversationID)
        _ = try itemsPush(ben, seq: ack.seq)
        _ = try plain.push(ChatMessage.self) { $0.seq == ack.seq }
        XCTAssertEqual(try plain.requestError(AssistItemsList()).errorCode, .unknownFrameType)
        // The item was pushed to ben's other session before this answer: none reached this one.
        XCTAssertFalse(plain.inbox.contains { $0.type == .assistItems })
    }

    func testAcceptsCJKEmojiAndRTLWithoutLosingText() throws {
        let text = "Ben, could you review 東京 deck 👩🏽‍💻 and the مرحبا copy by Friday?"
        let ack = try ann.sendText(text, in: group.conversationID)
        let item = try XCTUnwrap(try itemsPush(ben, seq: ack.seq).first)
        XCTAssertEqual(item.who, "ben")
        let page: HistoryPage = try ben.request(HistoryRequest(conversationID: group.conversationID))
        XCTAssertEqual(page.messages.last?.text, text)
    }
}
