@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: two ways a proposal is put up and accepted (ASSISTANT.md: "outcomes agreed in
/// the thread") that carry none of the usual markers: an offer in a negotiation closed by "Deal",
/// and a plan put to the group ("So the plan: ...") that another member says yes to; each beside
/// look-alikes that must not count. Threads made up here, none from a labelled set.
final class AgreementDealTests: XCTestCase {
    let people = ["dan", "eve", "fay"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    let offer = ("dan", "I can do 40k if onboarding is included.")

    func testDealAcceptsTheOfferBeforeIt() {
        XCTAssertEqual(decisions([offer, ("eve", "Deal.")]), ["I can do 40k if onboarding is included"])
        XCTAssertEqual(decisions([offer, ("eve", "It’s a deal 🤝")]), ["I can do 40k if onboarding is included"])
        // Terms said again with the yes are the decision, in the accepter's words.
        XCTAssertEqual(decisions([offer, ("eve", "Deal, 40k with onboarding included.")]), ["40k with onboarding included"])
        // The message alone records it too (the server judges each message with its context).
        XCTAssertEqual(judge("Deal.", to: ["dan"], context: [offer], from: "eve").decision, "I can do 40k if onboarding is included")
    }

    func testDealThatIsNoYesAcceptsNothing() {
        XCTAssertEqual(decisions([offer, ("eve", "Deal with it yourself, I'm not paying that.")]), [])
        XCTAssertEqual(decisions([offer, ("eve", "Deal, but not before March.")]), [])
        XCTAssertEqual(decisions([offer, ("eve", "Deal?")]), [])
        XCTAssertEqual(decisions([("dan", "Is the invoice ready?"), ("eve", "What's the deal with the invoice?")]), [])
        // The offerer's own "Deal?" is an ask, and nobody answered it.
        XCTAssertEqual(decisions([("dan", "I can do 40k if onboarding is included. Deal?"), ("dan", "Let me know by Friday.")]), [])
        // Further back than the message before, an offer is not what "Deal" answers.
        XCTAssertEqual(decisions([offer, ("fay", "Is onboarding two sessions or three?"), ("eve", "Deal.")]), [])
    }

    func testAPlanPutToTheGroupAndAcceptedIsADecision() {
        let plan = ("dan", "So the plan: we migrate the read replicas first, then the primary on Saturday.")
        XCTAssertEqual(decisions([plan, ("eve", "👍"), ("fay", "sounds good")]),
                       ["we migrate the read replicas first, then the primary on Saturday"])
        // Nobody says yes, or the reply objects: no decision.
        XCTAssertEqual(decisions([plan, ("eve", "Not sure, Saturday is the sale.")]), [])
        XCTAssertEqual(decisions([plan]), [])
        // A sender's own plan is their commitments, not a decision, even with an "ok" after it.
        XCTAssertEqual(decisions([("dan", "My plan: finish the pricing deck tonight and send it to Fay."), ("eve", "ok")]), [])
    }
}
