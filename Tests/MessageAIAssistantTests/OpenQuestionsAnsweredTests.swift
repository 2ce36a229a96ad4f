@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.7: what answers a question. A reply answers when it addresses it: not when it asks
/// back first, says nothing in words or puts it off; a question whose last word puts it off is open
/// whatever came before; whoever put it off answers it later. Asks nobody took stay open without a
/// "?" ("someone should ..."), and an ask's few trailing words ("7/30/90 days?") are no question of
/// their own. Threads made up here, none from a labelled set.
final class OpenQuestionsAnsweredTests: XCTestCase {
    func questions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: ["ana", "ben", "cy"], messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).openQuestions
    }

    let swap = ("ana", "What if Cy covers your on-call week?")

    func testAReplyThatAsksBackFirstAnswersNothing() {
        // (The reply's two questions in a row are one open question.)
        XCTAssertEqual(questions([swap, ("ben", "Which week do you mean? The one in March?")]).count, 2)
        // An answer that goes on to ask something still answers.
        let answered = questions([swap, ("ben", "Helps, but it's still two weeks of work. What does the client need first?")])
        XCTAssertFalse(answered.contains { $0.contains("on-call") }, "\(answered)")
    }

    func testAWordlessReplyAnswersNothing() {
        XCTAssertEqual(questions([("ana", "Who tests the right-to-left layout on tablets?"), ("ben", "👀")]).count, 1)
        XCTAssertEqual(questions([("ana", "Who tests the right-to-left layout on tablets?"), ("ben", "Cy, she did the phones.")]), [])
    }

    func testTheLastWordPuttingItOffLeavesItOpen() {
        let renamed = [("cy", "should we rename amount to amount_cents in the v2 payload?"), ("ben", "that breaks the v1 clients though"),
                       ("ana", "I'll write up the review notes tonight")]
        XCTAssertEqual(questions(renamed), [])
        XCTAssertEqual(questions(renamed + [("ana", "amount_cents: let's vote next week with the SDK folks")]).count, 1)
        // A later put-off of something else leaves the answer standing.
        XCTAssertEqual(questions(renamed + [("ana", "the logo colour: let's vote next week")]), [])
    }

    func testNewWaysOfPuttingItOff() {
        for reply in ["Depends on what the logs show.", "not me, I'm out tomorrow", "Let's see if the pages drop first.",
                      "I'll decide after the planning meeting", "probably, I'll confirm once I see Q1 capacity"] {
            XCTAssertEqual(questions([("ana", "Do we need to notify the customers about the breach?"), ("ben", reply)]).count, 1, reply)
        }
    }

    func testWhoPutItOffAnswersLater() {
        let checked = [("ana", "What does the client actually need on the 20th?"), ("ben", "Let me check with their team.")]
        XCTAssertEqual(questions(checked).count, 1)
        XCTAssertEqual(questions(checked + [("ben", "Ok: they need the CSV export of invoices for the close.")]), [])
        // Someone else's word with nothing of the question in it is no answer.
        XCTAssertEqual(questions(checked + [("cy", "The staging build is green again.")]).count, 1)
    }

    func testAnAskOfNobodyThatNobodyTookIsOpen() {
        let post = ("ana", "someone should write the launch post for the blog")
        XCTAssertEqual(questions([post, ("cy", "the ja strings are all reviewed")]).count, 1)
        XCTAssertEqual(questions([post, ("ben", "I'll write it tonight")]), [])
        // A report of what someone did is no ask.
        XCTAssertEqual(questions([("ana", "someone wrote the launch post for the blog already"), ("cy", "the ja strings are all reviewed")]), [])
    }

    func testAnAsksTrailingWordsAreNoQuestion() {
        let ranges = "cy, can you ask the client which fixed ranges they need? 7/30/90 days?"
        XCTAssertEqual(questions([("ana", ranges), ("cy", "sure, on tomorrow's call")]), [])
        let more = questions([("ana", "cy, can you ask the client which fixed ranges they need? Do we support custom ranges at all?")])
        XCTAssertEqual(more.count, 1, "\(more)")
        XCTAssertTrue(more.first?.contains("custom ranges") ?? false, "\(more)")
    }

    func testAnAskPutOffAtTheEndIsOpen() {
        let asked = [("ana", "cursor, but please expose total_count, the finance folks want it"),
                     ("ben", "total_count on 2M rows is a full count query on every page")]
        let parked = questions(asked + [("cy", "let's park total_count for now")])
        XCTAssertTrue(parked.contains { $0.contains("total_count") }, "\(parked)")
        XCTAssertFalse(questions(asked + [("cy", "ok, we expose total_count, cached per tenant")]).contains { $0.contains("total_count") })
    }
}
