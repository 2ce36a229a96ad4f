@testable import MessageAIAssistant
import XCTest

/// Asks and commitments with verbs that are not on the engine's list, read by where they stand;
/// and statements with the same shape that are not orders.
final class OpenVerbTests: XCTestCase {
    func whats(_ j: Judgement) -> [String] { j.actions.map(\.what) }

    func testAVerbOffTheListOpensAnOrder() {
        XCTAssertEqual(whats(judge("Sanitize the user input in the signup form.")), ["sanitize the user input in the signup form"])
        let j = judge("Refresh the staging data, then notarize the macOS build.")
        XCTAssertEqual(whats(j), ["refresh the staging data", "notarize the macOS build"], "two verbs are two items")
        XCTAssertEqual(whats(judge("Could you ping Ken and reconcile the invoices by Monday?")), ["ping Ken", "reconcile the invoices"])
        XCTAssertEqual(judge("Could you ping Ken and reconcile the invoices by Monday?").actions.map(\.due), ["Monday", "Monday"])
    }

    func testGerundsAndThirdPersonBackToTheBaseForm() {
        XCTAssertEqual(whats(judge("Would you mind reconciling the Q3 numbers?")), ["reconcile the Q3 numbers"])
        let j = judge("Li reconciles the invoices by Friday.", to: group)
        XCTAssertEqual(j.actions, [ActionItem(what: "reconcile the invoices", who: "li", due: "Friday")])
        XCTAssertEqual(Verbs.guessBase(gerund: "sanitizing"), "sanitize")
        XCTAssertEqual(Verbs.guessBase(gerund: "planning"), "plan")
        XCTAssertEqual(Verbs.guessBase(gerund: "visiting"), "visit")
        XCTAssertEqual(Verbs.guessBase(gerund: "enabling"), "enable")
    }

    func testCommitmentWithoutTheSubject() {
        XCTAssertEqual(judge("Going to refactor the auth middleware this afternoon.").actions,
                       [ActionItem(what: "refactor the auth middleware", who: "omar", due: "this afternoon")])
    }

    /// ASSISTANT.md's owners: work for everyone is `recipient`, meaning the group. A decision
    /// ("we'll go with") or a plan to talk is not work; a direct message has no role for "we".
    func testWeWillInAGroupIsTheGroupsWork() {
        XCTAssertEqual(judge("We'll update the runbook tomorrow.", to: group).actions,
                       [ActionItem(what: "update the runbook", who: "recipient", due: "tomorrow")])
        XCTAssertFalse(judge("We'll update the runbook tomorrow.", to: group).clarityFlag, "a commitment, not an ask without owner")
        for text in ["We'll go with Postgres.", "We'll use Redis for the queue.", "We'll see the numbers tomorrow.", "We'll discuss it at standup.",
                     "If it breaks we'll roll back the deploy.", "We will be out Friday."] {
            XCTAssertEqual(judge(text, to: group).actions, [], text)
        }
        XCTAssertEqual(judge("We'll update the runbook tomorrow.").actions, [], "no role for 'we' in a direct message")
    }

    /// Statements and questions shaped like an order.
    func testStatementsAreNotOrders() {
        for text in ["Lunch the usual place?", "Weird the test passes locally.", "Shame the demo broke.", "Glad the release went out.",
                     "Half the tests are flaky.", "Heads up the API is down.", "Per the doc, the limit is 10 MB.", "Shipped the fix to staging.",
                     "Sadly the vendor pulled out.", "Figure it out yourself.", "Li says the build is fine by Friday."] {
            XCTAssertEqual(judge(text, to: group).actions, [], text)
        }
    }
}
