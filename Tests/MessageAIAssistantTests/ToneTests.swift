@testable import MessageAIAssistant
import XCTest

final class ToneTests: XCTestCase {
    func testRudeDrafts() {
        XCTAssertEqual(judge("No.", context: [("maya", "Could you cover my on-call shift on Saturday?")]).tone.first?.kind, .terse)
        XCTAssertEqual(judge("Not my job.", context: [("maya", "Can you restart the runner, please?")]).tone.first?.kind, .harsh)
        XCTAssertEqual(judge("Who approved this mess?").tone.first?.kind, .harsh)
        XCTAssertEqual(judge("PLEASE STOP PUSHING TO MAIN").tone.first?.kind, .shouting)
        XCTAssertEqual(judge("As I already said, the staging keys rotate on Monday.").tone.first?.kind, .passiveAggressive)
        XCTAssertEqual(judge("Great, another outage.").tone.first?.kind, .passiveAggressive)
    }

    func testBlameSarcasmAndOrders() {
        for text in ["You should have caught this in review.", "Did you even test this?", "Wow, great job, you broke production again.",
                     "Stop pushing broken code.", "Love how nobody read the doc.", "Ugh, whatever, do what you want."] {
            XCTAssertTrue(judge(text).toneFlag, text)
        }
        XCTAssertFalse(judge("No, it's a copy-only change.", context: [("maya", "Do we need a design review for the tooltip change?")]).toneFlag,
                       "an answer with its reason is not terse")
    }

    func testEveryFlagSaysWhatToChange() {
        for f in judge("Who approved this mess?").tone { XCTAssertFalse(f.reason.isEmpty) }
    }

    /// ASSISTANT.md: zero false flags on neutral or positive messages.
    func testNeutralAndPositiveAreNotFlagged() {
        for text in ["Thanks!", "Sounds good.", "LGTM", "The CI run on the PR failed on TLS again, can you check by EOD?",
                     "This is HUGE, thanks for the fix!",
                     "Sorry, I can't make 6pm, I'm picking up my kids.",                                      // polite decline
                     "I don't think caching helps here: the query is already 4 ms, the time goes into serialising.", // reasoned critique
                     "No worries, take your time.",
                     "If the 2.4 canary fails again, I can roll back."] {
            XCTAssertFalse(judge(text, context: [("maya", "Can you join the vendor call at 6pm?")]).toneFlag, text)
        }
    }
}
