import Foundation
import MessageAIAssistant
@testable import MessageAIAssistantProvider
import XCTest

/// Long threads, requests in flight, rewrites.
final class ProviderEngineBoundsTests: FakeServerTestCase {
    func testLongThreadIsCutToTheBudgetNewestFirst() throws {
        let names = ["maya", "omar", "li"]
        let messages = (0..<300).map { ChatLine(from: names[$0 % 3], text: "Message number \($0) about the rollout plan, 東京 👍🏽.") }
        let thread = ThreadToSummarize(participants: names, messages: messages)
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "good_long", budget: 600).summarize(thread) })
        XCTAssertEqual(s.engine.name, "provider")
        XCTAssertGreaterThan(s.coveredMessages, 5)
        XCTAssertLessThan(s.coveredMessages, 300)
        let body = try XCTUnwrap(server.requests(mode: "good_long").first?["body"] as? [String: Any])
        let user = try XCTUnwrap((body["messages"] as? [[String: Any]])?.last?["content"] as? String)
        XCTAssertTrue(user.contains("Message number 299 "), "the newest message is kept")
        XCTAssertFalse(user.contains("Message number 0 "), "the oldest is cut")
        XCTAssertTrue(user.contains("Message number \(300 - s.coveredMessages) "))
        XCTAssertFalse(user.contains("Message number \(299 - s.coveredMessages) "))
        // The fake cites the last message shown: its index is inside the covered range, so kept.
        XCTAssertEqual(s.actions.count, 1)
    }

    func testFallbackSummaryCoversTheWholeThread() throws {
        let s = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "500_s").summarize(Fixture.thread) })
        XCTAssertEqual(s.engine.name, "local")
        XCTAssertEqual(s.coveredMessages, Fixture.thread.messages.count)
        XCTAssertNotNil(s.engine.fallbackReason)
    }

    func testRequestsInFlightNeverExceedTheBound() throws {
        let engine = Fixture.engine(server, "slow_0.4", timeout: 20, maxInFlight: 2)
        let results = try XCTUnwrap(judgeConcurrently(6, engine, deadline: 60))
        XCTAssertEqual(results.map(\.engine.name), Array(repeating: "provider", count: 6))
        XCTAssertEqual(server.mostAtOnce(mode: "slow_0.4"), 2, "six callers, two requests at a time")
    }

    func testCallersFindingNoFreeSlotFallBackInTime() throws {
        let engine = Fixture.engine(server, "slow_5", timeout: 1, maxInFlight: 1)
        let results = try XCTUnwrap(judgeConcurrently(3, engine, deadline: 30))
        XCTAssertEqual(results.map(\.engine.name), ["local", "local", "local"])
        let reasons = results.compactMap(\.engine.fallbackReason)
        XCTAssertTrue(reasons.contains { $0.contains("busy") || $0.contains("within 1 s") }, "\(reasons)")
        XCTAssertLessThanOrEqual(server.requests(mode: "slow_5").count, 2)
    }

    func testRewriteSuggestsAClearerVersion() throws {
        let r = try XCTUnwrap(withinDeadline(20) { Fixture.engine(self.server, "good").rewrite(Fixture.message) } ?? nil)
        XCTAssertEqual(r.text, "Could you tag the 2.3 hotfix branch and post the notes by 5pm, please?")
        XCTAssertEqual(r.engine.name, "provider")
    }

    func testRewriteFailureSaysWhyAndGivesNothing() throws {
        let engine = Fixture.engine(server, "missing")
        let result = try XCTUnwrap(withinDeadline(20) { engine.rewriteResult(Fixture.message) })
        XCTAssertEqual(result.failureValue, .malformed)
        XCTAssertNil(withinDeadline(20) { Fixture.engine(self.server, "429_w").rewrite(Fixture.message) } ?? nil)
    }
}

/// `n` callers judging at once; nil (and a failure) if they have not all returned by the deadline.
private func judgeConcurrently(_ n: Int, _ engine: ProviderEngine, deadline: Double) -> [Judgement]? {
    let results = ResultList()
    let group = DispatchGroup()
    for _ in 0..<n {
        DispatchQueue.global().async(group: group) { results.append(engine.judge(Fixture.message)) }
    }
    guard group.wait(timeout: .now() + deadline) == .success else {
        XCTFail("\(n) concurrent calls did not all return within \(deadline) s")
        return nil
    }
    return results.all
}

private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Judgement] = []
    var all: [Judgement] { lock.lock(); defer { lock.unlock() }; return stored }
    func append(_ j: Judgement) { lock.lock(); stored.append(j); lock.unlock() }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
