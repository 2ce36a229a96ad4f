import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// What a user can learn about conversations they are not in (nothing), and what a reused
/// client id does (refused, never a false "duplicate").
final class ConversationAccessTests: XCTestCase {
    var server: TestServer!
    var alice: TestClient!, bob: TestClient!, carol: TestClient!, eve: TestClient!

    override func setUpWithError() throws {
        server = try TestServer { $0.rateLimit = 100_000 }
        let users = try TestUsers.register(["alice", "bob", "carol", "eve"], port: server.port)
        (alice, bob, carol, eve) = (users[0], users[1], users[2], users[3])
    }
    override func tearDown() { server?.stop() }

    /// Every frame that names a conversation answers a stranger the same for an existing
    /// conversation of others and for an id that was never used.
    func testUnknownAndOthersConversationsGetOneAnswerOnEveryFrame() throws {
        let group: Conversation = try alice.request(GroupCreate(name: "secret plans", usernames: ["bob", "carol"]))
        _ = try alice.sendText("hush", in: group.conversationID)
        let dm = try alice.openDM(with: "bob")
        let unknown: UInt64 = 9_999_999
        let requests: [(String, (UInt64) -> Frame)] = [
            ("GROUP_ADD", { GroupAdd(conversationID: $0, usernames: ["eve"]).frame(requestID: 77) }),
            ("GROUP_RENAME", { GroupRename(conversationID: $0, name: "mine now").frame(requestID: 77) }),
            ("GROUP_LEAVE", { GroupLeave(conversationID: $0).frame(requestID: 77) }),
            ("SEND", { Send(conversationID: $0, clientID: TestClient.newClientID(), text: "hi").frame(requestID: 77) }),
            ("HISTORY", { HistoryRequest(conversationID: $0).frame(requestID: 77) }),
            ("MARK", { Mark(conversationID: $0, deliveredSeq: 1, readSeq: 1).frame(requestID: 77) }),
            ("READERS", { ReadersRequest(conversationID: $0, seq: 1).frame(requestID: 77) }),
            ("SEARCH", { SearchRequest(query: "hush", conversationID: $0).frame(requestID: 77) }),
        ]
        for (name, make) in requests {
            var answers: [String] = []
            for id in [group.conversationID, dm.conversationID, unknown] {
                eve.send(make(id))
                let f = try eve.wait(for: "\(name) answer") { $0.requestID == 77 }
                XCTAssertEqual(f.type, .error, "\(name) on \(id)")
                let e = try f.decode(ErrorFrame.self)
                XCTAssertEqual(e.errorCode, .notAMember, "\(name) on \(id): \(e.message)")
                answers.append("\(e.code) \(e.field) \(e.closes) " + e.message.replacingOccurrences(of: String(id), with: "N"))
            }
            XCTAssertEqual(Set(answers).count, 1, "\(name): \(answers)")
        }
        // Nothing changed for the members.
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: group.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["hush"])
        let list: Conversations = try carol.request(ConversationsList())
        XCTAssertEqual(list.conversations.first { $0.conversationID == group.conversationID }?.name, "secret plans")
    }

    func testClientIDReusedInAnotherConversationIsRefusedNotAcknowledged() throws {
        let withBob = try alice.openDM(with: "bob")
        let withCarol = try alice.openDM(with: "carol")
        let id = TestClient.newClientID()
        let first = try alice.sendText("for bob", in: withBob.conversationID, clientID: id)
        XCTAssertFalse(first.duplicate)

        let e = try alice.requestError(Send(conversationID: withCarol.conversationID, clientID: id, text: "for carol"))
        XCTAssertEqual(e.errorCode, .clientIDReused)
        XCTAssertEqual(e.field, "client_id")
        XCTAssertFalse(e.closes)
        // The same id with another text in the same conversation is not a resend either.
        let edited = try alice.requestError(Send(conversationID: withBob.conversationID, clientID: id, text: "for bob, edited"))
        XCTAssertEqual(edited.errorCode, .clientIDReused)
        // A true resend is still a duplicate with the original seq.
        let resend = try alice.sendText("for bob", in: withBob.conversationID, clientID: id)
        XCTAssertTrue(resend.duplicate)
        XCTAssertEqual(resend.seq, first.seq)
        XCTAssertEqual(resend.conversationID, withBob.conversationID)

        // Nothing reached carol's conversation; with a fresh id it does.
        let empty: HistoryPage = try carol.request(HistoryRequest(conversationID: withCarol.conversationID))
        XCTAssertEqual(empty.messages, [])
        let fresh = try alice.sendText("for carol", in: withCarol.conversationID)
        XCTAssertEqual(fresh.seq, 1)
        XCTAssertEqual(try carol.push(ChatMessage.self).text, "for carol")
        let bobs: HistoryPage = try bob.request(HistoryRequest(conversationID: withBob.conversationID))
        XCTAssertEqual(bobs.messages.map(\.text), ["for bob"])
    }
}
