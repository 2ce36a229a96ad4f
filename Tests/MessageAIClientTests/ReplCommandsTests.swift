import Foundation
import XCTest
@testable import MessageAIClient

/// The text rules behind /me, /mentions and the prompt's "seen 5m ago".
final class ReplCommandsTests: XCTestCase {
    func testActionsAndMentions() {
        XCTAssertEqual(Action.of("/me waves 👋🏽"), "waves 👋🏽")
        XCTAssertNil(Action.of("/me "))
        XCTAssertNil(Action.of("/meh"))
        XCTAssertNil(Action.of("me waves"))
        XCTAssertTrue(Mention.matches("@alice are you there?", "alice"))
        XCTAssertTrue(Mention.matches("ask Alice.", "alice"))
        XCTAssertTrue(Mention.matches("thanks al.ice", "al.ice"))
        XCTAssertFalse(Mention.matches("malice aforethought", "alice"))
        XCTAssertFalse(Mention.matches("alice_b said", "alice"))
        XCTAssertEqual(RelativeTime.ago(1_000, now: 31_000), "just now")
        XCTAssertEqual(RelativeTime.ago(0, now: 5 * 60_000 + 10), "5m ago")
        XCTAssertEqual(RelativeTime.ago(0, now: 3 * 3_600_000), "3h ago")
        XCTAssertEqual(RelativeTime.ago(0, now: 2 * 86_400_000), "2d ago")
    }
}
