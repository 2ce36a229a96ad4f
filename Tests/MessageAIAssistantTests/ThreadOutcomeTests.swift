@testable import MessageAIAssistant
import XCTest

/// Issue 28, thread outcomes as ASSISTANT.md defines them: a choice the group settles is a
/// decision, a decision is no action, the owner of an order is the one named even in the same
/// breath as the sender's own part, and an item's words are a whole phrase. Threads made up here.
final class ThreadOutcomeTests: XCTestCase {
    let people = ["ines", "tomas", "wen"]

    func summary(_ lines: [(String, String)]) -> ThreadSummary {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
    }

    func testAChoicePutToTheGroupAndSettledByTheNextAnswerIsADecision() {
        let kept = summary([("ines", "Do we still keep the old staging cluster running? It costs a lot."),
                            ("tomas", "Turn it off after the load test. Wen, can you do that on Friday?")])
        XCTAssertTrue(kept.decisions.contains { $0.contains("Turn it off after the load test") }, "\(kept.decisions)")
        let either = summary([("wen", "Do we need a design review for the icons, or can it wait for the polish sprint?"),
                              ("ines", "Design review now, I want the icons settled before the sprint.")])
        XCTAssertEqual(either.decisions, ["Design review now"], "the option, without the speaker's reason")
        let yes = summary([("tomas", "Do we need a privacy review before the export ships?"),
                           ("wen", "Yes, legal must sign off on the export before anyone outside uses it.")])
        XCTAssertTrue(yes.decisions.contains { $0.hasPrefix("legal must sign off") }, "\(yes.decisions)")
    }

    func testAnswersThatInformHedgeOrPutOffAreNoDecision() {
        for (question, answer) in [
            ("Do we need a migration for the cache table, or is it built on first read?", "It's built on first read, nothing to migrate."),
            ("Do we still keep the nightly export?", "I think we should, but let me ask finance."),
            ("Do we charge extra for the API tier or include it?", "Good question, I need to talk to sales first."),
            ("Do we keep the beta badge on the settings page?", "Customers rarely open that page anyway."),
            ("Which regions do we launch in?", "Europe and Japan first."),
            ("Can I take Friday off?", "Yes, enjoy the long weekend."),
        ] {
            XCTAssertEqual(summary([("ines", question), ("tomas", answer)]).decisions, [], "\(question) — \(answer)")
        }
    }

    func testAcceptanceAfterAFillerAndEveryMarkedDecisionOfAMessage() {
        let ok = summary([("wen", "I'd go with the blue palette for the onboarding screens."), ("ines", "Ok, that works.")])
        XCTAssertTrue(ok.decisions.contains { $0.contains("blue palette") }, "\(ok.decisions)")
        let two = summary([("ines", "Decision: the pilot stays with three customers. And we'll drop the waitlist page.")])
        XCTAssertTrue(two.decisions.contains { $0.contains("three customers") } && two.decisions.contains { $0.contains("waitlist page") }, "\(two.decisions)")
    }

    func testADecisionIsNoActionItem() {
        let s = summary([("tomas", "Sales can't pick between the two discounts."),
                         ("ines", "I'll make the call: 10% for annual plans, nothing for monthly. Final.")])
        XCTAssertEqual(s.actions, [], "\(s.actions)")
        XCTAssertTrue(s.decisions.contains { $0.contains("10% for annual plans") }, "\(s.decisions)")
    }

    func testAnOrderToANamedMemberBesideTheSendersOwnPartGivesBothItems() {
        let items = judge("Wen, write the migration guide by Tuesday and I'll review it.", to: ["wen", "tomas"], from: "ines").actions
        XCTAssertTrue(items.contains { $0.who == "wen" && $0.what.hasPrefix("write the migration guide") && $0.due == "Tuesday" }, "\(items)")
        XCTAssertTrue(items.contains { $0.who == "ines" && $0.what.hasPrefix("review") }, "\(items)")
        // Chat drops the comma after the name; the order is still theirs.
        let bare = judge("wen can you rotate the staging keys today?", to: ["wen", "tomas"], from: "ines").actions
        XCTAssertEqual(bare.map(\.who), ["wen"], "\(bare)")
        XCTAssertTrue(bare.first?.what.hasPrefix("rotate the staging keys") == true, "\(bare)")
    }

    func testTheLaterAskNamesWhatAnOfferOnlyPointedAt() {
        let s = summary([("wen", "I can draft something for the customers."),
                         ("ines", "Wen, draft the outage notice by Wednesday and I'll send it out.")])
        XCTAssertTrue(s.actions.contains { $0.who == "wen" && $0.what.contains("outage notice") }, "\(s.actions)")
        XCTAssertFalse(s.actions.contains { $0.what.contains("something") }, "\(s.actions)")
    }

    func testTheOwnersDoneClosesTheirItemAndALongObjectStaysWhole() {
        let s = summary([("ines", "Tomas, purge the stale preview builds."), ("tomas", "purging the preview builds now"),
                         ("tomas", "done, the disk is back at 40% on both runners")])
        XCTAssertEqual(s.actions, [], "\(s.actions)")
        let long = judge("Tomas, can you write a short note for the support team explaining the outage to our customers?", to: people, from: "ines").actions
        guard let what = long.first?.what else { return XCTFail("no item") }
        let last = what.split(separator: " ").last.map(String.init) ?? ""
        XCTAssertFalse(last.hasSuffix("ing") || ActionRules.dangling.contains(last), "clipped: \(what)")
        XCTAssertTrue(what.hasPrefix("write a short note for the support team"), what)
    }
}
