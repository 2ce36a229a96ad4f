import XCTest
import MessageAIProtocol
@testable import MessageAIClient

/// Commands that wait (/wait, /wait-messages, /follow, the drain at end of input) are woken by
/// the change they wait for, not by a timer: the answer comes within the change itself.
final class WaitingTests: XCTestCase {
    private func client() -> Client {
        var config = ClientConfiguration()
        config.dataDir = temporaryDirectory("waiting")
        addTeardownBlock { [dir = config.dataDir] in try? FileManager.default.removeItem(atPath: dir) }
        return Client(config: config, output: Output(json: true))
    }

    func testAWaitEndsWithinTheChangeThatSatisfiesIt() {
        let c = client()
        var ready = false
        var answers: [Bool] = []
        c.wait(upTo: 60, until: { ready }) { answers.append($0) }
        c.onChange()
        XCTAssertEqual(answers, [], "not yet")
        ready = true
        c.onChange()
        // No run loop turn in between: a poll on a timer could not have answered yet.
        XCTAssertEqual(answers, [true])
        c.onChange()
        XCTAssertEqual(answers, [true], "answered once")
        XCTAssertTrue(c.waiters.isEmpty)
    }

    func testTheEndOfInputWakesAFollow() {
        let c = client()
        var ended = false
        c.wait(upTo: 60, until: { c.inputEnded }) { ended = $0 }
        c.inputEnded = true
        XCTAssertTrue(ended)
    }

    func testAWaitThatNeverHoldsTimesOutOnce() {
        let c = client()
        let timedOut = expectation(description: "timed out")
        var answers: [Bool] = []
        c.wait(upTo: 0.05, until: { false }) { answers.append($0); timedOut.fulfill() }
        wait(for: [timedOut], timeout: 10)
        c.onChange()
        XCTAssertEqual(answers, [false])
        XCTAssertTrue(c.waiters.isEmpty)
    }

    func testAConditionAlreadyTrueAnswersAtOnce() {
        var answer: Bool?
        client().wait(upTo: 60, until: { true }) { answer = $0 }
        XCTAssertEqual(answer, true)
    }

    /// One receipt that marks three of alice's messages read: a script's `/wait read` answers
    /// after the three state lines, never between them (CI once saw "ok" after the first,
    /// and the test reading the states found the second still "delivered").
    func testAWaitAnswersAfterEveryStateLineOfOneReceipt() throws {
        let c = client()
        var printed: [String] = []
        c.output.write = { text, _ in printed.append(text) }
        try c.openAccount(SavedSession(username: "alice", userID: 1, token: String(repeating: "ab", count: 32)))
        let store = try XCTUnwrap(c.store)
        let alice = UserInfo(userID: 1, username: "alice", displayName: "Alice")
        let bob = UserInfo(userID: 2, username: "bob", displayName: "Bob")
        try store.upsert(Conversation(conversationID: 4, kind: .direct, name: "", members: [alice, bob]))
        let sent = (1...3).map { seq in
            ChatMessage(conversationID: 4, seq: UInt64(seq), clientID: Hex.decode(Outbox.newClientID())!, senderID: 1,
                        senderUsername: "alice", serverTime: UInt64(seq), text: "hello bob \(seq) ✓")
        }
        _ = try store.insert(sent, sentHere: Set(sent.map { Hex.encode($0.clientID) }))
        let allRead = { sent.allSatisfy { (try? store.state(of: $0.seq, in: 4)) == .read } }
        var stateLinesWhenAnswered: Int?
        c.wait(upTo: 60, until: allRead) { _ in stateLinesWhenAnswered = printed.filter { $0.contains("\"read\"") }.count }
        c.applyReceipt(Receipt(conversationID: 4, userID: 2, username: "bob", deliveredSeq: 3, readSeq: 3), announce: true)
        XCTAssertEqual(stateLinesWhenAnswered, 3, "the wait answered before every message's read line was printed: \(printed)")
    }
}
