import Foundation
import MessageAIProtocol
import XCTest

/// The limits of two `messageai-server` processes on one PostgreSQL database (issue 26 stage B):
/// a user or an address spreading its requests over both nodes meets the figure one node
/// gives, not twice it. What the user sees: acks up to the limit, then the throttled error
/// with its retry-after. Real processes, real sockets, a real PostgreSQL (`TestCluster`).
final class ClusterLimitsProcessTests: ClusterTestCase {
    /// Two servers on a new database, with small limits.
    private func twoNodes(_ extra: [String] = []) throws -> (ChildServer, ChildServer, [ServerTestDirectory]) {
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", try freshDatabaseURL("limits")] + extra
        let a = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        let b = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        return (a, b, dirs)
    }

    private func connect(_ port: Int, from source: String? = nil) throws -> TestClient {
        let c = try TestClient(port: port, source: source)
        try c.hello(capabilities: [.zlib, .messageChanges])
        return c
    }

    /// 10 messages an hour: ann sends 8 through each node, alternating; 10 are acknowledged,
    /// the other 6 get rate_limited with a wait, and a reaction after them too. A resend of an
    /// acknowledged message still gets its (duplicate) ack: it is no new traffic.
    func testSendsThroughTwoNodesMeetTheOneNodeLimit() throws {
        let (a, b, _) = try twoNodes(["--rate-limit", "10", "--rate-window", "3600"])
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port, capabilities: [.zlib, .messageChanges])
        let group: Conversation = try users[0].request(GroupCreate(name: "limits", usernames: ["ben", "cat"]))
        let onA = users[0], onB = try TestUsers.secondSession(of: onA, port: b.port, capabilities: [.zlib, .messageChanges])
        var acks: [SendAck] = [], refused: [ErrorFrame] = []
        for i in 0..<16 {
            let client = i % 2 == 0 ? onA : onB
            let f = try client.wait(for: "answer to send \(i)") { [id = client.send(Send(conversationID: group.conversationID,
                                                                                          clientID: TestClient.newClientID(), text: "m\(i)"))] in
                $0.requestID == id
            }
            if f.type == .error { refused.append(try f.decode(ErrorFrame.self)) } else { acks.append(try f.decode(SendAck.self)) }
        }
        XCTAssertEqual(acks.map(\.seq), Array(1...10), "the limit of one node, not of two")
        XCTAssertEqual(refused.count, 6)
        for e in refused {
            XCTAssertEqual(e.errorCode, .rateLimited)
            XCTAssertGreaterThan(e.retryAfter, 0)
            XCTAssertLessThanOrEqual(e.retryAfter, 360_000, "one token comes back every 6 minutes")
        }
        let first = acks[0]
        let resent: SendAck = try onB.request(Send(conversationID: group.conversationID, clientID: first.clientID, text: "m0"))
        XCTAssertEqual(resent.seq, first.seq)
        XCTAssertTrue(resent.duplicate)
        let reaction = try onB.requestError(ChangeRequest(conversationID: group.conversationID, clientID: TestClient.newClientID(),
                                                          targetSeq: 1, action: .react, emoji: "👍"))
        XCTAssertEqual(reaction.errorCode, .rateLimited, "a change spends the same budget")
    }

    /// 5 wrong passwords for one account from one address, spread over both nodes: the next
    /// try waits, on either node, even with the right password (one node alone would have
    /// seen only 2 of them and let it through).
    func testWrongPasswordsOverTwoNodesAreThrottledAsOnOne() throws {
        let (a, b, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        _ = try TestUsers.register(["dan"], port: a.port)
        for i in 0..<5 {
            let c = try connect(i % 2 == 0 ? a.port : b.port, from: "127.0.0.3")
            let e = try c.requestError(Login(login: "dan", password: "wrong \(i)", device: "test"), timeout: 30)
            XCTAssertEqual(e.errorCode, .invalidCredentials, "try \(i)")
        }
        let sixth = try connect(b.port, from: "127.0.0.3")
        let e = try sixth.requestError(Login(login: "dan", password: TestUsers.password, device: "test"), timeout: 30)
        XCTAssertEqual(e.errorCode, .throttled)
        XCTAssertGreaterThan(e.retryAfter, 0)
        XCTAssertLessThanOrEqual(e.retryAfter, 1_000, "the first wait is a second")
        // Once it is over, the owner gets in through the other node.
        let later = try connect(a.port, from: "127.0.0.3")
        let deadline = Date().addingTimeInterval(20)
        var granted = false
        while !granted, Date() < deadline {
            let f = try later.wait(for: "login", timeout: 30) { [id = later.send(Login(login: "dan", password: TestUsers.password,
                                                                                       device: "test"))] in $0.requestID == id }
            granted = f.type == SessionGranted.frameType
            if !granted { XCTAssertEqual(try f.decode(ErrorFrame.self).errorCode, .throttled) }
        }
        XCTAssertTrue(granted)
    }

    /// 3 registrations an hour per address: the fourth from one address stops, whichever node.
    func testRegistrationsFromOneAddressStopAtTheLimitAcrossNodes() throws {
        let (a, b, _) = try twoNodes(["--register-limit", "3"])
        defer { _ = a.terminate(); _ = b.terminate() }
        for (i, port) in [a.port, b.port, a.port].enumerated() {
            let c = try connect(port, from: "127.0.0.4")
            let _: SessionGranted = try c.request(Register(email: "r\(i)@example.org", username: "reg\(i)", password: TestUsers.password,
                                                           displayName: "R\(i)", device: "test"), timeout: 30)
        }
        let fourth = try connect(b.port, from: "127.0.0.4")
        let e = try fourth.requestError(Register(email: "r3@example.org", username: "reg3", password: TestUsers.password,
                                                 displayName: "R3", device: "test"), timeout: 30)
        XCTAssertEqual(e.errorCode, .throttled)
        XCTAssertGreaterThan(e.retryAfter, 0)
        XCTAssertLessThanOrEqual(e.retryAfter, 1_200_000, "one registration comes back every 20 minutes")
        // Another address is not held back.
        let other = try connect(b.port, from: "127.0.0.5")
        let _: SessionGranted = try other.request(Register(email: "r4@example.org", username: "reg4", password: TestUsers.password,
                                                           displayName: "R4", device: "test"), timeout: 30)
    }
}
