@testable import MessageAIAssistant
import XCTest

/// Issue 28: work a person would accept. Status lines and decisions are no work, a phrase is never
/// cut in the middle of its object, the same work asked twice is one item, and an ask nobody took
/// is an open question.
final class ThreadWorkTests: XCTestCase {
    func testStatusLinesAreNoWorkButTheirLookAlikesAre() {
        for (text, context) in [("sure, give me 5 minutes", [("alice", "Bob, please write the migration runbook by Thursday.")]),
                                ("Give me a sec.", []), ("clear", [("alice", "Is the pipeline blocked?")])] {
            let j = judge(text, to: group, context: context, from: "bob")
            XCTAssertFalse(j.actions.contains { $0.what.contains("minute") || $0.what.contains("sec") || $0.what == "clear" }, "\(text): \(j.actions)")
        }
        XCTAssertEqual(judge("Ken, please give me the 5 minute summary by noon.", to: group).actions.map(\.who), ["ken"])
        XCTAssertEqual(judge("Please clear the CDN cache.", to: ["maya"]).actions.map(\.what), ["clear the CDN cache"])
    }

    func testADecisionForTheGroupIsNoActionButAnAssignmentInItIs() {
        XCTAssertEqual(judge("Let's decide: we use the existing flag billing_v2 for the rollout.", to: group).actions, [])
        XCTAssertEqual(judge("Decision: we ship on Thursday. Li, please tag the release branch.", to: group).actions.map(\.who), ["li"])
    }

    func testAPhraseNeverEndsInTheMiddleOfItsObject() {
        for text in ["Maya, could you share the final specs with the secondary button and the copy check by Friday?",
                     "Please update the onboarding checklist for the new hires in the Berlin office and the Lisbon office by Monday.",
                     "Ken, can you send the invoice to the"] {
            for a in judge(text, to: group).actions {
                let last = a.what.split(separator: " ").last.map { $0.lowercased() } ?? ""
                XCTAssertFalse(ActionRules.dangling.contains(last), "\(text) → \(a.what)")
            }
        }
    }

    let thread = ThreadToSummarize(participants: ["alice", "bob", "carol"], messages: [
        ChatLine(from: "alice", text: "Carol, can you ping finance about the missing receipts?"),
        ChatLine(from: "carol", text: "Yes, I'll ping finance tomorrow morning."),
        ChatLine(from: "bob", text: "Is the load test plan ready?"),
        ChatLine(from: "alice", text: "Yes, it is in the infra folder."),
        ChatLine(from: "bob", text: "The dashboards look fine today."),
        ChatLine(from: "alice", text: "Carol, please ping finance about the missing receipts."),
        ChatLine(from: "alice", text: "Can someone fix the flaky checkout test before the demo?"),
        ChatLine(from: "bob", text: "clear"),
        ChatLine(from: "carol", text: "Can someone book the demo room?"),
        ChatLine(from: "bob", text: "I'll book the demo room."),
    ])

    func testTheSameWorkAskedTwiceIsOneItem() {
        let s = engine.summarize(thread)
        XCTAssertEqual(s.actions.filter { $0.what.contains("finance") }.count, 1, "\(s.actions)")
        XCTAssertTrue(s.actions.contains { $0.who == "bob" && $0.what.contains("demo room") }, "\(s.actions)")
    }

    func testAnOwnersAnswerNamingAPlaceDoesNotCloseTheirWorkButTheirDoneDoes() {
        func open(_ last: String) -> [ActionItem] {
            engine.summarize(ThreadToSummarize(participants: ["alice", "bob"], messages: [
                ChatLine(from: "bob", text: "Alice, could you request staging access from infra?"),
                ChatLine(from: "alice", text: "Sure, I'll ask infra for staging access today."),
                ChatLine(from: "bob", text: "Is the load test plan ready?"),
                ChatLine(from: "alice", text: last),
            ])).actions
        }
        XCTAssertEqual(open("Yes, it is in the infra folder.").map(\.who), ["alice"])
        XCTAssertEqual(open("Yes. Staging access done, by the way.").map(\.who), [])
    }

    func testAnAskNobodyTookIsOpenAndOneSomeoneTookIsNot() {
        let s = engine.summarize(thread)
        XCTAssertTrue(s.openQuestions.contains { $0.contains("flaky checkout test") }, "\(s.openQuestions)")
        XCTAssertFalse(s.openQuestions.contains { $0.contains("demo room") }, "\(s.openQuestions)")
        XCTAssertFalse(s.openQuestions.contains { $0.contains("load test plan") }, "answered: \(s.openQuestions)")
    }
}

/// The done check's set of past forms answers exactly as `Verbs.isPast` does.
final class PastFormsTests: XCTestCase {
    func testPastFormsAgreeWithIsPast() {
        let verbs = ["tag", "post", "copy", "send", "fix", "stop", "write", "ping", "plan", "rotate", "run", "book", "try", "a", "update", "go"]
        let words = ["tagged", "taged", "posted", "copied", "copyed", "sent", "sended", "fixed", "stopped", "stoped", "wrote", "written",
                     "pinged", "planned", "rotated", "ran", "run", "booked", "tried", "ad", "aed", "updated", "went", "gone", "done", "ready", "tag"]
        for v in verbs {
            for w in words { XCTAssertEqual(Verbs.pastForms(of: v).contains(w), Verbs.isPast(w, of: v), "\(v) / \(w)") }
        }
    }
}
