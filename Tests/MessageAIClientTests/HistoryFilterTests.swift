import XCTest
@testable import MessageAIClient

final class HistoryFilterTests: XCTestCase {
    func testPasswordsNeverReachTheHistoryFile() {
        XCTAssertEqual(HistoryFilter.entry(for: "/login alice s3cret-pass"), "/login alice")
        XCTAssertEqual(HistoryFilter.entry(for: "/register a@x.io alice s3cret-pass Alice A"), "/register a@x.io alice")
        XCTAssertEqual(HistoryFilter.entry(for: "/passwd old-secret new-secret"), "/passwd")
        XCTAssertEqual(HistoryFilter.entry(for: "/LOGIN  alice   s3cret-pass"), "/LOGIN alice")
    }

    func testOtherLinesAreKeptAsTyped() {
        XCTAssertEqual(HistoryFilter.entry(for: "/dm bob"), "/dm bob")
        XCTAssertEqual(HistoryFilter.entry(for: "my password policy is  strict"), "my password policy is  strict")
    }
}
