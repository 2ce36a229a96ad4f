@testable import MessageAIAssistant
import XCTest

/// The choices Scripts/assistant/README.md makes where ASSISTANT.md is open, with their look-alikes.
final class ReadmeChoicesTests: XCTestCase {
    func testWhoeverAndOneOfYouNameNobody() {
        for text in ["Whoever picks up the pager ticket, please restart the runner.", "One of you please rotate the staging keys by Friday."] {
            let j = judge(text, to: group)
            XCTAssertEqual(j.actions.map(\.who), ["recipient"], text)
            XCTAssertTrue(j.clarity.contains { $0.kind == .owner }, text)
        }
        XCTAssertFalse(judge("Everyone, please rotate your staging keys by Friday.", to: group).clarityFlag)
    }

    func testAckAcceptsTheAssignmentAndItsOwnEstimateWins() {
        let asked = [("maya", "Omar, can you restart the ingest worker by 3pm?")]
        XCTAssertEqual(judge("ack, eta 5 min", context: asked).actions, [ActionItem(what: "restart the ingest worker", who: "omar", due: "eta 5 min")])
        XCTAssertEqual(judge("ack", context: asked).actions.map(\.due), ["3pm"])
        XCTAssertEqual(judge("Can you restart the worker in 5 min?").actions.map(\.due), ["in 5 min"])
        XCTAssertEqual(judge("I'll be back in 10 mins.").actions, [], "not work")
    }

    func testSocialPlansAreNotWork() {
        for text in ["I'm going to the climbing gym tonight.", "I'm going to grab lunch, back at 2.", "I'll grab coffee with the new hire tomorrow."] {
            XCTAssertEqual(judge(text).actions, [], text)
        }
        XCTAssertEqual(judge("I'll grab the logs from the ingest worker tomorrow.").actions.map(\.what), ["grab the logs from the ingest worker"])
    }

    func testASocialChoiceMadeIsADecisionAndNeedsNoAntecedent() {
        let j = judge("Ramen it is then.", to: group, context: [("maya", "Ramen or tacos for the team lunch?")])
        XCTAssertNotNil(j.decision)
        XCTAssertFalse(j.clarityFlag, "'it is' names the choice")
        XCTAssertNil(judge("We'll revisit the caching layer if latency regresses.", to: group).decision)
        XCTAssertEqual(judge("We'll revisit the caching layer if latency regresses.", to: group).actions, [])
    }
}
