@testable import MessageAIAssistant
import XCTest

/// Sentence compression for the 30 % budget: hedges and padding go, a long sentence loses its
/// trailing explanation, questions lose their asking words; the words that name things stay.
final class SummaryCompressionTests: XCTestCase {
    func testHedgesGoAndTheirPunctuationStays() {
        XCTAssertEqual(Compress.dehedge("I think the export takes roughly 20 hours."), "the export takes roughly 20 hours.",
                       "a qualifier of a figure is part of what was said")
        XCTAssertEqual(Compress.dehedge("Okta and Azure AD, I guess?"), "Okta and Azure AD?")
        XCTAssertEqual(Compress.dehedge("Probably the timezone conversion, I guess."), "the timezone conversion.", "a hedge at the end leaves its full stop")
        XCTAssertEqual(Compress.dehedge("Maybe."), "Maybe.", "too short to cut")
    }

    func testALongSentenceLosesItsTrailingClause() {
        XCTAssertEqual(Compress.clause("The parser loads the whole CSV file into memory on every import, which is why big files time out."),
                       "The parser loads the whole CSV file into memory on every import.")
        XCTAssertEqual(Compress.clause("Rollback done, pods are stable."), "Rollback done, pods are stable.", "short sentences stay whole")
        XCTAssertEqual(Compress.clause("Fine, because the rest of the team agreed with the plan in the end and nobody objected."),
                       "Fine, because the rest of the team agreed with the plan in the end and nobody objected.",
                       "nothing left to name before the clause: kept whole")
    }

    func testQuestionsAndDecisionsLoseTheirFrame() {
        XCTAssertEqual(Compress.question("Are we translating the new copy before the test?"), "Translating the new copy before the test?")
        XCTAssertEqual(Compress.question("What about the GraphQL endpoint?"), "The GraphQL endpoint?")
        XCTAssertEqual(Compress.decision("We run a two-week A/B test starting on the 10th"), "Run a two-week A/B test starting on the 10th")
    }

    /// The answer to someone's question is what was settled: it goes in before small talk.
    func testTheAnswerToAQuestionIsKept() {
        var lines = [ChatLine(from: "li", text: "Which identity providers do we test against for the SSO launch?"),
                     ChatLine(from: "omar", text: "Okta, Azure AD and Google Workspace, the three deals use those.")]
        for k in 0..<12 { lines.append(ChatLine(from: k % 2 == 0 ? "maya" : "li", text: "Lunch plans are open today, maybe the noodle place again or the new cafe \(k).")) }
        let s = engine.summarize(ThreadToSummarize(participants: ["li", "omar", "maya"], messages: lines))
        XCTAssertTrue(s.summary.contains("Okta, Azure AD and Google Workspace"), s.summary)
    }

    /// Work that names nothing ("comment") does not push out a point that does.
    func testOpenWorkWithoutAnObjectIsNotRequired() {
        let thread = ThreadToSummarize(participants: ["maya", "priya"], messages: [
            ChatLine(from: "priya", text: "The job description draft for the senior iOS role is in the hiring folder, please comment."),
            ChatLine(from: "maya", text: "Read it, looks good. I'll post it on LinkedIn and the careers page today."),
            ChatLine(from: "priya", text: "Great. The salary range for the EU and the US goes in as two separate ranges, finance signed off on both."),
            ChatLine(from: "maya", text: "Good, the recruiter screens start next Monday and the first onsite loops are booked for the week after."),
        ])
        let s = engine.summarize(thread)
        XCTAssertFalse(s.summary.contains(": comment"), s.summary)
        XCTAssertTrue(s.summary.contains("LinkedIn"), s.summary)
    }
}
