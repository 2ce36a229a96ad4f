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

    /// What /find returns in `out` for each query: (text, state) per row, in order.
    private func found(_ out: String) -> [[String]] {
        jsonLines(out).filter { $0["type"] as? String == "search" }.map { result in
            (result["messages"] as? [[String: Any]] ?? []).map { ($0["text"] as? String ?? "?") + (($0["state"] as? String).map { " [\($0)]" } ?? "") }
        }
    }

    /// The same words find the same messages with the server and without it (the cache's own
    /// FTS5 index, the server's rules): accents and case folded, any order, the last word a
    /// prefix, CJK. Offline, a message still in the outbox is found too, first and marked.
    func testFindAnswersTheSameOfflineAsOnlineAndFindsQueuedMessages() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "Café au lait à Tōkyō", "deploy on friday", "東京 meeting", "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("bob", ["/dm alice", "FRIDAY works for the déploiement", "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "/wait-messages 4"]).status, 0)
        let queries = ["cafe TOKYO", "friday deploy", "fri", "東京", "lait café", "nothing-like-this", "fri*day OR \""]
        let online = try clients.run("alice", queries.map { "/find " + $0 }, json: true)
        XCTAssertEqual(online.status, 0, online.err)
        let expected = [["Café au lait à Tōkyō"], ["deploy on friday"], ["FRIDAY works for the déploiement", "deploy on friday"],
                        ["東京 meeting"], ["Café au lait à Tōkyō"], [], []]
        XCTAssertEqual(found(online.out), expected)

        server.stop()
        let offline = try clients.run("alice", ["/open bob", "friday, queued while offline"] + queries.map { "/find " + $0 },
                                      json: true, extra: ["--drain-timeout", "0.5"])
        XCTAssertNotEqual(offline.status, 0, "the message stays queued")
        var withQueued = expected
        withQueued[2].insert("friday, queued while offline [sending]", at: 0)
        XCTAssertEqual(found(offline.out), withQueued)

        let plain = try clients.run("alice", ["/find fri"], extra: ["--drain-timeout", "0.5"])
        XCTAssertTrue(plain.out.contains("alice: friday, queued while offline (queued)"), plain.out)
        XCTAssertTrue(plain.out.contains("bob: FRIDAY works for the déploiement"), plain.out)
    }

    /// Issue 24: `/find テスト` did not find `日本語のテスト`, online or offline. Both cut CJK and
    /// Thai runs into the same overlapping pairs (SearchWords), so both find it.
    func testFindsWordsInsideCJKTextOnlineAndOffline() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "日本語のテスト", "北京和上海的天气", "ภาษาไทยง่ายมาก", "/wait sent"]).status, 0)
        let queries = ["テスト", "上海", "ไทย", "气", "語テ"]
        let expected = [["日本語のテスト"], ["北京和上海的天气"], ["ภาษาไทยง่ายมาก"], ["北京和上海的天气"], []]
        let online = try clients.run("alice", queries.map { "/find " + $0 }, json: true)
        XCTAssertEqual(online.status, 0, online.err)
        XCTAssertEqual(found(online.out), expected, "online")
        server.stop()
        let offline = try clients.run("alice", queries.map { "/find " + $0 }, json: true)
        XCTAssertEqual(found(offline.out), expected, "offline, from the cache")
    }
}
