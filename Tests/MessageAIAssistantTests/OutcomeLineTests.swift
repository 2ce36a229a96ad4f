@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.3: a summary's decision line states the outcome (ASSISTANT.md: what a person
/// returning after a day away needs), not the words that lead up to it; no line ends on a clause cut
/// at its ";". Look-alikes keep their words. Sentences made up here, none from a labelled set.
final class OutcomeLineTests: XCTestCase {
    func testADecisionLineDropsTheLeadUpAndKeepsTheOutcome() {
        XCTAssertEqual(Compress.outcome("Scratch that: legal signed off on the old logo, so we keep the old logo for launch"),
                       "we keep the old logo for launch")
        XCTAssertEqual(Compress.outcome("Given the survey, the dark theme ships first and the widget moves to Q3"),
                       "the dark theme ships first and the widget moves to Q3")
        XCTAssertEqual(Compress.decision("Scratch that: we ship the beta on Monday"), "Ship the beta on Monday")
    }

    func testWordsThatAreTheOutcomeStay() {
        // A short reason is part of what was decided; "so" without "we" joins no outcome of ours.
        XCTAssertEqual(Compress.outcome("Late, so we skip the demo"), "Late, so we skip the demo")
        XCTAssertEqual(Compress.outcome("B wins the vote 3 to 1, so the checklist is a single list"),
                       "B wins the vote 3 to 1, so the checklist is a single list")
        XCTAssertEqual(Compress.outcome("Given up on the old build server for good"), "Given up on the old build server for good")
    }

    func testALineCutAtASemicolonEndsAsASentence() {
        XCTAssertEqual(Compress.sentence("That was the old web app;"), "That was the old web app.")
        XCTAssertEqual(Compress.sentence("Ship it Monday"), "Ship it Monday")
    }
}
