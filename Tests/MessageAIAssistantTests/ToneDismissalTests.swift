@testable import MessageAIAssistant
import XCTest

/// Rudeness in the shape of a phrase: sarcasm markers, rhetorical blame, dismissive orders,
/// scare quotes, a repeat stressed in capitals; and the sincere or neutral messages that share
/// their words (ASSISTANT.md: no false flags on neutral or positive messages).
final class ToneDismissalTests: XCTestCase {
    let ask = [("maya", "Could you take a look at the failing export job?")]

    func testSarcasmMarkersAndAsides() {
        for text in ["Let me guess, nobody ran the migration on staging.", "Classic.", "Figures.", "Big surprise, the cron job failed.",
                     "What could possibly go wrong with a Friday deploy.", "Like I said, the freeze starts Thursday.",
                     "Hello? Is anyone reviewing my PR?", "Thanks for your 'help' with the release.", "The 'fix' broke checkout for everyone.",
                     "Just saying.", "Must have slipped your mind again.", "Not to be rude, but the doc answers this."] {
            XCTAssertTrue(judge(text, context: ask).toneFlag, text)
        }
    }

    func testRhetoricalBlameAndDismissiveOrders() {
        for text in ["Did nobody test this before merging?", "Is it really that hard to run the linter?", "Was that so hard?",
                     "Calm down, it's one failing test.", "Relax.", "Get over it, the decision is made.", "Fix it yourself.",
                     "Look it up yourself.", "Merge it already.", "Just ship it already!", "Ever heard of unit tests?",
                     "Why is the build broken AGAIN", "I asked you TWICE for the logs.", "What part of 'no Friday deploys' was unclear?",
                     "Thanks for ignoring my PR for a week.", "Nice going breaking main.", "Thanks to you, we missed the launch.",
                     "Really? You pushed to main on a Friday?", "Nobody cares about the old dashboard.", "Not again.",
                     "Why did nobody tell me the release moved?", "Still waiting.", "Any day now.", "Suit yourself.",
                     "Did you not see my message?", "This mockup is half-baked.", "Knock yourself out.", "Love getting paged at 3am for a disk alert.",
                     "We've been over this.", "Who thought this color scheme was a good idea?", "Great, just great.", "Wrong.",
                     "Why is nobody answering the pager?", "It's 3am here, in case anyone cares.", "Can we please not deploy at 5pm on a Friday?"] {
            XCTAssertTrue(judge(text, context: ask).toneFlag, text)
        }
    }

    /// The same words said kindly or neutrally.
    func testNeutralLookAlikesAreNotFlagged() {
        for text in ["Deal!", "Relax, it's fine, the backup ran.", "Drop it in the channel when ready.", "Look it up in the runbook under DNS.",
                     "Did nobody get the invite?", "Why doesn't anyone get notifications on Android?", "How difficult is it to add SSO?",
                     "Have you ever heard of Temporal? It might fit here.", "What part of the flow is slow?", "Best release EVER!",
                     "ALWAYS run the migration with --dry-run first.", "Just checked, the fix is there already.", "Help yourself to the leftover pizza.",
                     "Set the status to 'done' when you finish.", "That worked out great, thanks!", "I'm just saying hi before the call.",
                     "Move on to the next item when ready.", "Does anyone read the weekly report? Thinking of dropping it.",
                     "Why would I get a 403 here?", "Of course! Happy to help.", "We're STILL on track for Friday, nice.",
                     "The cron ran for the second time today, as scheduled.", "Introduce yourself in the channel, please.",
                     "Just merge it when CI is green, thanks.", "Thanks for catching the missing index!",
                     "Thanks to you, the launch went smoothly.", "Really? That's great news!", "Great job fixing the broken link.",
                     "Thanks for flagging the missing translations.", "Still waiting on the vendor, I'll update you at 3.",
                     "Silly question: is staging on the new cert?", "My fix is ugly but it works.", "Good times at the offsite, thanks all!",
                     "Is it a good idea to cache the tokens?", "The wrong build was tagged, I'll retag it.", "Some of us are in Tokyo, so 9am UTC is late evening there.",
                     "Just great news from the audit, thanks all!"] {
            XCTAssertFalse(judge(text, context: ask).toneFlag, text)
        }
    }

    /// A bare refusal of work asked in any words is abrupt; the same "no" to a question of fact is an answer.
    func testABareRefusalOfAnyAskIsTerse() {
        XCTAssertTrue(judge("Nope, not doing it.", context: [("maya", "Omar, rotate the staging keys before the audit on Friday.")]).toneFlag)
        XCTAssertFalse(judge("No, not yet.", context: [("maya", "Is staging on the new keys already?")]).toneFlag)
        XCTAssertFalse(judge("No, it's a copy-only change.", context: [("maya", "Omar, rotate the staging keys before Friday.")]).toneFlag)
    }

    func testTheReasonNamesThePhrase() {
        XCTAssertTrue(judge("Merge it already.").tone.first?.reason.contains("already") ?? false)
        XCTAssertTrue(judge("Fix it yourself.").tone.first?.reason.contains("Fix it yourself") ?? false)
    }
}
