import XCTest
@testable import MessageAIClient

/// A script longer than the server's rate limit: the client paces its sends to the limit
/// WELCOME announces and finishes, slower, with every message sent once and in order.
final class PacingTests: ServerBackedTestCase {
    override class var directoryName: String { "pacing" }
    /// 4 messages a second: a 48-line script needs about 11 s past the first 4. The limit is
    /// low so that the client must pace even when it is slow: under ASan on a loaded machine it
    /// sent about 11 a second, under the 20 a second this test used, and never had to wait.
    override class var serverArguments: [String] { ["--rate-limit", "4", "--rate-window", "1"] }

    func testAScriptLongerThanTheRateLimitFinishesAtTheServersPaceInsteadOfFailing() throws {
        try clients.register("alice", "bob")
        let texts = (1...48).map { "line \($0) of the script, café 東京" }
        // --drain-timeout 2 is far shorter than the ~11 s the limit imposes: only pacing, and a
        // drain wait that counts from the last progress, let the script end well.
        let started = Date()
        let r = try clients.run("alice", ["/dm bob"] + texts, json: true, extra: ["--drain-timeout", "2"], timeout: 90)
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(r.status, 0, "the script must finish, slower: \(r.err.suffix(600))")
        let lines = jsonLines(r.out)
        let sent = lines.filter { $0["type"] as? String == "state" && $0["state"] as? String == "sent" }
        XCTAssertEqual(sent.count, texts.count)
        XCTAssertFalse(r.out.contains("rate limited") || r.err.contains("rate limited"),
                       "paced sends do not meet the server's limit: \(r.err.suffix(300))")
        XCTAssertFalse(r.err.contains("still queued"), r.err)
        let paced = lines.filter { ($0["text"] as? String)?.hasPrefix("sending at the server's rate limit (4 messages per 1 s)") == true }
        XCTAssertEqual(paced.count, 1, "the wait is explained once, not per message")
        print("\(texts.count) paced sends at 4/s took \(String(format: "%.1f", took)) s")

        // bob has them all, once each, in the order they were typed.
        let b = try clients.run("bob", ["/dm alice", "/history 200"], json: true)
        XCTAssertEqual(b.status, 0, b.err)
        let history = try XCTUnwrap(jsonLines(b.out).last { $0["type"] as? String == "history" })
        let got = (history["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertEqual(got, texts)
    }
    // An unreachable server still ends a script after --drain-timeout: OfflineTests.
}

/// The pacer alone, against a clock the test moves.
final class SendPacerTests: XCTestCase {
    func testThePacerLetsABurstThroughThenSpacesSendsAtTheAnnouncedRate() {
        var pacer = SendPacer()
        XCTAssertNil(pacer.take(now: 0), "no limit announced: never waits")
        pacer.configure(limit: 5, windowMs: 1_000, now: 1_000)
        for _ in 0..<5 { XCTAssertNil(pacer.take(now: 1_000)) }
        let wait = try? XCTUnwrap(pacer.take(now: 1_000))
        // One token every 200 ms, 2 % slower on purpose.
        XCTAssertEqual(wait, 205)
        XCTAssertNotNil(pacer.take(now: 1_100))
        XCTAssertNil(pacer.take(now: 1_300))
        pacer.configure(limit: 5, windowMs: 1_000, now: 2_000)
        XCTAssertNotNil(pacer.take(now: 1_301), "the same figures again do not refill the bucket")
    }
}
