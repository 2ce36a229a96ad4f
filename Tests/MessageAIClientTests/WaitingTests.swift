import XCTest
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
}
