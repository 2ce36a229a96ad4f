@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.3: ways a team settles something that the engine missed on threads it had never
/// seen, written from ASSISTANT.md's definitions ("a decision that has been made", "outcomes agreed
/// in the thread"), each beside look-alikes that must not count. Threads made up here, none from a
/// labelled set.
final class AgreementUnseenTests: XCTestCase {
    let people = ["ana", "bo", "cyd", "dee"]

    func summary(_ lines: [(String, String)]) -> ThreadSummary {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) }))
    }

    func decisions(_ lines: [(String, String)]) -> [String] { summary(lines).decisions }

    func testDoWeWithAWorkVerbPutsACourseOfActionUp() {
        let settled = decisions([("ana", "Do we add a size check to the upload form?"),
                                 ("bo", "Yes, reject files over 20 MB before the upload starts."), ("cyd", "Works for me.")])
        XCTAssertTrue(settled.contains { $0.hasPrefix("reject files over 20 MB") }, "\(settled)")
        // Questions about what is known or held are no choice, whatever the answer.
        XCTAssertEqual(decisions([("ana", "Do we know why the upload failed?"), ("bo", "Yes, the proxy dropped files over 20 MB.")]), [])
        XCTAssertEqual(decisions([("ana", "Do we have the proxy logs from last night?"), ("bo", "Yes, in the ops bucket.")]), [])
    }

    func testAStatementSealedWithConfirmedIsADecision() {
        let sealed = decisions([("ana", "QA needs a week after the freeze."), ("bo", "Freeze on the 4th then?"),
                                ("cyd", "As release owner: freeze on the 4th, release on the 11th. Confirmed.")])
        XCTAssertEqual(sealed, ["freeze on the 4th, release on the 11th"])
        // A "Confirmed." that answers a question of fact seals nothing of its own message.
        XCTAssertEqual(decisions([("ana", "Is the venue for the offsite booked?"), ("bo", "Confirmed.")]), [])
        XCTAssertNil(judge("Confirmed? I thought the venue was still open.").decision)
    }

    func testAYesThatTakesTheAskedWorkOnIsAnActionNotADecision() {
        let taken = summary([("ana", "Could we compress the hero images to under 300 KB?"), ("bo", "Yes, I'll compress them this week.")])
        XCTAssertEqual(taken.decisions, [])
        XCTAssertEqual(taken.actions.map(\.who), ["bo"])
        // The same question agreed to is a decision; so is a yes that commits to other work beside it.
        XCTAssertEqual(decisions([("ana", "Could we compress the hero images to under 300 KB?"), ("bo", "Yes, let's do it.")]).count, 1)
        XCTAssertEqual(decisions([("ana", "Could we compress the hero images to under 300 KB?"), ("bo", "Yes, I'll tell design.")]).count, 1)
    }

    func testAChoiceSettledWithItIsStatesTheOptionAndHidesNoOtherDecision() {
        let both = decisions([("ana", "Proposal: move the flaky tests to a nightly job and keep them out of the merge gate."), ("bo", "Ship it."),
                              ("cyd", "Also, do we keep the merge gate at 15 minutes or raise it to 20?"), ("dee", "Keep 15."), ("ana", "15 it is.")])
        XCTAssertTrue(both.contains { $0.hasPrefix("move the flaky tests to a nightly job") }, "\(both)")
        XCTAssertTrue(both.contains { $0.contains("keep the merge gate at 15 minutes)") && !$0.contains("raise") }, "\(both)")
        // A choice put as a statement keeps its own words.
        let stated = decisions([("ana", "Release day options are Tuesday or Thursday."), ("bo", "Thursday it is.")])
        XCTAssertEqual(stated, ["Thursday it is (Release day options are Tuesday or Thursday)"])
    }

    func testAReversalReplacesTheChoiceAgreedBeforeIt() {
        let reversed = decisions([("ana", "For the release email banner, do we use the photo or the illustration?"),
                                  ("bo", "Photo, it tests better."), ("cyd", "Works for me."),
                                  ("dee", "Actually we'll use the illustration instead, the photo rights expire in May.")])
        XCTAssertEqual(reversed.count, 1, "\(reversed)")
        XCTAssertTrue(reversed.first?.contains("illustration instead") == true, "\(reversed)")
        // The choice alone, settled and never reversed, stays; a reversal with nothing before it on its topic is a plan's detail.
        XCTAssertEqual(decisions([("ana", "For the release email banner, do we use the photo or the illustration?"),
                                  ("bo", "Photo, it tests better."), ("cyd", "Works for me.")]).count, 1)
        XCTAssertEqual(decisions([("ana", "The banner goes out Tuesday."), ("bo", "Actually we'll send the survey link instead of the FAQ link.")]), [])
    }

    func testMoreWaysOfSayingYesAgreeAndAYesWithAConditionDoesNot() {
        let proposal = ("ana", "Let's move the weekly sync to Thursday at 10.")
        for yes in ["I'm fine with that.", "Sure, sounds good.", "Ok by me.", "Yes from me."] {
            XCTAssertEqual(decisions([proposal, ("bo", yes)]).count, 1, yes)
        }
        for notYet in ["Sure, but only after the audit.", "I'm fine with Thursday but not at 10.", "Sure?"] {
            XCTAssertEqual(decisions([proposal, ("bo", notYet)]), [], notYet)
        }
    }
}
