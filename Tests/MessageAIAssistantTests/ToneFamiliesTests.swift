@testable import MessageAIAssistant
import XCTest

/// The tone families read from the shape of a sentence (ToneRules+Families, +Asides, +Jabs):
/// each rule on a wording no lexicon lists, and the sincere, neutral or non-English messages
/// that share its words.
final class ToneFamiliesTests: XCTestCase {
    let ask = [("maya", "Hi, could you take a look at the flaky login test when you get a chance?")]
    let outage = [("maya", "Heads up: the payments API is down again.")]

    func testARepeatThrownBackIsPassiveAggressive() {
        for text in ["As I said yesterday, the freeze is Friday.", "I literally said this twice.", "I've mentioned this before: no deploys on Friday.",
                     "Again, the freeze is on Friday.", "Bumping this for the fourth time.", "This is the third time I'm asking."] {
            XCTAssertEqual(judge(text).tone.first?.kind, .passiveAggressive, text)
        }
        for text in ["As I mentioned, I'm out Friday; Li covers.", "Again, thanks everyone for jumping on the outage.", "I already asked Li about the budget.",
                     "This is the second time this week the build went green on the first try!", "Again, I don't think caching helps: the query takes 4 ms."] {
            XCTAssertFalse(judge(text).toneFlag, text)
        }
    }

    func testRhetoricalRefusalsAndShortWaveOffsAnswerAnAsk() {
        for text in ["Why should I?", "how would i know", "Do I look like your assistant?", "too busy, ask someone else", "not my shift", "Read the spec.", "fix it urself"] {
            XCTAssertTrue(judge(text, context: ask).toneFlag, text)
        }
        for text in ["Why me? Happy to, just curious why I'm on the rotation.", "Not my area, but Li owns it.", "How would I know if the job failed? Is there an alert?",
                     "Busy until 3, can do it after.", "on it", "eta 5 min", "Read the spec section 3 and tell me what you think."] {
            XCTAssertFalse(judge(text, context: ask).toneFlag, text)
        }
    }

    func testSarcasmAboutSkippedWorkAndFailures() {
        for text in ["Apparently testing is optional now.", "I'm sure it'll work this time.", "So we're just ignoring the spec now?", "Nice work, team. Another missed deadline.",
                     "Way to go, the deploy failed again.", "great another 3am page", "Thanks for the 3am wake-up call.", "Can't wait for another weekend of hotfixes.",
                     "pager went off at 3am again. fun.", "prod is down, awesome", "build's red again, shocker", "Glad to see the release notes are optional.",
                     "If only someone had tested it.", "Sure, let's just skip the tests."] {
            XCTAssertTrue(judge(text, to: group).toneFlag, text)
        }
        for text in ["The email field is optional now, per the new spec.", "Great job on the rollback, payments are back.", "Nice work handling the outage last night.",
                     "Outage is over, great work everyone!", "Thanks for the hotfix!", "Can't wait for the offsite!", "Down to two bugs, nice!",
                     "I'm sure it'll be fine, the tests pass.", "Classic rock playlist for the offsite, anyone?", "Typical Monday, coffee machine is broken again ☕",
                     "Deploy failed again, rolling back now. Sorry all.", "If only I'd known about this tool earlier, it saves hours!"] {
            XCTAssertFalse(judge(text, to: group).toneFlag, text)
        }
    }

    func testBlameWithAPersonAsTheSubject() {
        for text in ["You keep breaking the build.", "Who changed the retry limits without telling anyone?", "This wouldn't have happened if you had tested it.",
                     "Whose bright idea was this?", "Did anyone actually test this on mobile?", "Some of us were up at 3am fixing this.", "ffs, again"] {
            XCTAssertTrue(judge(text, to: group).toneFlag, text)
        }
        for text in ["Can you merge it without review? It's a typo fix.", "We shipped it without the dark mode toggle, as agreed.", "Has anyone tried the new build on Safari?",
                     "Some of us are going for ramen at 7, want to join?", "You keep making this better every week!", "Who's on call this weekend?"] {
            XCTAssertFalse(judge(text, to: group).toneFlag, text)
        }
    }

    func testFlatPraiseToBadNewsAndEmojiAsides() {
        XCTAssertTrue(judge("Great.", context: outage).toneFlag)
        XCTAssertTrue(judge("Sure, if you say so 🙄", context: ask).toneFlag)
        XCTAssertTrue(judge("Oh cool, another outage 🙃").toneFlag)
        for text in ["Great!", "Great, thanks for the heads up!", "ack, on it"] {
            XCTAssertFalse(judge(text, context: outage).toneFlag, text)
        }
        XCTAssertFalse(judge("Great.", context: [("maya", "I fixed the flaky login test and CI is green.")]).toneFlag)
        XCTAssertFalse(judge("🙃 long day, heading out").toneFlag)
    }

    func testLaterAdditionsAndTheLookAlikesTheyFixed() {
        for text in ["Why is this my problem?", "who even wrote this migration", "rollback done. next time maybe test before merging.",
                     "Would be great if interviewers actually sent feedback on time.", "Friendly reminder that scorecards were due yesterday."] {
            XCTAssertTrue(judge(text, to: group).toneFlag, text)
        }
        XCTAssertTrue(judge("ugh", context: [("maya", "anyone free to take the 2am page?")]).toneFlag)
        for text in ["Some of us have a conflict at 3, can we move it?", "I can't believe it's Friday already 😅", "Friendly reminder: scorecards are due Friday.",
                     "It would be great if someone could review PR 311 today.", "Next time, let's book the big room.", "The cron ran for the second time today, as scheduled."] {
            XCTAssertFalse(judge(text, to: group).toneFlag, text)
        }
    }

    /// Everyday sentences that share a word with a family and must stay unflagged.
    func testEverydayLookAlikesOfTheFamilies() {
        for text in ["They run without a database in dev.", "Some of us still need VPN access.", "Tests pass, as expected.", "Backups run nightly, like clockwork.",
                     "I'll merge it if you say so.", "Not too much to ask, I'll do it.", "The third time we ran it, I asked Li to check the logs.",
                     "Again, happy to help with the migration.", "Seriously, you saved us tonight.", "Release went out, right on schedule 🎉"] {
            XCTAssertFalse(judge(text, to: group).toneFlag, text)
        }
        XCTAssertTrue(judge("Sure, if you say so.", to: group).toneFlag)
        XCTAssertTrue(judge("Is it too much to ask for a heads-up?", to: group).toneFlag)
    }

    /// Texting forms and other languages: the lexicon never fires on words it does not know.
    func testNonEnglishAndTextingForms() {
        for text in ["¡Otra vez se cayó el tren! Llego 10 minutos tarde 😅", "ja, passt. Bis morgen 👋", "修正しました、確認お願いします 🙏", "Merci, c'est parfait !",
                     "thx, will do rn", "u around? need a hand with the deploy"] {
            XCTAssertFalse(judge(text, context: ask).toneFlag, text)
        }
        XCTAssertTrue(judge("sure whatever", context: ask).toneFlag)
    }
}
