@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: explicit forms and false decisions met in dev4 (the first set written by someone
/// other than a tuner that a tuner may read), each beside look-alikes. Threads made up here, none
/// from a labelled set.
final class DecisionSealTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    func testALabelAfterAFillerAndASealedStatementAreDecisions() {
        XCTAssertEqual(decisions([("ana", "ok, agreed then: app logs keep 14 days in the cluster.")]), ["app logs keep 14 days in the cluster"])
        XCTAssertEqual(decisions([("ana", "ok fine, split it is: web on monday, mobile on tuesday")]), ["web on monday, mobile on tuesday"])
        XCTAssertEqual(decisions([("bo", "Felipe wants POST, Anja PATCH."), ("ana", "ok, POST /v2/invoices/{id}/void. agreed")]), ["POST /v2/invoices/{id}/void"])
        // A yes sealed by "Agreed." says nothing decided.
        XCTAssertEqual(decisions([("bo", "We could log less in staging."), ("ana", "Good point. Agreed.")]), [])
    }

    func testASealAfterAYesSealsTheOtherMembersTerms() {
        let terms = ("bo", "ok. so: dashboard with CSV export, fixed date ranges, by dec 8")
        XCTAssertEqual(decisions([terms, ("ana", "yes, that's the deal. final.")]), ["dashboard with CSV export, fixed date ranges, by dec 8"])
        // No seal, or a seal after a question, or nothing stated before: no decision from the yes.
        XCTAssertEqual(decisions([terms, ("ana", "yes, sounds like a lot of work.")]), [])
        XCTAssertEqual(decisions([("bo", "Is staging up again?"), ("ana", "yes. final.")]), [])
    }

    func testWordsThatOnlyLookLikeAgreementDecideNothing() {
        // "runbook?" ends in "ok?" but asks no agreement; a yes to it takes the work on.
        XCTAssertEqual(decisions([("ana", "cyd can you write the cutover runbook? by dec 18?"), ("cyd", "yes, runbook by dec 18")]), [])
        // A commitment to the asked thing in other words ("get" — "have") is an action.
        XCTAssertEqual(decisions([("bo", "can we get the final mocks before the demo on thursday?"), ("ana", "yes, I'll have final mocks thursday 9am PT")]), [])
        // Deciding put off, a habit, a decision of the past recalled.
        XCTAssertEqual(decisions([("ana", "let's not decide today, I want to see the sales numbers first"), ("bo", "ok")]), [])
        XCTAssertEqual(decisions([("ana", "idea: a status page. we keep getting tickets during incidents"), ("bo", "+1")]), [])
        XCTAssertEqual(decisions([("ana", "reminder: in september we decided to sunset the v1 API by end of Q1")]), [])
        // Without the reminder, the same words are this thread's decision.
        XCTAssertEqual(decisions([("ana", "we decided to sunset the v1 API by end of Q1")]).count, 1)
    }

    func testAnOptionCarriedOutAfterAnOkIsTaken() {
        let options = ("ana", "disk at 95%. options: delete indices older than 14 days, or add 2 data nodes")
        XCTAssertEqual(decisions([options, ("bo", "adding nodes takes 30+ min to rebalance"), ("ana", "ok, deleting indices older than 14 days")]),
                       ["delete indices older than 14 days instead of add 2 data nodes"])
        let lettered = ("ana", "options: a) roll back to 3.14.2 b) hotfix the middleware. I'd lean a")
        XCTAssertEqual(decisions([lettered, ("bo", "+1 to rollback"), ("ana", "ok rolling back to 3.14.2 now")]),
                       ["roll back to 3.14.2 instead of hotfix the middleware"])
        XCTAssertEqual(Agreement.listedOptions("options: a) roll back b) hotfix c) wait"), ["roll back", "hotfix", "wait"])
    }

    func testOptionsNobodyTakesAreNoDecision() {
        let options = ("ana", "options: delete indices older than 14 days, or add 2 data nodes")
        // No "ok", an "ok" that names neither, an "ok" asked, or one as near to both options.
        XCTAssertEqual(decisions([options, ("bo", "deleting indices older than 14 days loses the audit trail")]), [])
        XCTAssertEqual(decisions([options, ("bo", "ok, let me check the cluster first")]), [])
        XCTAssertEqual(decisions([options, ("bo", "ok, delete indices older than 14 days?")]), [])
        XCTAssertEqual(decisions([("ana", "options: add 2 data nodes, or add 4 data nodes"), ("bo", "ok, data nodes it is then?")]), [])
    }
}
