import XCTest

/// Offline-first behaviour with a real server that stops, restarts, and a client killed -9.
final class OfflineTests: ServerBackedTestCase {
    override class var directoryName: String { "offline" }

    private func outboxEntries(_ user: String) -> [[String: Any]] {
        guard let d = FileManager.default.contents(atPath: clients.dir(user) + "/accounts/\(user)/outbox.json"),
              let obj = try? JSONSerialization.jsonObject(with: d) as? [String: Any] else { return [] }
        return obj["entries"] as? [[String: Any]] ?? []
    }

    private func historyTexts(_ user: String, with other: String) throws -> [(seq: Int, text: String)] {
        let r = try clients.run(user, ["/dm \(other)", "/history 500"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        let page = try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "history" })
        return (page["messages"] as? [[String: Any]] ?? []).map { ($0["seq"] as? Int ?? -1, $0["text"] as? String ?? "") }
    }

    func testHistoryListAndFindWorkWithTheServerStoppedAndSendingQueues() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "before the outage", "/wait sent"]).status, 0)
        XCTAssertEqual(try clients.run("bob", ["/dm alice", "seen it"]).status, 0)
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "/wait-messages 2"]).status, 0)
        server.stop()

        let r = try clients.run("alice", ["/open bob", "/history", "/find outage", "/list", "written offline", "/queue"],
                                extra: ["--drain-timeout", "0.5"])
        XCTAssertNotEqual(r.status, 0, "a message is left queued")
        XCTAssertTrue(r.err.contains("1 message(s) still queued"), r.err)
        XCTAssertTrue(r.out.contains("alice: before the outage"), r.out + r.err)
        XCTAssertTrue(r.out.contains("bob: seen it"), r.out)
        XCTAssertTrue(r.out.contains("[bob] written offline (sending)"), r.out)
        XCTAssertEqual(outboxEntries("alice").compactMap { $0["text"] as? String }, ["written offline"])

        try server.start(port: server.port)
        let drain = try clients.run("alice", [])
        XCTAssertEqual(drain.status, 0, drain.err)
        XCTAssertTrue(outboxEntries("alice").isEmpty)
        XCTAssertEqual(try historyTexts("bob", with: "alice").map(\.text), ["before the outage", "seen it", "written offline"])
    }

    /// Messages queued behind the rate limit survive kill -9 of the client and are stored once
    /// each, in order, when a new client process drains the outbox.
    func testOutboxSurvivesKill9AndDrainsExactlyOnceInOrder() throws {
        server.stop()
        try server.start(port: 0, extra: ["--rate-limit", "5", "--rate-window", "600"])
        try clients.register("alice", "bob")
        let texts = (1...15).map { "numbered message \($0)" }
        let alice = try clients.start("alice")
        alice.send("/dm bob")
        for t in texts { alice.send(t) }
        alice.waitForStdout("(sending)", count: texts.count)
        // The client paces its sends to the limit WELCOME announced: the rest wait in the outbox.
        alice.waitForStdout("sending at the server's rate limit (5 messages per 10 min)")
        alice.kill9()
        let left = outboxEntries("alice")
        XCTAssertGreaterThan(left.count, 0, "the rate limit holds messages in the outbox")
        XCTAssertEqual(left.compactMap { $0["text"] as? String }, Array(texts.suffix(left.count)), "the outbox keeps the order")

        server.stop()
        try server.start(port: server.port, extra: [])
        let drain = try clients.run("alice", [])
        XCTAssertEqual(drain.status, 0, drain.err)
        XCTAssertTrue(outboxEntries("alice").isEmpty)
        let history = try historyTexts("bob", with: "alice")
        XCTAssertEqual(history.map(\.text), texts, "each message exactly once, in the order typed")
        XCTAssertEqual(history.map(\.seq), Array(1...texts.count))
    }

    /// Kill -9 while messages are in flight, at a random moment; the restarted client sends
    /// whatever was not acknowledged and nothing is stored twice.
    func testKill9WhileSendingNeverDuplicates() throws {
        try clients.register("alice", "bob")
        let texts = (1...40).map { "burst \($0)" }
        let alice = try clients.start("alice")
        alice.send("/dm bob")
        for t in texts { alice.send(t) }
        alice.waitForStdout("(sending)", count: texts.count)
        alice.kill9()
        let drain = try clients.run("alice", [])
        XCTAssertEqual(drain.status, 0, drain.err)
        XCTAssertEqual(try historyTexts("bob", with: "alice").map(\.text), texts)
    }

    func testReconnectsAfterServerRestartAndKeepsReceiving() throws {
        try clients.register("alice", "bob")
        try clients.makeContacts("alice", "bob") // a stranger's DM is a request: no read markers
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "first"]).status, 0)
        let bob = try clients.start("bob")
        bob.send("/dm alice")
        bob.send("/follow")
        bob.waitForStdout("now in [alice]")

        server.stop()
        bob.waitForStdout("* connection lost")
        let restarted = Date()
        try server.start(port: server.port)
        bob.waitForStdout("* connected to", count: 2, timeout: 10)
        let reconnect = Date().timeIntervalSince(restarted)
        print("reconnected \(String(format: "%.2f", reconnect)) s after the server was back")

        XCTAssertEqual(try clients.run("alice", ["/dm bob", "after the restart", "/wait read 10"]).status, 0)
        bob.waitForStdout("alice: after the restart")
        bob.closeInput()
        XCTAssertEqual(bob.waitExit(), 0, bob.stderr)
    }

    func testMessagesMissedWhileAwayArriveOnNextStartSummarisedWhenMany() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("bob", ["/dm alice"]).status, 0)
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "one", "two", "three", "four", "five"]).status, 0)
        let r = try clients.run("bob", ["/list", "/open alice", "/wait-messages 5 5"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("alice: 5 new messages"), r.out)
        XCTAssertFalse(r.out.contains("alice: three"), "a catch-up does not replay a flood")
        XCTAssertTrue(r.out.contains("[alice] (5 unread) five"), r.out)
    }
}

extension OfflineTests {
    /// Older pages of history, online from the server and offline from the cache alike.
    func testHistoryPagesBackwardsOnlineAndOffline() throws {
        try clients.register("alice", "bob")
        let texts = (1...30).map { "page test \($0)" }
        XCTAssertEqual(try clients.run("alice", ["/dm bob"] + texts + ["/wait sent"]).status, 0)
        func page(_ args: String) throws -> [Int] {
            let r = try clients.run("bob", ["/open alice", "/history \(args)"], json: true)
            XCTAssertEqual(r.status, 0, r.err)
            let h = try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "history" })
            return (h["messages"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int }
        }
        XCTAssertEqual(try page("10"), Array(21...30))
        XCTAssertEqual(try page("10 before 21"), Array(11...20))
        server.stop()
        XCTAssertEqual(try page("10 before 11"), Array(1...10))
        XCTAssertEqual(try page("before 3"), [1, 2])
        let bad = try clients.run("bob", ["/open alice", "/history 10 after 3"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.err.contains("usage: /history"), bad.err)
    }
}
