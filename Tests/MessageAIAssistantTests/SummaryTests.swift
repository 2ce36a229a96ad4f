@testable import MessageAIAssistant
import XCTest

final class SummaryTests: XCTestCase {
    let thread = ThreadToSummarize(participants: ["maya", "omar", "li"], messages: [
        ChatLine(from: "maya", text: "The 2.3 hotfix branch is cut and CI is green on it after the flaky test fix."),
        ChatLine(from: "omar", text: "Thanks. Could you tag it and post the release notes by 5pm today?"),
        ChatLine(from: "maya", text: "Tagged. I'll post the release notes after lunch, once QA signs off on the build."),
        ChatLine(from: "li", text: "Is staging still on the old certificate, or did someone already rotate it last week?"),
        ChatLine(from: "omar", text: "It is still on the old one and it expires on the 28th, which is next Tuesday."),
        ChatLine(from: "li", text: "Okay. I'll rotate the staging certificate tomorrow morning before the standup."),
        ChatLine(from: "maya", text: "Should we keep the retry change, or revert it before the release goes out?"),
        ChatLine(from: "omar", text: "Decision: we'll go with the retry change, the error rate dropped by half since Monday."),
        ChatLine(from: "li", text: "Who is writing the customer announcement for the 2.3 release this time around?"),
    ])

    func testOpenWorkDecisionsAndQuestions() {
        let s = engine.summarize(thread)
        XCTAssertEqual(Set(s.actions.map(\.who)), ["maya", "li"], "the tag was reported done; the notes and the certificate are open")
        XCTAssertTrue(s.actions.contains { $0.what.hasPrefix("rotate the staging certificate") && $0.due == "tomorrow morning" })
        XCTAssertFalse(s.actions.contains { $0.what.hasPrefix("tag") }, "done work is dropped")
        XCTAssertEqual(s.decisions.count, 1)
        XCTAssertEqual(s.openQuestions, ["Who is writing the customer announcement for the 2.3 release this time around?"],
                       "answered questions are left out")
    }

    func testSummaryStaysUnderThirtyPercentOfTheWordsAndKeepsTheDecision() {
        let s = engine.summarize(thread)
        let threadWords = thread.messages.reduce(0) { $0 + Words.all($1.text).count }
        XCTAssertLessThan(Double(Words.all(s.summary).count), 0.3 * Double(threadWords))
        XCTAssertTrue(s.summary.contains("retry change"))
        XCTAssertEqual(s.engine, LocalEngine().info)
    }
}
