@testable import MessageAIAssistant
import XCTest

/// Issue 28: more of the ways a team settles something (ASSISTANT.md's "a decision that has been
/// made", and "outcomes agreed in the thread"), each beside a look-alike that must not count: a
/// vote's result and a vote still open, a plan approved by its owner and one only discussed, an
/// "Any objections?" answered and one left hanging, a reversal of a decision and a decision of
/// last year quoted. Threads made up here, none from a labelled set.
final class DecisionFormsTests: XCTestCase {
    let people = ["ana", "bo", "cyd", "dee"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    func testAVotesResultIsADecisionAndAnOpenVoteIsNot() {
        let won = decisions([("ana", "Vote on the CI provider: reply G for GitHub Actions or B for Buildkite."), ("bo", "G"), ("cyd", "B"),
                             ("dee", "G"), ("ana", "GitHub Actions wins 2 to 1. GitHub Actions for every repo from May.")])
        XCTAssertTrue(won.contains { $0.contains("GitHub Actions wins") && $0.contains("every repo") }, "\(won)")
        let open = decisions([("ana", "Vote on the CI provider: reply G for GitHub Actions or B for Buildkite."), ("bo", "G"),
                              ("cyd", "Who wins if it is a tie?")])
        XCTAssertEqual(open, [], "a vote with no result yet")
        // "wins" without a count, a vote or a poll is no result ("the customer wins").
        XCTAssertEqual(judge("With the new refund flow the customer wins twice.").decision, nil)
    }

    func testAPlanApprovedByItsOwnerAfterSomeDiscussionIsADecision() {
        let approved = decisions([("ana", "Proposed fix: move the cron job to 03:00 and add a lock file."),
                                  ("bo", "The lock file alone would do."), ("cyd", "I'd still move it, 02:00 collides with the backup."),
                                  ("dee", "As the platform owner: plan approved, both changes go in.")])
        XCTAssertTrue(approved.contains { $0.hasPrefix("move the cron job to 03:00") }, "\(approved)")
        let discussed = decisions([("ana", "Proposed fix: move the cron job to 03:00 and add a lock file."),
                                   ("bo", "The lock file alone would do."), ("cyd", "Not sure the lock file is enough.")])
        XCTAssertEqual(discussed, [], "a plan nobody approved")
    }

    func testAStatementPutToObjectionsAndAnsweredWithNoneIsADecision() {
        let agreed = decisions([("ana", "Given the numbers, the beta stays closed until March. Any objections?"),
                                ("bo", "No objection, I'll tell the waitlist."), ("cyd", "None from me.")])
        XCTAssertTrue(agreed.contains { $0.contains("beta stays closed until March") }, "\(agreed)")
        let hanging = decisions([("ana", "Given the numbers, the beta stays closed until March. Any objections?"),
                                 ("bo", "One: the partners were promised access in February.")])
        XCTAssertEqual(hanging, [], "an objection raised")
    }

    func testAReversalReplacesTheDecisionItReverses() {
        let reversed = decisions([("ana", "Decision: the release notes go out as a PDF."), ("bo", "Sounds good."),
                                  ("cyd", "Actually we'll publish the notes as a web page instead, the PDF breaks on phones.")])
        XCTAssertTrue(reversed.contains { $0.contains("web page") }, "\(reversed)")
        XCTAssertFalse(reversed.contains { $0.contains("PDF") && !$0.contains("web page") }, "the earlier decision is replaced: \(reversed)")
        // A bare "actually we'll ..." with nothing before it to reverse is a detail of a plan.
        XCTAssertEqual(decisions([("ana", "Actually we'll need the staging logs from yesterday, can you pull them?")]), [])
    }

    func testADecisionOfThePastQuotedAsBackgroundIsNotThisThreadsOutcome() {
        XCTAssertEqual(judge("Last year we decided to avoid Kafka because of the ops load. Is that still true?").decision, nil)
        XCTAssertEqual(judge("SSO was on the old roadmap, we agreed to ship it back then.").decision, nil)
        XCTAssertNotNil(judge("We agreed to ship SSO in Q2.").decision, "the same marker today")
    }

    func testAShortYesAcceptsAProposalButNotAQuestionForInformation() {
        XCTAssertTrue(decisions([("ana", "How about we cap uploads at 25 MB?"), ("bo", "Ok.")]).contains { $0.contains("cap uploads at 25 MB") })
        XCTAssertEqual(decisions([("ana", "Is the upload limit still 10 MB?"), ("bo", "Ok.")]), [])
        XCTAssertEqual(decisions([("ana", "How about we cap uploads at 25 MB?"), ("bo", "Ok, but not before the billing change.")]), [])
    }

    func testAYesThatCarriesOutTheChoiceAndAChoiceSettledWithThen() {
        let yes = decisions([("ana", "Should we also page on-call when the breaker opens?"), ("bo", "Yes, page on-call whenever it stays open for a minute.")])
        XCTAssertEqual(yes.filter { $0.contains("page on-call") }.count, 1, "one decision, said once: \(yes)")
        // An answer that puts it off, or a yes to a question about a fact, settles nothing.
        XCTAssertEqual(decisions([("ana", "Should we also page on-call when the breaker opens?"), ("bo", "Good question, let me check the runbook.")]), [])
        XCTAssertEqual(decisions([("ana", "Did we page on-call last night?"), ("bo", "Yes, page went out at 02:10.")]), [])
        let then = decisions([("ana", "Do we demo on Monday or on Tuesday?"), ("bo", "Tuesday has the board meeting in the morning."),
                              ("ana", "Ok, Monday afternoon then.")])
        XCTAssertTrue(then.contains { $0.contains("Monday afternoon") && !$0.hasSuffix("then") }, "\(then)")
        XCTAssertEqual(decisions([("ana", "Do we demo on Monday or on Tuesday?"), ("bo", "Tuesday has the board meeting."),
                                  ("cyd", "See you all then.")]), [], "a goodbye that ends in then")
    }

    func testARecommendationAcceptedAndAYesFollowedByAnotherQuestion() {
        let rec = decisions([("ana", "My suggestion: freeze merges on Thursday at noon."), ("bo", "Works for me.")])
        XCTAssertTrue(rec.contains { $0.hasPrefix("freeze merges on Thursday") }, "\(rec)")
        let asked = decisions([("ana", "Are we ok with dropping the IE banner in March?"), ("bo", "Sounds good. Who tells support?")])
        XCTAssertTrue(asked.contains { $0.contains("IE banner") }, "\(asked)")
        // A question back before any yes, or a recommendation nobody takes up, settles nothing.
        XCTAssertEqual(decisions([("ana", "My suggestion: freeze merges on Thursday at noon."), ("bo", "Why Thursday? Who asked for it?")]), [])
        XCTAssertEqual(decisions([("ana", "I recommend we freeze merges on Thursday."), ("bo", "The release branch is cut on Friday.")]), [])
    }
}
