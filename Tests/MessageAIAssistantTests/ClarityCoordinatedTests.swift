@testable import MessageAIAssistant
import XCTest

/// ASSISTANT.md's clarity rule 1: a pronoun with two candidate antecedents, here two things named
/// together just before ("the login fix and the cache change").
final class ClarityCoordinatedTests: XCTestCase {
    let pushed = [("maya", "I pushed the login fix and the cache change.")]

    func testItAfterTwoThingsNamedTogetherIsFlaggedWithBoth() {
        let j = judge("Can you merge it?", context: pushed)
        XCTAssertTrue(j.clarityFlag)
        XCTAssertTrue(j.clarity.first?.reason.contains("login fix") == true && j.clarity.first?.reason.contains("cache change") == true,
                      j.clarity.first?.reason ?? "")
    }

    func testPluralsNamingAndOwnWorkAreNotFlagged() {
        XCTAssertFalse(judge("Can you merge them?", context: pushed).clarityFlag, "'them' means both")
        XCTAssertFalse(judge("Can you merge the cache change?", context: pushed).clarityFlag, "named")
        XCTAssertFalse(judge("I'll merge it after lunch.", context: pushed).clarityFlag, "the sender's own commitment")
        XCTAssertFalse(judge("Can you merge it?", context: [("maya", "I pushed the login fix to the staging branch.")]).clarityFlag,
                       "one thing pushed, one place it went")
    }
}
