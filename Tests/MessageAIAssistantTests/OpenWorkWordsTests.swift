@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: open work a reader can act on. A verb alone ("look", "do" from "anything I can
/// do?") names no work: it joins the owner's item nearby or is left out; a reviewer's "LGTM" or
/// "approved" reports their review done. Look-alikes keep their items. Threads made up here.
final class OpenWorkWordsTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func actions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
            .actions.map { "\($0.who): \($0.what)" + ($0.due.map { " (\($0))" } ?? "") }
    }

    func testAVerbAloneIsNoItemOfItsOwn() {
        // The offer of help asked as a question names nothing to do.
        XCTAssertEqual(actions([("ana", "payments-api 5xx at 12%, on it"), ("ben", "up too. anything I can do?")]).filter { $0.hasPrefix("ben:") }, [])
        // "will look after lunch" after an ask of a review: the time joins the review, no "look" beside it.
        let review = actions([("ana", "Ben, can you review PR #482 today?"), ("ben", "will look after lunch")])
        XCTAssertEqual(review.count, 1, "\(review)")
        XCTAssertTrue(review[0].hasPrefix("ben: review"), "\(review)")
        // A verb with its object stays.
        XCTAssertEqual(actions([("ben", "I'll open a ticket for the hotfix.")]), ["ben: open a ticket for the hotfix"])
    }

    func testAReviewersVerdictReportsTheReviewDone() {
        let ask = ("ana", "Ben, can you review PR #482 today?")
        XCTAssertEqual(actions([ask, ("ben", "on it"), ("ben", "LGTM, one nit on naming")]), [])
        XCTAssertEqual(actions([ask, ("ben", "approved")]), [])
        // Someone else's verdict, or a verdict asked about, leaves the review open.
        XCTAssertEqual(actions([ask, ("cy", "LGTM from me")]).count, 1)
        XCTAssertEqual(actions([ask, ("ben", "is it approved already?")]).count, 1)
    }
}
