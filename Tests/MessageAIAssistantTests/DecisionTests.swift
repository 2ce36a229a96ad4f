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
