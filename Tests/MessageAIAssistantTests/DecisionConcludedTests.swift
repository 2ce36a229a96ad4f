@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.8: conclusions said in a few words once the others have spoken ("17:00 CET then",
/// the proposer's "ok, max limit 200, default 50" after "200 is fine"), "X it is" with an emoji or a
/// sigh around it, a plan put up in statements and an "ok?" to named members, a question's own
/// proposal kept when the sentence after it only gives a reason, and questions typed without their
/// mark; each beside look-alikes that must not count. Threads made up here, none from a labelled set.
final class DecisionConcludedTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func summary(_ lines: [(String, String)]) -> ThreadSummary { summarized(lines, people: people) }

    func decisions(_ lines: [(String, String)]) -> [String] { summary(lines).decisions }

    func testAnOptionRepeatedWithThenIsTheChoiceWithTheQuestionItAnswers() {
        let thread = [("ana", "retro on thursday at 10:00 CET?"), ("bo", "10:00 CET is 1am in SF for me. can we do 17:00 CET?"),
                      ("ana", "17:00 CET then"), ("cyd", "17:00 works")]
        XCTAssertEqual(decisions(thread), ["17:00 CET (retro on thursday at 10:00 CET)"])
        // The options put up as a question: a later reversal of either one replaces the choice.
        let reversed = [("ana", "which icon set for the empty states, outline or the filled ones?"), ("bo", "outline, the filled ones look heavy"),
                        ("cyd", "outline then."), ("bo", "scratch that: the filled ones are already licensed, so we use the filled ones.")]
        XCTAssertEqual(decisions(reversed), ["scratch that: the filled ones are already licensed, so we use the filled ones"])
    }

    func testThenThatChoosesNothingIsNoDecision() {
        // A farewell, a clause, an option nobody else named, and a conclusion with nothing before it.
        XCTAssertEqual(decisions([("ana", "standup moved to 11?"), ("bo", "yes"), ("ana", "see you then")]), [])
        XCTAssertEqual(decisions([("ana", "the export is slow"), ("bo", "profile it tomorrow"), ("ana", "ok no promises until then")]), [])
        XCTAssertEqual(decisions([("ana", "the export is slow"), ("bo", "no idea why"), ("ana", "redis then")]), [])
        XCTAssertNil(DecisionRules.concluded("monday then", MessageToJudge(from: "ana", to: ["bo"], text: "monday then", context: [])))
    }

    func testTheProposersTermsApprovedJustBeforeAreSettled() {
        let thread = [("cyd", "the page limit max is 1000, responses get to 4MB"), ("bo", "mobile wants 100"), ("ana", "200?"),
                      ("cyd", "200 works for me"), ("bo", "200 is fine"), ("ana", "ok, max limit 200, default 50")]
        XCTAssertEqual(decisions(thread), ["max limit 200, default 50"])
        // Not the speaker's own work, not terms the speaker never put up, not after a "but".
        XCTAssertEqual(decisions([("ana", "200?"), ("bo", "200 is fine"), ("ana", "ok, I'll set the limit to 200")]), [])
        XCTAssertEqual(decisions([("bo", "the 200 ms budget is fine"), ("ana", "ok, budget review moves to friday")]), [])
        XCTAssertEqual(decisions([("ana", "200?"), ("bo", "200 is fine but not for exports"), ("ana", "ok, max limit 200, default 50")]), [])
    }

    func testItIsWithAnEmojiOrASighIsStillAChoice() {
        let thread = [("ana", "naming: next_cursor or next_page_token?"), ("bo", "v1 uses next_page_token"),
                      ("ana", "sigh, fine, next_page_token it is 😅")]
        XCTAssertEqual(decisions(thread).first?.hasPrefix("next_page_token it is"), true)
        // Something found is nothing chosen.
        XCTAssertEqual(decisions([("ana", "when were the beans roasted?"), ("bo", "march"), ("ana", "there it is 😂")]), [])
    }

    func testAPlanInStatementsPutToNamedMembersIsTheProposalNotTheNames() {
        let thread = [("ana", "read-only offline fits in the quarter"),
                      ("ana", "ok — Q3 plan: slim onboarding first, then offline read-only. Full offline sync moves to Q4. bo, cyd, ok?"),
                      ("bo", "yes 💯"), ("cyd", "👍 ok from eng")]
        XCTAssertEqual(decisions(thread), ["Q3 plan: slim onboarding first, then offline read-only. Full offline sync moves to Q4"])
    }

    func testAQuestionsOwnProposalIsKeptWhenTheNextSentenceIsAReason() {
        let thread = [("ana", "separately — should we add alerting for webhook lag over 10 min across all tenants? we only found out from the customer"),
                      ("bo", "+1")]
        XCTAssertEqual(decisions(thread), ["add alerting for webhook lag over 10 min across all tenants"])
        // "Can we have both? Make export the primary action": a thin question, the next sentence says what.
        XCTAssertEqual(decisions([("ana", "Can we have both? Make export the primary action and keep print as a link."), ("bo", "That works.")]),
                       ["Make export the primary action and keep print as a link"])
    }

    func testAPreferencePutToTheOthersAndAcceptedWithFair() {
        let thread = [("ana", "should we offer them a credit now?"), ("bo", "I'd rather not promise a credit before the RCA is done"),
                      ("ana", "fair, no credit talk until then")]
        XCTAssertEqual(decisions(thread), ["I'd rather not promise a credit before the RCA is done"])
        // "Agreed, I'd rather not ..." is a yes, not a preference put up.
        XCTAssertEqual(decisions([("ana", "the parser can wait"), ("bo", "Agreed, I'd rather not rush the streaming parser."), ("cyd", "sounds good")]), [])
    }

    func testQuestionsTypedWithoutTheirMark() {
        XCTAssertTrue(OpenQuestions.unmarked("does anyone have the logo in svg"))
        XCTAssertTrue(OpenQuestions.unmarked("when do we need it live"))
        XCTAssertFalse(OpenQuestions.unmarked("is it just me or is it hot today"))
        XCTAssertFalse(OpenQuestions.unmarked("when I pushed on it he said no"))
        XCTAssertFalse(OpenQuestions.unmarked("do it before the demo please"))
        XCTAssertFalse(OpenQuestions.unmarked("what a week this was"))
        let thread = [("ana", "landing page copy is in"), ("bo", "nice"), ("cyd", "does anyone have the logo in svg")]
        XCTAssertEqual(summary(thread).openQuestions, ["Does anyone have the logo in svg?"])
    }
    func testAGoCallAndTheStatementsThatCarryItOut() {
        let thread = [("ana", "the export suite is green now"), ("bo", "sign-off posted in #qa"),
                      ("ana", "Go for 4.12 with #2290 included. Rollout starts 17:00 CET, 10% first. I'll post in #release.")]
        XCTAssertEqual(decisions(thread), ["Go for 4.12 with #2290 included; Rollout starts 17:00 CET, 10% first"])
        XCTAssertEqual(decisions([("ana", "crash-free is 99.1%"), ("bo", "ok, calling it: no-go for 7.0 today. cyd ships the fix to beta tonight")]),
                       ["no-go for 7.0 today; cyd ships the fix to beta tonight"])
        // "Go for it" is a yes, not a call; a question stops what is carried along.
        XCTAssertFalse(DecisionRules.goCall(" go for it, the logs are yours "))
        XCTAssertEqual(decisions([("ana", "we need reverse CDC or a dual-write window"), ("bo", "ok, reverse CDC it is. cyd owns it. does anyone object?")]),
                       ["reverse CDC it is (we need reverse CDC or a dual-write window); cyd owns it"])
        // The summary's line keeps the decision itself; how it is carried out is the open work's line.
        XCTAssertEqual(summary(thread).keyPoints.first { $0.hasPrefix("Decision:") }?.contains("Rollout"), false)
    }

    func testAnAnswerOfferedAsAQuestionAndAccepted() {
        let thread = [("bo", "which font are we using"), ("cyd", "idk"), ("ana", "the one from the deck?"), ("bo", "that works")]
        XCTAssertEqual(decisions(thread), ["the one from the deck (which font are we using)"])
        // An offer nobody accepted, and an offer that answers no question, decide nothing.
        XCTAssertEqual(decisions([("bo", "which font are we using"), ("ana", "the one from the deck?"), ("cyd", "no, too thin")]), [])
        XCTAssertEqual(decisions([("bo", "the banner looks off"), ("ana", "the one from the deck?"), ("cyd", "that works")]), [])
    }

    func testAChoiceHandedToTheOneWhoAskedAndTakenWithAThumb() {
        let thread = [("bo", "I need the final CSV column list, the spec has two versions"),
                      ("ana", "use the one in the onboarding doc, v2 with the team column"), ("bo", "👌")]
        XCTAssertEqual(decisions(thread), ["use the one in the onboarding doc, v2 with the team column"])
        XCTAssertEqual(decisions([("bo", "the spec has two versions"), ("ana", "use the one in the onboarding doc"), ("bo", "hmm, that one is stale")]), [])
    }
}
