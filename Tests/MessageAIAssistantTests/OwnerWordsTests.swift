@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: whole phrases for work taken on across turns. An ask that only hands work over
/// ("Can someone take the flaky test?") answered with the work named ("Sure, I'll fix the flaky
/// checkout test today") is the taker's words; "I'll take it" after a phrasal ask ("look at ...")
/// takes the thing, not the particle. Look-alikes keep the ask's words. Threads made up here.
final class OwnerWordsTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func actions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
            .actions.map { "\($0.who): \($0.what)" + ($0.due.map { " (\($0))" } ?? "") }
    }

    func testTheTakerNamesWorkTheAskOnlyHandedOver() {
        XCTAssertEqual(actions([("ana", "Can someone take the flaky test?"), ("ben", "Sure, I'll fix the flaky checkout test today.")]),
                       ["ben: fix the flaky checkout test (today)"])
        XCTAssertEqual(actions([("ana", "Could someone handle the vendor invoices?"), ("cy", "Yes, I'll pay the vendor invoices on Friday.")]),
                       ["cy: pay the vendor invoices (Friday)"])
        // "do" with its object names the work too ("tiago can you take it?" — "yep, I'll do the settings page strings").
        XCTAssertEqual(actions([("ana", "I'm out thu-fri. cy can you take the settings page strings?"), ("cy", "yep, I'll do the settings page strings by friday")]),
                       ["cy: do the settings page strings (friday)"])
    }

    func testAnAskThatNamesTheWorkKeepsItsWords() {
        // The ask's verb says the work: the reply's other verb is how, not what.
        XCTAssertEqual(actions([("ana", "Can someone review the PR for the export job?"), ("ben", "Sure, I'll check the PR tonight.")]),
                       ["ben: review the PR for the export job (tonight)"])
        XCTAssertEqual(actions([("ana", "Ben, can you fix the flaky test?"), ("ben", "Sure, I'll fix it today.")]), ["ben: fix the flaky test (today)"])
        // The generic reply keeps the ask's own words.
        XCTAssertEqual(actions([("ana", "Can someone take the Friday on-call shift?"), ("ben", "Yes, I'll take it.")]), ["ben: take the Friday on-call shift"])
    }

    func testAWhoQuestionTakenOnIsTheWorkItNames() {
        XCTAssertEqual(actions([("ana", "who's writing the template for the async doc?"), ("cy", "I'll do it, template by friday 12:00 CET")]),
                       ["cy: write the template for the async doc (friday 12:00 CET)"])
        XCTAssertEqual(ActionRules.whoAsks("Great. Who will update the runbook?"), "update the runbook")
        // Who did something, or who is someone, puts no work up.
        XCTAssertNil(ActionRules.whoAsks("who's on call tonight?"))
        XCTAssertNil(ActionRules.whoAsks("who wrote the template?"))
        XCTAssertEqual(actions([("ana", "who's on call tonight?"), ("cy", "I'll do it")]), [])
    }

    func testTakingAPhrasalAskTakesTheThingNotTheParticle() {
        let taken = judge("I'll take it.", to: ["ana", "cy"], context: [("ana", "Can someone look at the flaky checkout test?")], from: "ben").actions
        XCTAssertEqual(taken.map(\.what), ["take the flaky checkout test"])
        let followUp = judge("Sure, I'll take it.", to: ["ana", "cy"], context: [("ana", "Can someone follow up on the refund ticket?")], from: "ben").actions
        XCTAssertEqual(followUp.map(\.what), ["take the refund ticket"])
        // A reply that names its own verb keeps its own words.
        let own = judge("On it.", to: ["ana", "cy"], context: [("ana", "Can someone look into the 502s on staging?")], from: "ben").actions
        XCTAssertEqual(own.map(\.what), ["look into the 502s on staging"])
    }
}
