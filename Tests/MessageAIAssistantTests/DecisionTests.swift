@testable import MessageAIAssistant
import XCTest

final class DecisionTests: XCTestCase {
    func testDecisionMarkers() {
        XCTAssertEqual(judge("Decision: we'll go with Postgres for the events store.").decision, "we'll go with Postgres for the events store")
        XCTAssertEqual(judge("Agreed: option B with the comparison table.").decision, "option B with the comparison table")
        XCTAssertNotNil(judge("After the vote, we've decided: the beta stays invite-only until March.").decision)
        XCTAssertEqual(judge("Our own table it is.", context: [("li", "Feature flags: LaunchDarkly or our own table?")]).decision,
                       "Our own table it is (Feature flags: LaunchDarkly or our own table)")
    }

    /// Questions, leanings, pending choices, proposals, requests for a decision, to-do lists.
    func testHardNegatives() {
        for text in ["Should we go with Postgres?", "I'd lean toward Postgres for the events store.",
                     "I'll decide by Friday which vendor we go with.", "Proposal: drop the legacy v1 API in May.",
                     "Can we decide on the release day today?", "My to-do for tomorrow: update the SDK, write the migration guide.",
                     "Those need to be signed off this week."] {
            XCTAssertNil(judge(text).decision, text)
        }
    }
}

final class DecisionLabelTests: XCTestCase {
    func testALabelledDecisionKeepsOnlyTheChoice() {
        XCTAssertEqual(judge("Decision for the record: we keep the 15-minute paging threshold.").decision, "we keep the 15-minute paging threshold")
        XCTAssertEqual(judge("Okay, we'll go with that: search returns to the tab bar.").decision, "search returns to the tab bar")
        XCTAssertNil(judge("Do we need a decision on the venue today?").decision)
    }

    func testAReplyTakingUpAProposalIsAThreadDecision() {
        let s = engine.summarize(ThreadToSummarize(participants: ["ana", "chloe"], messages: [
            ChatLine(from: "chloe", text: "Can we move the nightly backup to 04:00 when traffic is lowest?"),
            ChatLine(from: "ana", text: "Yes, let's move the nightly backup to 04:00."),
        ]))
        XCTAssertEqual(s.decisions.count, 1)
        XCTAssertTrue(s.decisions[0].contains("04:00"))
    }
}
