@testable import MessageAIClient
import MessageAIProtocol
import XCTest

/// `/summary` shows work marked done as done (issue 28): the same owner and the same work,
/// never another owner's item or other work of the same owner.
final class SummaryDoneMarksTests: XCTestCase {
    func item(_ id: UInt64, _ text: String, who: String, done: Bool) -> AssistItem {
        AssistItem(itemID: id, conversationID: 1, seq: id, kind: .action, text: text, who: who, from: "alice", done: done,
                   doneBy: done ? who : "", doneAt: done ? 5 : 0, rev: id, engine: "local", engineVersion: "0.5.0")
    }

    func testOnlyTheSameOwnersSameWorkIsMarked() {
        let marks = SummaryDoneMarks(done: [item(1, "write the migration runbook", who: "bob", done: true),
                                            item(2, "ping finance about the receipts", who: "carol", done: false)])
        let work: [(what: String, who: String, due: String?)] = [("write the runbook", "bob", "Thursday"), ("write the release notes", "bob", nil),
                                                                 ("write the migration runbook", "carol", nil), ("ping finance", "carol", nil)]
        let rows = marks.rows(work)
        XCTAssertEqual(rows.map { $0["done"] as? Bool }, [true, false, false, false])
        XCTAssertEqual(rows[0]["done_by"] as? String, "bob")
        let text = marks.text("- bob: write runbook (Thursday)\n- bob: write release notes\n- carol: ping finance", work)
        XCTAssertEqual(text, "- bob: write runbook (Thursday) [done]\n- bob: write release notes\n- carol: ping finance")
    }
}
