@testable import MessageAIAssistant
import XCTest

final class DueDateTests: XCTestCase {
    func due(_ s: String) -> String? { ActionRules.dueText(Tokenizer.tokens(s), from: 0, to: Tokenizer.tokens(s).count)?.text }

    func testDueDatesAsWrittenWithoutLeadingBy() {
        XCTAssertEqual(due("please send it by Friday EOD"), "Friday EOD")
        XCTAssertEqual(due("re-run them tomorrow 09:00 UTC"), "tomorrow 09:00 UTC")
        XCTAssertEqual(due("renew it before it expires on the 28th"), "the 28th")
        XCTAssertEqual(due("review the deck after standup"), "after standup")
        XCTAssertEqual(due("post the notes by 5pm"), "5pm")
        XCTAssertEqual(due("ship it by end of week"), "end of week")
        XCTAssertEqual(due("book it for next Tuesday"), "next Tuesday")
    }

    func testVagueTimesAndDestinationsAreNotDueDates() {
        XCTAssertNil(due("look at it soon"))
        XCTAssertNil(due("move it to next sprint"))
        XCTAssertNil(due("bump Node to 20"))
        XCTAssertNil(due("run 3 tests"))
    }
}
