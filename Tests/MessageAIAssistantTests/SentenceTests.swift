@testable import MessageAIAssistant
import XCTest

final class SentenceTests: XCTestCase {
    func testSplitsSentencesAndListItemsButNotVersionsOrAbbreviations() {
        XCTAssertEqual(Sentences.split("The 2.3 branch is cut. Could you tag it, e.g. as v2.3? Thanks!"),
                       ["The 2.3 branch is cut.", "Could you tag it, e.g. as v2.3?", "Thanks!"])
        XCTAssertEqual(Sentences.split("1) Li updates the page 2) Ken drafts the email"), ["Li updates the page", "Ken drafts the email"])
        XCTAssertEqual(Sentences.split("- first\n- second"), ["first", "second"])
    }

    func testTextPeopleReallyType() {
        // Curly apostrophes, accents, CJK, emoji with skin tone and ZWJ, RTL text: no crash, same rules.
        XCTAssertEqual(judge("I’ll send the café menu 東京 👍🏽 by Friday").actions.first?.who, "omar")
        XCTAssertEqual(judge("👩‍💻 שלום").actions, [])
        XCTAssertEqual(judge(String(repeating: "long line ", count: 5000)).actions, [])
        XCTAssertEqual(judge("").actions, [])
    }

    func testEvaluationLineInAndOut() throws {
        let line = #"{"id": "x1", "context": [{"from": "maya", "text": "The 2.3 hotfix branch is cut."}], "from": "omar", "to": ["maya"], "text": "Could you tag it by 5pm?"}"#
        let out = try EvaluationFormat.predict(line, engine: engine)
        XCTAssertEqual(out["id"] as? String, "x1")
        XCTAssertEqual(out["engine"] as? String, "local")
        XCTAssertEqual((out["actions"] as? [[String: Any]])?.first?["due"] as? String, "5pm")
        XCTAssertThrowsError(try EvaluationFormat.predict("not json", engine: engine))
    }

    /// A number that ends the line after "at"/"to" belongs to the sentence; one that opens an item still splits.
    func testANumberEndingTheLineAfterAWordThatNeedsItIsNoListMarker() {
        XCTAssertEqual(Sentences.split("Raise the pool to 60 and cap retries at 2."), ["Raise the pool to 60 and cap retries at 2."])
        XCTAssertEqual(Sentences.split("Raise the pool to 60 and cap retries at 2.").first, Sentences.splitCharacters("Raise the pool to 60 and cap retries at 2.").first)
        XCTAssertEqual(Sentences.split("Plan: 1. Li updates the dashboard 2. Omar books the room"), ["Plan:", "Li updates the dashboard", "Omar books the room"])
    }

    /// Inside a line too: "3 to 1." is the count of a vote, and the sentence ends there (a summary
    /// showed "Redis wins 3 to; Redis for ..."); a marker after a word that does not need a number, or
    /// a ")" marker, still opens an item.
    func testANumberWithAFullStopAfterAWordThatNeedsItEndsTheSentenceMidLine() {
        let text = "Redis wins 3 to 1. Redis for the session cache."
        XCTAssertEqual(Sentences.split(text), ["Redis wins 3 to 1.", "Redis for the session cache."])
        XCTAssertEqual(Sentences.split(text), Sentences.splitCharacters(text))
        XCTAssertEqual(Sentences.split("Steps: 1. build the image 2. push it"), ["Steps:", "build the image", "push it"])
        XCTAssertEqual(Sentences.split("Order goes to 1) Li 2) Omar"), ["Order goes to", "Li", "Omar"])
    }
}
