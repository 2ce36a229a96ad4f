@testable import MessageAIAssistant
import XCTest

/// Issue 28, 0.5.5: predictions about a person that name no work, beside look-alikes. Messages
/// made up here, none from a labelled set.
final class ActionHappeningsTests: XCTestCase {
    let people = ["ana", "ben", "cy"]

    func items(_ text: String, from: String = "ana") -> [String] {
        judge(text, to: people.filter { $0 != from }, from: from).actions.map { "\($0.who): \($0.what)" }
    }

    func testAPredictionAboutSomeoneIsNoWork() {
        XCTAssertEqual(items("do we record the calls? ben will miss the first one"), [])
        XCTAssertEqual(items("I'll forget otherwise, so I'm writing it down"), [])
        // Work told beside the prediction is still work.
        XCTAssertEqual(items("ben will miss the first call. I'll send ben the recording tomorrow"), ["ana: send ben the recording"])
    }
}
