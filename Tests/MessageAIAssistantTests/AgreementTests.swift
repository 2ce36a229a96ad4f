@testable import MessageAIAssistant
import XCTest

/// Issue 28: a proposal accepted by someone else is a decision (its text the proposal's content),
/// so are "Let's decide: ..." and "... Final."; the look-alikes beside each are not.
final class AgreementTests: XCTestCase {
    func testAnAcceptedProposalIsTheDecisionOfTheAcceptingMessage() {
        let proposal = ("carol", "How about we keep the old read replicas until the cutover?")
        for reply in ["That works.", "Yes", "+1", "Fine by me.", "Read replicas until the cutover then."] {
            let d = judge(reply, to: group, context: [proposal], from: "li")
            XCTAssertEqual(d.decision, "keep the old read replicas until the cutover", reply)
        }
        let images = judge("Static images are fine for launch.", to: group,
                           context: [("maya", "Can we ship static images for the template previews?")], from: "li")
        XCTAssertEqual(images.decision, "ship static images for the template previews")
        // "Can we have both? Make X the primary action ...": the sentence after the question says what.
        let both = judge("That works.", to: group, context: [("maya", "Can we have both? Make export the primary action and share the secondary one.")], from: "ken")
        XCTAssertEqual(both.decision, "Make export the primary action and share the secondary one")
    }

    func testLookAlikesOfAnAcceptanceAreNoDecision() {
        // An answer to a question for information, a reply to a commitment, a reply with a
        // "but", the proposer agreeing with themself, a choice still open ("X or Y?").
        XCTAssertNil(judge("Yes", to: group, context: [("carol", "Is staging still on the old certificate?")], from: "li").decision)
        XCTAssertNil(judge("Sounds good.", to: group, context: [("carol", "I'll send the agenda for Thursday's planning tonight.")], from: "li").decision)
        XCTAssertNil(judge("Yes, but not before the cutover.", to: group, context: [("carol", "How about we drop the read replicas?")], from: "li").decision)
        XCTAssertNil(judge("That works.", to: group, context: [("li", "How about we drop the read replicas?")], from: "li").decision)
        XCTAssertNil(judge("Yes", to: group, context: [("carol", "Should we keep the retry change or revert it?")], from: "li").decision)
        XCTAssertNil(judge("How about we keep the old read replicas until the cutover?", to: group).decision, "a proposal alone")
    }

    func testExplicitFormsAndTheirLookAlikes() {
        XCTAssertEqual(judge("Let's decide: we use the existing flag billing_v2.", to: group).decision, "we use the existing flag billing_v2")
        XCTAssertEqual(judge("Analytics export moves to next sprint. Final.", to: group).decision, "Analytics export moves to next sprint")
        XCTAssertEqual(judge("Decided: the beta stays invite-only.", to: group).decision, "the beta stays invite-only")
        XCTAssertEqual(judge("Dark mode ships in 3.2, final.", to: group).decision, "Dark mode ships in 3.2")
        XCTAssertNil(judge("Let's decide on the export format tomorrow.", to: group).decision)
        XCTAssertNil(judge("Is that final?", to: group).decision)
        XCTAssertNil(judge("The final build is on staging.", to: group).decision)
        XCTAssertNil(judge("Can we move analytics export to next sprint? Final answer by Friday please.", to: group).decision)
    }

    func testAThreadFindsAgreedAndExplicitDecisionsOnceAndAReversalReplacesTheEarlierOne() {
        let s = engine.summarize(ThreadToSummarize(participants: ["alice", "bob", "carol"], messages: [
            ChatLine(from: "carol", text: "How about we keep the old read replicas until the cutover?"),
            ChatLine(from: "bob", text: "That works."),
            ChatLine(from: "alice", text: "Agreed."),
            ChatLine(from: "carol", text: "Let's decide: we use the existing flag billing_v2."),
            ChatLine(from: "alice", text: "Analytics export moves to next sprint. Final."),
            ChatLine(from: "bob", text: "Decision: the demo is on Tuesday."),
            ChatLine(from: "carol", text: "Decision: actually the demo moves to Wednesday instead."),
        ]))
        XCTAssertEqual(s.decisions.filter { $0.contains("read replicas") }.count, 1, "\(s.decisions)")
        XCTAssertTrue(s.decisions.contains { $0.contains("billing_v2") }, "\(s.decisions)")
        XCTAssertTrue(s.decisions.contains { $0.contains("next sprint") }, "\(s.decisions)")
        XCTAssertTrue(s.decisions.contains { $0.contains("Wednesday") }, "\(s.decisions)")
        XCTAssertFalse(s.decisions.contains { $0.contains("Tuesday") }, "the reversal replaces it: \(s.decisions)")
        XCTAssertFalse(s.decisions.contains { ["That works", "Agreed", "Final"].contains($0) }, "\(s.decisions)")
    }
}
