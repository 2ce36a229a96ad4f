import Foundation
@testable import MessageAIClient
import XCTest

/// Who has which profile picture, kept beside the store so a header shows it offline.
final class AvatarBookTests: XCTestCase {
    func testRemembersChangesAndSurvivesARestart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("avatars-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/avatars.json"
        var book = AvatarBook(path: path)
        XCTAssertNil(book.id(of: "Zoë"))
        XCTAssertTrue(book.remember("Zoë", Array(0xb0...0xbf)), "a first picture is news")
        XCTAssertFalse(book.remember("ZOË", Array(0xb0...0xbf)), "the same picture again is not (names fold case)")
        XCTAssertFalse(book.remember("bob", []), "no picture where none was known is not news")
        XCTAssertEqual(AvatarBook(path: path).id(of: "zoë"), "b0b1b2b3b4b5b6b7b8b9babbbcbdbebf", "read back after a restart")
        XCTAssertTrue(book.remember("zoë", []), "a removal is news")
        XCTAssertNil(AvatarBook(path: path).id(of: "zoë"))
        // A damaged file is an empty book, not a failure: it refills from the next contact list.
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(AvatarBook(path: path).id(of: "zoë"))
    }
}
