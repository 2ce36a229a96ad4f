@testable import MessageAIAssistant
import XCTest

/// Rudeness that no single word carries, and the sincere messages that look like it.
final class ToneExasperationTests: XCTestCase {
    func testExasperationCondescensionAndMockThanks() {
        for text in ["Your code broke prod. Again.", "Seriously? Again?", "Let me spell it out for you.", "Not sure what's confusing about this.",
                     "Thanks for letting me know two days late.", "Glad someone finally noticed.", "Fantastic. Another weekend spent on hotfixes.",
                     "Great job ignoring the checklist.", "Obviously that won't work.", "You had one job.", "Whoever wrote this clearly didn't test it.",
                     "This is the worst PR I've reviewed all year."] {
            XCTAssertTrue(judge(text).toneFlag, text)
            XCTAssertFalse(judge(text).tone.first?.reason.isEmpty ?? true, text)
        }
    }

    /// ASSISTANT.md's bar: no false flags on neutral or positive messages.
    func testSincereLookAlikesAreNotFlagged() {
        for text in ["Thank you SO much for staying late for the release.", "Finally fixed it, the tests pass.", "Your migration ran fine on staging.",
                     "Again, thanks for the help with the deploy.", "Perfect, thanks!", "Ugh, my laptop died. Back in 10.",
                     "It failed again because the disk filled up; I'll clean it.", "GREAT news: we closed the deal!",
                     "We missed the deadline again, let's look at why in the retro.", "Sorry, I can't join, I'm on another call."] {
            XCTAssertFalse(judge(text).toneFlag, text)
        }
    }
}
