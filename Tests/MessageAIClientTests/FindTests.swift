import XCTest

/// /find online is the server's full-text search: words in any order, newest first, across the
/// user's conversations (the offline substring search is covered by OfflineTests).
final class FindTests: ServerBackedTestCase {
    override class var directoryName: String { "find" }

    func testFindOnlineMatchesWordsInAnyOrderNewestFirst() throws {
        try clients.register("alice", "bob", "carol")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "deploy on friday", "lunch?", "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("alice", ["/dm carol", "friday we deploy again", "/wait sent"]).status, 0)

        let r = try clients.run("alice", ["/find friday deploy"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let result = try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "search" }, r.out)
        let found = try XCTUnwrap(result["messages"] as? [[String: Any]])
        XCTAssertEqual(found.compactMap { $0["text"] as? String }, ["friday we deploy again", "deploy on friday"])
        XCTAssertEqual(found.compactMap { $0["conversation"] as? String }, ["carol", "bob"])

        let none = try clients.run("alice", ["/find friday lunch"], json: true)
        let empty = try XCTUnwrap(jsonLines(none.out).first { $0["type"] as? String == "search" })
        XCTAssertEqual((empty["messages"] as? [Any])?.count, 0, "every word must match")
    }
}
