import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Points of PROTOCOL-REVIEW-2 (issue 23) that the spec now decides, each held to the server
/// over real sockets. Others are in ChangeRulesTests, FileFallbackTests, TLSOverflowTests,
/// ThrottleTests, AwayTests, PrivacyTests and the protocol tests' SpecTablesTests.
final class SpecDecisionTests: ThreeUserTestCase {
    /// DM_OPEN by the blocked user is answered as for anyone, but reaches nobody; SEND in it is refused.
    func testDMOpenByTheBlockedUserIsAnsweredButReachesNoOne() throws {
        let _: OK = try ann.request(Block(username: "ben"))
        let dm: Conversation = try ben.request(DMOpen(username: "ann"))
        XCTAssertEqual(dm.kind, .direct)
        let _: Pong = try ann.request(Ping()) // a push would have come before the PONG
        XCTAssertNil(ann.inbox.first { $0.type == .conversation }, "the blocker hears nothing of it")
        XCTAssertEqual(try ben.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "hi")).errorCode,
                       .notAContact)
    }

    /// The block binds the blocked user's own adds; a third member may put both in a group.
    func testAThirdMemberMayAddTheBlockerToAGroupWithTheBlocked() throws {
        let _: OK = try ann.request(Block(username: "ben"))
        XCTAssertEqual(try ben.requestError(GroupCreate(name: "trap", usernames: ["ann", "cat"])).errorCode, .notAContact)
        let group: Conversation = try cat.request(GroupCreate(name: "team", usernames: ["ann", "ben"]))
        XCTAssertEqual(Set(group.members.map(\.username)), ["ann", "ben", "cat"])
    }

    /// RESUME's token is 32 bytes; any other length is `invalid_token`, not `bad_request`.
    func testResumeWithATokenOfAnotherLengthIsInvalidToken() throws {
        let c = try server.client()
        XCTAssertEqual(try c.requestError(Resume(token: [UInt8](repeating: 1, count: 16))).errorCode, .invalidToken)
    }

    /// Before login, a compressed frame may inflate to the pre-login frame limit only: an
    /// anonymous client cannot make the server inflate 4 MiB (it used to).
    func testPreLoginInflateCapIsThePreLoginFrameLimit() throws {
        let c = try server.client(capabilities: [.zlib])
        let login = Login(login: "ann", password: String(repeating: "a", count: 9_000), device: "t")
        let frame = login.frame(requestID: 5, compress: true)
        XCTAssertTrue(frame.flags.contains(.compressed))
        XCTAssertLessThan(frame.encoded().count, 8_192, "small on the wire")
        c.send(frame)
        let e = try c.wait(for: "the refusal") { $0.type == .error }.decode(ErrorFrame.self)
        XCTAssertEqual(e.errorCode, .decompressionFailed)
        XCTAssertTrue(e.message.contains("8192"), e.message)
        XCTAssertTrue(e.closes)
        XCTAssertTrue(try c.waitForClose())
        // After login the announced 4 × frame limit applies.
        let big = ContactAdd(username: String(repeating: "b", count: 9_000)).frame(requestID: 60_000, compress: true)
        XCTAssertTrue(big.flags.contains(.compressed))
        ann.send(big)
        let e2 = try ann.wait(for: "the answer") { $0.requestID == 60_000 }.decode(ErrorFrame.self)
        XCTAssertEqual(e2.errorCode, .notFound, "inflated and handled: no such user")
    }

    /// A CHANGE costs a token of SEND's bucket; a refused one costs none.
    func testAChangeCostsASendToken() throws {
        let limited = try TestServer { $0.rateLimit = 3 }
        defer { limited.stop() }
        let users = try TestUsers.register(["dan", "eve"], port: limited.port, capabilities: [.zlib, .messageChanges])
        let dm = try users[0].openDM(with: "eve")
        try users[0].sendText("one", in: dm.conversationID)
        for emoji in ["👍", "🎉"] {
            let _: SendAck = try users[0].request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                                targetSeq: 1, action: .react, emoji: emoji))
        }
        let e = try users[0].requestError(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                        targetSeq: 1, action: .react, emoji: "❤️"))
        XCTAssertEqual(e.errorCode, .rateLimited)
        XCTAssertGreaterThan(e.retryAfter, 0)
    }
}

/// ASSIST_SUMMARY's range past the end of the conversation.
final class SummaryRangeTests: AssistantTestCase {
    func testToSeqPastTheEndIsTheNewestAndFromSeqPastTheEndIsEmpty() throws {
        for text in ["We ship on Thursday.", "Ben, tag the branch by 5pm?", "Who writes the notes?"] {
            _ = try ann.sendText(text, in: group.conversationID)
        }
        let past: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID, toSeq: 1_000_000))
        XCTAssertEqual([past.fromSeq, past.toSeq, past.messageCount], [1, 3, 3])
        let beyond: AssistSummaryResult = try ben.request(AssistSummary(conversationID: group.conversationID, fromSeq: 1_000_000))
        XCTAssertEqual([beyond.fromSeq, beyond.toSeq, beyond.messageCount], [0, 0, 0])
    }
}

/// `--max-frame 65536` starts: without `--file-chunk` the chunk shrinks to fit the frame.
final class FrameLimitProcessTests: XCTestCase {
    func testSmallestFrameLimitStartsWithAChunkThatFits() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path + "/data", arguments: ["--max-frame", "65536"])
        let c = try TestClient(port: child.port)
        let welcome = try c.hello(capabilities: [.zlib, .files])
        XCTAssertEqual(welcome.maxFrameLength, 65_536)
        XCTAssertEqual(welcome.fileChunkSize, 60 * 1024, "60 KiB leaves 4 KiB for the frame around a chunk")
        XCTAssertEqual(child.terminate(), 0)
    }
}

/// Capabilities by value (1 zlib, 4 messageChanges, 8 files, 16 avatars): WELCOME echoes what
/// both have, and `avatars` only together with `files`.
final class CapabilityEchoTests: XCTestCase {
    func testWelcomeEchoesCapabilitiesByValueAndAvatarsOnlyWithFiles() throws {
        let server = try TestServer(files: true)
        defer { server.stop() }
        let all = try TestClient(port: server.port).hello(capabilities: [.zlib, .messageChanges, .files, .avatars])
        XCTAssertEqual(all.capabilities.rawValue & 0b11101, 1 | 4 | 8 | 16)
        let alone = try TestClient(port: server.port).hello(capabilities: [.zlib, .avatars])
        XCTAssertEqual(alone.capabilities.rawValue & 0b11101, 1, "avatars without files is not echoed")
    }
}
