import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Issue 23: one client-id namespace per user for SEND and CHANGE, and the spec's check order
/// for CHANGE, over real sockets.
final class ChangeRulesTests: XCTestCase {
    var server: TestServer!
    var ann: TestClient!, ben: TestClient!

    override func setUpWithError() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["ann", "ben"], port: server.port, capabilities: [.zlib, .messageChanges])
        (ann, ben) = (users[0], users[1])
    }
    override func tearDown() { server?.stop() }

    /// A SEND acked as seq 1, then a CHANGE with the same client id: refused, nothing stored.
    func testChangeCannotReuseTheClientIDOfAMessage() throws {
        let dm = try ann.openDM(with: "ben")
        let id = TestClient.newClientID()
        let sent = try ann.sendText("hello", in: dm.conversationID, clientID: id)
        XCTAssertEqual(sent.seq, 1)
        let e = try ann.requestError(ChangeRequest(conversationID: dm.conversationID, clientID: id, targetSeq: 1, action: .react, emoji: "👍"))
        XCTAssertEqual(e.errorCode, .clientIDReused)
        XCTAssertEqual(e.field, "client_id")
        // Nothing was stored: the next message takes seq 2, and the message has no reaction.
        XCTAssertEqual(try ann.sendText("next", in: dm.conversationID).seq, 2)
        let page: HistoryPage = try ben.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.seq), [1, 2])
        XCTAssertEqual(page.messages.first?.reactions, [])
        // The message's own resend is still a duplicate, not a clash.
        XCTAssertTrue(try ann.sendText("hello", in: dm.conversationID, clientID: id).duplicate)
    }

    /// A CHANGE stored with an id, then a SEND with that id: refused, no new message.
    func testMessageCannotReuseTheClientIDOfAChange() throws {
        let dm = try ann.openDM(with: "ben")
        try ann.sendText("hello", in: dm.conversationID)
        let id = TestClient.newClientID()
        let reacted: SendAck = try ann.request(ChangeRequest(conversationID: dm.conversationID, clientID: id, targetSeq: 1,
                                                             action: .react, emoji: "👍"))
        XCTAssertEqual(reacted.seq, 2)
        let e = try ann.requestError(Send(conversationID: dm.conversationID, clientID: id, text: "a new message"))
        XCTAssertEqual(e.errorCode, .clientIDReused)
        let page: HistoryPage = try ben.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["hello"], "no message was stored under the change's id")
        // The change's resend is still answered as a duplicate.
        let again: SendAck = try ann.request(ChangeRequest(conversationID: dm.conversationID, clientID: id, targetSeq: 1,
                                                           action: .react, emoji: "👍"))
        XCTAssertEqual(again.seq, 2)
        XCTAssertTrue(again.duplicate)
        // Ids are per user: ben may use the same bytes.
        let bens: SendAck = try ben.request(Send(conversationID: dm.conversationID, clientID: id, text: "mine"))
        XCTAssertFalse(bens.duplicate)
    }

    /// The spec's order: the target is checked before the action, so an unknown action on a
    /// deleted message is `message_deleted`; on a live message it is `invalid_argument`.
    func testUnknownActionOnADeletedMessageIsMessageDeleted() throws {
        let dm = try ann.openDM(with: "ben")
        try ann.sendText("oops", in: dm.conversationID)
        let _: SendAck = try ann.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                       targetSeq: 1, action: .delete))
        var unknown = ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(), targetSeq: 1, action: .react)
        unknown.action = 9
        XCTAssertEqual(try ann.requestError(unknown).errorCode, .messageDeleted)
        try ann.sendText("still here", in: dm.conversationID)
        unknown.targetSeq = 3
        unknown.clientID = TestClient.newClientID()
        let e = try ann.requestError(unknown)
        XCTAssertEqual(e.errorCode, .invalidArgument)
        XCTAssertEqual(e.field, "action")
        unknown.targetSeq = 99
        unknown.clientID = TestClient.newClientID()
        XCTAssertEqual(try ann.requestError(unknown).errorCode, .noSuchMessage)
    }
}
