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

/// ASSISTANT.md's key points within 30 % of the words: done work, changes of plan, open items,
/// open questions; and no point told twice.
final class SummaryCoverageTests: XCTestCase {
    let thread = ThreadToSummarize(participants: ["rosa", "dev", "kim"], messages: [
        ChatLine(from: "rosa", text: "Morning all. The spring catalogue print run is booked with Holt Press for the 22nd."),
        ChatLine(from: "dev", text: "Nice. Are the product photos final?"),
        ChatLine(from: "rosa", text: "Almost. The ceramics shots still need retouching, the rest are approved."),
        ChatLine(from: "kim", text: "Honestly I think I could maybe look at the ceramics shots at some point today if nobody else wants to."),
        ChatLine(from: "rosa", text: "Thanks Kim. Dev, could you send the final price list to Holt by Thursday?"),
        ChatLine(from: "dev", text: "Yes, I'll send it Thursday morning after the pricing call."),
        ChatLine(from: "rosa", text: "We're dropping the outdoor section this season because the supplier pulled out. It moves to the autumn catalogue."),
        ChatLine(from: "dev", text: "Makes sense. That frees four pages, which is nice, we were tight on space anyway this time around."),
        ChatLine(from: "kim", text: "Who is writing the intro copy? Last year it was Maria but she has left the company."),
        ChatLine(from: "dev", text: "No idea, I'd rather not, I'm swamped with the pricing work for the next couple of weeks."),
    ])

    func testKeepsTheKeyPointsWithinThirtyPercent() {
        let s = engine.summarize(thread)
        let words = thread.messages.reduce(0) { $0 + Words.all($1.text).count }
        XCTAssertLessThan(Double(Words.all(s.summary).count), 0.3 * Double(words))
        let text = s.summary.lowercased()
        XCTAssertTrue(text.contains("holt press") && text.contains("22nd"), s.summary)
        XCTAssertTrue(text.contains("price list") && text.contains("thursday morning"), "the commitment's more precise time: \(s.summary)")
        XCTAssertTrue(text.contains("outdoor section"), s.summary)
        XCTAssertTrue(text.contains("intro copy"), s.summary)
    }

    func testHeadlineCompressionKeepsTheWordsThatName() {
        XCTAssertEqual(Compress.tight("The login fix is merged and the ticket is closed."), "Login fix merged and ticket closed.")
        XCTAssertEqual(Compress.tight("What is left for the release?"), "What is left for release?", "a question keeps its verb")
        XCTAssertEqual(Compress.question("Do we know why the replica lag spiked?"), "Why the replica lag spiked?")
    }
}
