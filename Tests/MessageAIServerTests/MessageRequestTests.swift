import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A direct conversation from a non-contact is a message request for the one asked: held apart
/// (`request`), and it sends no read marker or typing back until they reply or become contacts.
final class MessageRequestTests: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!

    override func setUpWithError() throws {
        server = try TestServer()
        (ann, ben) = try { (c: [TestClient]) in (c[0], c[1]) }(TestUsers.register(["ann", "ben"], port: server.port))
    }
    override func tearDown() { server.stop() }

    func testStrangersDMIsARequestWithoutReadReceiptsOrTypingUntilTheReply() throws {
        let dm = try ann.openDM(with: "ben")
        XCTAssertFalse(dm.request, "the one who started it does not hold a request")
        let ack = try ann.sendText("hi, we met at the café ☕️", in: dm.conversationID)
        let held = try ben.push(Conversation.self) { $0.conversationID == dm.conversationID }
        XCTAssertTrue(held.request)
        let list: Conversations = try ben.request(ConversationsList())
        XCTAssertEqual(list.conversations.first?.request, true)

        // ben reads: ann sees delivered, not read; READERS and SYNC agree.
        let _: OK = try ben.request(Mark(conversationID: dm.conversationID, deliveredSeq: ack.seq, readSeq: ack.seq))
        let receipt = try ann.push(Receipt.self) { $0.userID == self.ben.user!.userID }
        XCTAssertEqual(receipt.deliveredSeq, ack.seq)
        XCTAssertEqual(receipt.readSeq, 0, "a request's holder reads without telling")
        let readers: ReadersResult = try ann.request(ReadersRequest(conversationID: dm.conversationID, seq: ack.seq))
        XCTAssertEqual(readers.deliveredTo.map(\.username), ["ben"])
        XCTAssertTrue(readers.readBy.isEmpty)
        let own: ReadersResult = try ben.request(ReadersRequest(conversationID: dm.conversationID, seq: ack.seq))
        XCTAssertEqual(own.readBy.map(\.username), ["ben"], "ben's own view keeps his marker")
        // ... and ben's typing goes nowhere.
        let _: OK = try ben.request(Typing(conversationID: dm.conversationID))
        let _: Pong = try ann.request(Ping())
        XCTAssertNil(ann.inbox.first { $0.type == .typingEvent })

        // The reply accepts: the next read marker flows, and so does typing.
        let reply = try ben.sendText("¡hola! 👋🏽", in: dm.conversationID)
        let _: OK = try ben.request(Mark(conversationID: dm.conversationID, deliveredSeq: reply.seq, readSeq: reply.seq))
        let read = try ann.push(Receipt.self) { $0.userID == self.ben.user!.userID && $0.readSeq > 0 }
        XCTAssertEqual(read.readSeq, reply.seq)
        let accepted: Conversations = try ben.request(ConversationsList())
        XCTAssertEqual(accepted.conversations.first?.request, false)
        let _: OK = try ben.request(Typing(conversationID: dm.conversationID))
        XCTAssertEqual(try ann.push(TypingEvent.self).user.username, "ben")
    }

    func testContactsGetNoRequestAndBecomingContactsAcceptsOne() throws {
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let _: Profile = try ben.request(ContactAccept(username: "ann"))
        let dm = try ann.openDM(with: "ben")
        let view = try ben.push(Conversation.self) { $0.conversationID == dm.conversationID }
        XCTAssertFalse(view.request, "a DM between contacts is no request")

        let cat = try TestUsers.register(["cat"], port: server.port)[0]
        let fromCat = try cat.openDM(with: "ann")
        XCTAssertTrue(try ann.push(Conversation.self) { $0.conversationID == fromCat.conversationID }.request)
        let _: Profile = try cat.request(ContactAdd(username: "ann"))
        let _: Profile = try ann.request(ContactAccept(username: "cat"))
        let list: Conversations = try ann.request(ConversationsList())
        XCTAssertEqual(list.conversations.first { $0.conversationID == fromCat.conversationID }?.request, false)
    }
}
