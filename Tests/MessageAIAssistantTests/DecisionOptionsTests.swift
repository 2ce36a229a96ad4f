@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.6: "X it is" names the sentence that put the options up ("Release day options are
/// Tuesday or Thursday"), not a supporter's repetition of the choice; what counts as two options
/// put up, beside look-alikes ("or not", a clause after "or"). Threads made up here, none from a
/// labelled set.
final class DecisionOptionsTests: XCTestCase {
    let people = ["ana", "bo", "cyd"]

    func decisions(_ lines: [(String, String)]) -> [String] {
        engine.summarize(ThreadToSummarize(participants: people, messages: lines.map { ChatLine(from: $0.0, text: $0.1) })).decisions
    }

    func testNamesAlternativesReadsTwoOptionsOnly() {
        XCTAssertTrue(Agreement.namesAlternatives("Release day options are Tuesday or Thursday."))
        XCTAssertTrue(Agreement.namesAlternatives("Should the kick-off be at 9am Berlin or at 5pm Tokyo?"))
        XCTAssertFalse(Agreement.namesAlternatives("Do we need a migration, or is it created lazily?"))
        XCTAssertFalse(Agreement.namesAlternatives("Is the build ready or not?"))
        XCTAssertFalse(Agreement.namesAlternatives("Ping me tomorrow or so."))
        XCTAssertFalse(Agreement.namesAlternatives("Thursday works for QA."))
    }

    func testItIsNamesTheSentenceThatPutTheOptionsNotASupportersRepetition() {
        let thread = [("ana", "release day options are tuesday or thursday."), ("bo", "thursday gives QA two full days."),
                      ("cyd", "thursday works for QA."), ("ana", "thursday it is.")]
        XCTAssertEqual(decisions(thread), ["thursday it is (release day options are tuesday or thursday)"])
        // With no sentence putting the options up, the nearest one naming the choice is still told.
        XCTAssertEqual(decisions([("cyd", "thursday works for QA."), ("ana", "thursday it is.")]), ["thursday it is (thursday works for QA)"])
    }
}
