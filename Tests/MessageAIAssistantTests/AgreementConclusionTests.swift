@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.4: a "let's" that takes up what another member just said ("The 14th would be safer
/// for QA." — "Fine, let's do the 14th.") or draws the discussion's conclusion ("Let's ship Friday
/// then.") settles it, beside look-alikes that settle nothing. Threads made up here.
final class AgreementConclusionTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    func testALetsThatTakesUpAnotherMembersOptionSettlesIt() {
        XCTAssertEqual(decisions([("ana", "The 14th would be safer for QA."), ("ben", "Fine, let's do the 14th.")]), ["do the 14th"])
        // Nothing of what the other member said: the "let's" is a new proposal, and nobody accepted it yet.
        XCTAssertEqual(decisions([("ana", "The release notes are up."), ("ben", "Ok, let's do the retro on Thursday.")]), [])
        // The member's own earlier words are no one else's option.
        XCTAssertEqual(decisions([("ben", "The 14th would be safer for QA."), ("ben", "Fine, let's do the 14th.")]), [])
    }

    func testALetsThenAfterADiscussionConcludesIt() {
        let thread = [("ana", "We could ship Friday or wait for the translations."), ("ben", "Translations are two weeks out."),
                      ("ana", "Let's ship Friday then.")]
        XCTAssertEqual(decisions(thread), ["ship Friday"])
        XCTAssertEqual(decisions([("ben", "Rollback is risky with the new schema."), ("ana", "OK, let's keep the old flow then!")]), ["keep the old flow"])
    }

    func testALetsThenThatConcludesNothingIsNoDecision() {
        // Nothing but the verb, a question, a hedge, or nobody else in the discussion.
        XCTAssertEqual(decisions([("ben", "I'm free after 3."), ("ana", "Let's talk then.")]), [])
        XCTAssertEqual(decisions([("ben", "Translations are two weeks out."), ("ana", "Let's ship Friday then?")]), [])
        XCTAssertEqual(decisions([("ben", "Translations are two weeks out."), ("ana", "Let's maybe ship Friday then.")]), [])
        XCTAssertEqual(decisions([("ana", "Translations are two weeks out."), ("ana", "Let's ship Friday then.")]), [])
    }
}
