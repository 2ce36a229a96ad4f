@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.8 (from dev6, a set by a separate author): a seal after the terms ("locking that in 🔒",
/// "my call"), a thing kept as it was ("thursday 06:00 UTC stays"), a vote's result with its plural verb
/// ("flaky tests win 3-1"), "sold", a conclusion in the clause before a comma ("ok thursday then, I
/// withdraw ..."), a few words put to the group that confirm a member's statement ("2 weeks, everyone
/// ok?"), and "we'll <verb>" accepted; each beside look-alikes that must not count. Threads made up here.
final class DecisionSealedTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func decisions(_ lines: [(String, String)]) -> [String] { summarized(lines, people: people).decisions }

    func testASealAfterTheTermsWithAnEmoji() {
        XCTAssertEqual(decisions([("bo", "I could live with 6 months"), ("ana", "great — 6 months grace, annual plans keep the old price. locking that in 🔒")]),
                       ["6 months grace, annual plans keep the old price"])
        XCTAssertEqual(decisions([("bo", "I'd cut the confetti"), ("ana", "it tested well. keep it, off when reduce motion is set. my call")]),
                       ["keep it, off when reduce motion is set"])
        // "Agreed?" asks; it seals nothing.
        XCTAssertEqual(decisions([("ana", "Then we move the import to 2.5. Agreed?")]), [])
    }

    func testAThingKeptAsItWas() {
        XCTAssertEqual(decisions([("bo", "I'd rather do saturday"), ("cyd", "nobody from the DB team is on call saturday"),
                                  ("ana", "thursday 06:00 UTC stays. go/no-go check wednesday 16:00 UTC")]),
                       ["thursday 06:00 UTC stays; go/no-go check wednesday 16:00 UTC"])
        XCTAssertEqual(decisions([("ana", "only in v2, v1 stays")]), [])
        XCTAssertEqual(decisions([("ana", "the bug stays open until someone repros it")]), [])
    }

    func testAVotesResultWithItsPluralVerbAndWhatFollows() {
        XCTAssertEqual(decisions([("bo", "🧪"), ("cyd", "🧪"), ("ana", "flaky tests win 3-1. #1176 is in, dark mode next sprint.")]),
                       ["flaky tests win 3-1; #1176 is in, dark mode next sprint"])
        XCTAssertEqual(decisions([("ana", "My gut says the onboarding redesign should win Q3, but I want the numbers first.")]), [])
    }

    func testAConclusionBeforeACommaAndAShortAskThatConfirmsAStatement() {
        XCTAssertEqual(decisions([("ana", "cutover thursday or saturday?"), ("bo", "saturday nobody is on call"),
                                  ("cyd", "ok thursday then, I withdraw the saturday idea")]),
                       ["thursday (cutover thursday or saturday)"])
        XCTAssertEqual(decisions([("bo", "and I'd keep dual-write on for 2 weeks after cutover"), ("ana", "2 weeks, everyone ok?"), ("cyd", "👍")]),
                       ["I'd keep dual-write on for 2 weeks after cutover"])
    }

    func testWeWillAcceptedAndSold() {
        XCTAssertEqual(decisions([("ana", "we'll offer senior, with a note that staff is a 12-18 month conversation"), ("bo", "+1")]),
                       ["we'll offer senior, with a note that staff is a 12-18 month conversation"])
        XCTAssertEqual(decisions([("ana", "we'll need to check the budget first"), ("bo", "+1")]), [])
        XCTAssertEqual(decisions([("ana", "let's book hotel A and rent the coworking space for the sessions"), ("bo", "sold")]),
                       ["book hotel A and rent the coworking space for the sessions"])
    }
    func testAYesThatSaysTheProposalAgainAndTermsThatWorkForUs() {
        XCTAssertEqual(decisions([("bo", "private is instant. i'd say private now, rewrite later"), ("ana", "ok, private now, rewrite later")]),
                       ["private now, rewrite later"])
        XCTAssertEqual(decisions([("bo", "I can do $72k with a 10% overage allowance"), ("ana", "ok. $72k / 3 years / 30-day retention / 10% overage allowance works for us")]),
                       ["$72k / 3 years / 30-day retention / 10% overage allowance"])
        // Confirming an ask, a date alone, or one's own work is no decision.
        XCTAssertEqual(decisions([("bo", "can you draft the RCA by thursday noon?"), ("ana", "ok, thursday noon for the RCA draft")]), [])
        XCTAssertEqual(decisions([("bo", "the retro is next wednesday"), ("ana", "ok, next wednesday")]), [])
        XCTAssertEqual(decisions([("bo", "thursday works?"), ("ana", "thursday works for me")]), [])
    }

    func testASpacedDashJoinsTwoSentencesAndTheAskOfTheReplierIsWhatItsItNames() {
        XCTAssertEqual(Sentences.split("i'll write the draft tomorrow — bo can you send me the full export before then?"),
                       ["i'll write the draft tomorrow", "bo can you send me the full export before then?"])
        XCTAssertEqual(Sentences.split("great — 6 months it is"), ["great — 6 months it is"])
        // A reason after the dash stays in its sentence; a seal after it is one of its own.
        XCTAssertEqual(Sentences.split("No-go for 7.0 today — the crash-free rate is 99.1% against a 99.5% target."),
                       ["No-go for 7.0 today — the crash-free rate is 99.1% against a 99.5% target."])
        XCTAssertEqual(Sentences.split("Sunday 06:00 UTC for the cutover — settled."), ["Sunday 06:00 UTC for the cutover", "settled."])
        let thread = [("ana", "i'll write the postmortem draft tomorrow — bo can you send me the full cloudtrail export before then?"),
                      ("bo", "yep, will send it by 9am"), ("ana", "thanks bo, talk soon")]
        let actions = summarized(thread, people: people).actions
        XCTAssertTrue(actions.contains { $0.who == "bo" && $0.what.contains("cloudtrail export") }, "\(actions)")
        XCTAssertFalse(actions.contains { $0.what.hasPrefix("talk") }, "a goodbye is no work: \(actions)")
    }
    func testAPlanSaidBackForAYesAChangedPlanAndAnOptionTheAskerTakes() {
        XCTAssertEqual(decisions([("ana", "marketing is fine with iOS first"), ("bo", "so: iOS 4.12 to the store thursday as planned, android waits for RC3?"),
                                  ("cyd", "yes. iOS thursday, android on RC3")]),
                       ["iOS 4.12 to the store thursday as planned, android waits for RC3"])
        XCTAssertEqual(decisions([("ana", "ok, plan changed: iOS ships thursday, Android held for RC3")]), ["iOS ships thursday, Android held for RC3"])
        XCTAssertEqual(decisions([("ana", "phased rollout on iOS or all at once?"), ("bo", "phased, the 7 day default"), ("ana", "👍")]),
                       ["phased, the 7 day default (phased rollout on iOS or all at once)"])
        // "So, what ...?" asks; an answer the asker does not take settles nothing; "the go/no-go is at 16:00" is a meeting.
        XCTAssertEqual(decisions([("bo", "so, what do we tell the customer?"), ("cyd", "yes")]), [])
        XCTAssertEqual(decisions([("ana", "phased rollout on iOS or all at once?"), ("bo", "phased, the 7 day default"), ("ana", "hmm, not sure")]), [])
        XCTAssertEqual(decisions([("ana", "go/no-go for 4.12 is at 16:00 CET today")]), [])
    }
}
