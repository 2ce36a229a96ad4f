@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: a question stays open when the next speaker moves on to something else
/// ("another thing: ...") or puts it off ("good q, let's come back to that", "let's park it"); a
/// plain next reply still answers it. Threads made up here, none from a labelled set.
final class OpenQuestionsMovedOnTests: XCTestCase {
    func questions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: ["ana", "ben", "cy"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).openQuestions
    }

    let chaos = ("ben", "should we also run a chaos test on the cache cluster every month?")

    func testAReplyThatMovesOnAnswersNothing() {
        XCTAssertEqual(questions([chaos, ("ana", "another thing: the alert fired 9 min after impact.")]).count, 1)
        XCTAssertEqual(questions([chaos, ("ana", "btw the postmortem is up in the docs folder.")]).count, 1)
    }

    func testAReplyThatPutsItOffLeavesItOpen() {
        XCTAssertEqual(questions([("ben", "should the skip button be on every step?"), ("ana", "good q, let's come back to that")]).count, 1)
        XCTAssertEqual(questions([("ben", "should we expose total_count on the invoices API?"), ("ana", "let's park total_count for now")]).count, 1)
    }

    func testAPlainReplyStillAnswers() {
        XCTAssertEqual(questions([chaos, ("ana", "Monthly is too often, quarterly is enough.")]), [])
        // "also" inside a reply is no change of topic.
        XCTAssertEqual(questions([chaos, ("ana", "Yes, and also after every major upgrade.")]), [])
        // A yes answers even when it goes on to ask something; a question back does not.
        let yes = questions([("ben", "could we also add an alert at 85% disk?"), ("ana", "yes pls, can you set it up?")])
        XCTAssertFalse(yes.contains { $0.contains("85%") }, "\(yes)")
        XCTAssertEqual(questions([("ben", "could we also add an alert at 85% disk?"), ("ana", "at which threshold exactly?")]).count, 2)
        // A plan for later settles it as much as an answer.
        XCTAssertEqual(questions([chaos, ("ana", "Let's revisit that in February if the cache is stable.")]), [])
    }
}
