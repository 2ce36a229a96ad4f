@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.5: asks to several members by @mentions in a row, and predictions about a person
/// that name no work, each beside look-alikes. Messages made up here, none from a labelled set.
final class OwnerMentionsTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func items(_ text: String, from: String = "ana") -> [String] {
        judge(text, to: people.filter { $0 != from }, from: from).actions.map { "\($0.who): \($0.what)" }
    }

    func testMentionsInARowAskTheGroupAndTheWorkStartsAtTheVerb() {
        XCTAssertEqual(items("PR #12 is up. @ben @cy can you review the retry change today?"), ["recipient: review the retry change"])
        // One mention asks that member, as before.
        XCTAssertEqual(items("PR #12 is up. @cy can you review the retry change today?"), ["cy: review the retry change"])
        // A mention that ends its sentence before the next one does not join it.
        XCTAssertEqual(items("thanks @ben. @cy can you review the retry change today?"), ["cy: review the retry change"])
    }

    func testAPredictionAboutSomeoneIsNoWork() {
        XCTAssertEqual(items("do we record the calls? ben will miss the first one"), [])
        XCTAssertEqual(items("I'll forget otherwise, so I'm writing it down"), [])
        // Work told beside the prediction is still work.
        XCTAssertEqual(items("ben will miss the first call. I'll send ben the recording tomorrow"), ["ana: send ben the recording"])
    }
}
