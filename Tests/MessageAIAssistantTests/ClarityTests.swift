@testable import MessageAIAssistant
import XCTest

final class ClarityTests: XCTestCase {
    func testPronounWithoutAntecedent() {
        let j = judge("Can you revert that?")
        XCTAssertTrue(j.clarityFlag)
        XCTAssertEqual(j.clarity.first?.kind, .pronoun)
    }

    func testPronounWithTwoCandidatesNamesBoth() {
        let j = judge("Can you roll that back before the demo?", context: [("maya", "I pushed the cache change and the retry change to staging.")])
        XCTAssertEqual(j.clarity.first?.reason, "'that' could mean the cache change or the retry change: say which")
    }

    func testBareDefiniteReference() {
        XCTAssertEqual(judge("Send me the doc when it's ready.").clarity.first?.kind, .reference)
        XCTAssertFalse(judge("Send me the Q4 budget doc by Friday.").clarityFlag, "a modifier identifies it")
    }

    func testRequestWithoutOwnerOrWithVagueTime() {
        XCTAssertEqual(judge("Can someone restart the Linux build runner?", to: group).clarity.first?.kind, .owner)
        XCTAssertEqual(judge("Can you update the changelog for 2.4 today?", to: group).clarity.first?.kind, .owner)
        XCTAssertEqual(judge("Please update the onboarding checklist whenever.").clarity.first?.kind, .timing)
    }

    func testNotFlagged() {
        XCTAssertFalse(judge("Could you tag it and post the notes by 5pm?", context: [("maya", "The 2.3 hotfix branch is cut.")]).clarityFlag,
                       "the context resolves 'it'")
        XCTAssertFalse(judge("I'll look at it after lunch.").clarityFlag, "the sender's own commitment")
        XCTAssertFalse(judge("Thanks!").clarityFlag)
        XCTAssertFalse(judge("Done.").clarityFlag)
        XCTAssertFalse(judge("Li, please review the onboarding copy changes by Friday.", to: group).clarityFlag, "owner and time named")
        XCTAssertFalse(judge("It would be nice to have dark mode in the app one day.").clarityFlag)
    }
}

/// A rude remark that asks for nothing gets the tone hint alone; a request in it is still checked.
final class ClarityInRudeRemarksTests: XCTestCase {
    func testTheToneHintAloneForARemarkTheClarityHintsForARequest() {
        for text in ["Great, the build is red again.", "Who approved this mess?", "Honestly this PR is sloppy."] {
            let j = judge(text)
            XCTAssertTrue(j.toneFlag, text)
            XCTAssertFalse(j.clarityFlag, text)
        }
        let ask = judge("Seriously? Can you revert that?")
        XCTAssertTrue(ask.toneFlag)
        XCTAssertTrue(ask.clarityFlag, "'that' in the request is still unresolved")
        XCTAssertTrue(judge("The numbers look off, can you double-check them?").clarityFlag, "a neutral request is checked as before")
    }
}

/// Rule 3 when the draft looks for an owner instead of naming one.
final class ClarityVolunteerTests: XCTestCase {
    func testAskingForAVolunteerNamesNoOwner() {
        for text in ["Any volunteers to cover the Saturday on-call shift?", "Who can renew the staging certificates before Thursday noon?",
                     "Who wants to take the release notes for 2.6 this week?"] {
            XCTAssertTrue(judge(text, to: group).clarity.contains { $0.kind == .owner }, text)
        }
    }

    func testANamedOwnerOrADirectMessageIsNotFlagged() {
        XCTAssertFalse(judge("Li, can you renew the staging certificates before Thursday noon?", to: group).clarityFlag)
        XCTAssertFalse(judge("Who can I ask about the staging certificates?", to: group).clarityFlag)
        XCTAssertFalse(judge("¿Quién puede revisar el PR hoy? 🙏", to: group).clarity.contains { $0.reason.contains("nobody is named") })
    }
}
