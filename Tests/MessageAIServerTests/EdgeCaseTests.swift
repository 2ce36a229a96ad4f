import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Points of PROTOCOL.md's "Edge cases" that the other tests do not already hold.
final class EdgeCaseTests: TwoUserTestCase {
    /// With the bucket empty, a resend of a stored message still gets its duplicate ack; a new
    /// message is refused.
    func testResendWithAnEmptyBucketGetsItsDuplicateAck() throws {
        server.stop()
        server = try TestServer { $0.rateLimit = 2; $0.rateWindowSeconds = 3_600 }
        let users = try TestUsers.register(["ann", "ben"], port: server.port)
        let (ann, ben) = (users[0], users[1])
        let dm = try ann.openDM(with: "ben")
        let id = TestClient.newClientID()
        let first = try ann.sendText("one", in: dm.conversationID, clientID: id)
        _ = try ann.sendText("two", in: dm.conversationID)
        let resend = try ann.sendText("one", in: dm.conversationID, clientID: id)
        XCTAssertTrue(resend.duplicate)
        XCTAssertEqual(resend.seq, first.seq)
        XCTAssertEqual(try ann.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "three")).errorCode,
                       .rateLimited)
        let page: HistoryPage = try ben.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["one", "two"])
    }

    func testHelloWithRequestIDZeroIsAnswered() throws {
        let c = try TestClient(port: server.port)
        c.send(Hello(capabilities: [], client: "zero").frame(requestID: 0))
        let f = try c.wait(for: "WELCOME") { $0.type == .welcome }
        XCTAssertEqual(f.requestID, 0)
    }

    func testReadersOfAMissingSeqIsNotFoundAndLimitsAreClamped() throws {
        let dm = try alice.openDM(with: "bob")
        for i in 0..<3 { _ = try alice.sendText("m\(i)", in: dm.conversationID) }
        XCTAssertEqual(try alice.requestError(ReadersRequest(conversationID: dm.conversationID, seq: 4)).errorCode, .notFound)
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID, limit: 1_000_000))
        XCTAssertEqual(page.messages.map(\.seq), [1, 2, 3], "a limit above the maximum is clamped, not refused")
        let found: SearchResults = try bob.request(SearchRequest(query: "m0", limit: 1_000_000))
        XCTAssertEqual(found.messages.map(\.text), ["m0"])
    }

    func testTypingReachesOtherMembersOnlyNotTheTypersOtherSessions() throws {
        let dm = try alice.openDM(with: "bob")
        let aliceToo = try TestUsers.secondSession(of: alice, port: server.port)
        alice.send(Typing(conversationID: dm.conversationID).frame(requestID: 0))
        XCTAssertEqual(try bob.push(TypingEvent.self).user.username, "alice")
        let _: Pong = try aliceToo.request(Ping())
        XCTAssertFalse(aliceToo.inbox.contains { $0.type == .typingEvent })
    }

    func testAddingAnExistingMemberChangesNothingAndAnAddedMemberSeesTheHistory() throws {
        let later = try TestUsers.register(["carol", "dave"], port: server.port)
        let (carol, dave) = (later[0], later[1])
        let group: Conversation = try alice.request(GroupCreate(name: "team", usernames: ["bob", "carol"]))
        _ = try alice.sendText("before dave", in: group.conversationID)
        let same: Conversation = try alice.request(GroupAdd(conversationID: group.conversationID, usernames: ["bob"]))
        XCTAssertEqual(same.members.count, 3)
        let added: Conversation = try carol.request(GroupAdd(conversationID: group.conversationID, usernames: ["dave"]))
        XCTAssertEqual(added.members.map(\.username).sorted(), ["alice", "bob", "carol", "dave"])
        let history: HistoryPage = try dave.request(HistoryRequest(conversationID: group.conversationID))
        XCTAssertEqual(history.messages.map(\.text), ["before dave"], "an added member sees the history")
        let tooFew = try alice.requestError(GroupCreate(name: "pair", usernames: ["bob", "bob", "alice"]))
        XCTAssertEqual(tooFew.errorCode, .invalidArgument, "duplicates and oneself do not count")
        XCTAssertEqual(try alice.requestError(GroupCreate(name: "x", usernames: ["bob", "nobody"])).errorCode, .notFound)
    }
}
