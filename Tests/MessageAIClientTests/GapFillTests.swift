import Foundation
import XCTest
@testable import MessageAIClient

/// Issue 26: a client that sees a hole in a conversation's seqs fills it with a SYNC instead of
/// moving its position past it. Two server nodes on one PostgreSQL database make the hole for
/// real: a message committed through node 2 reaches node 1 only once node 1 has read the event
/// log, so node 1's clients may see the next seq first, live or in their own ack.
final class GapFillTests: PostgresBackedTestCase {
    override class var directoryName: String { "gapfill" }
    override class var serverArguments: [String] { ["--database", databaseURL, "--rate-limit", "100000", "--plaintext"] }

    private func messages(_ c: Child) -> [[String: Any]] {
        jsonLines(c.stdout).filter { $0["type"] as? String == "message" }
    }

    /// carol (node 1, online) gets alice's message pushed right after bob's went through node 2:
    /// she shows bob's first, filled by a sync, then alice's, each once, in seq order. alice,
    /// online on node 1 too, gets an ack past bob's message and fills that hole the same way.
    func testAHoleInLivePushesOrAcksIsFilledInSeqOrder() throws {
        let node2 = try ServerProcess(dataDir: root + "/node2", extraArgs: Self.serverArguments)
        defer { node2.stop() }
        try clients.register("alice", "bob", "carol")
        XCTAssertEqual(try clients.run("alice", ["/group create team bob carol", "first from alice"]).status, 0)
        let carol = try clients.start("carol", json: true)
        let alice = try clients.start("alice", json: true)
        for c in [carol, alice] {
            c.send("/open team")
            eventually(20, "online and in the group: \(c.stderr)") { jsonLines(c.stdout).contains { $0["type"] as? String == "ok" && ($0["command"] as? String ?? "").hasPrefix("/open") } }
        }

        let onNode2 = ClientRunner(server: node2, root: root)
        let bob = try onNode2.run("bob", ["/open team", "bob through node two"], json: true)
        XCTAssertEqual(bob.status, 0, bob.err)
        XCTAssertTrue(jsonLines(bob.out).contains { $0["type"] as? String == "state" && $0["state"] as? String == "sent" }, bob.out)

        alice.send("alice after the hole")
        eventually(20, "carol gets both; stdout: \(carol.stdout.suffix(600))") { self.messages(carol).count >= 3 }
        eventually(20, "alice fills the hole behind her ack; stdout: \(alice.stdout.suffix(600))") {
            self.messages(alice).contains { $0["text"] as? String == "bob through node two" }
        }
        carol.closeInput()
        alice.closeInput()
        XCTAssertEqual(carol.waitExit(), 0, carol.stderr)
        XCTAssertEqual(alice.waitExit(), 0, alice.stderr)

        let seen = messages(carol).filter { $0["conversation"] as? String == "team" }
        XCTAssertEqual(seen.compactMap { $0["text"] as? String }, ["first from alice", "bob through node two", "alice after the hole"])
        XCTAssertEqual(seen.compactMap { $0["seq"] as? Int }, [1, 2, 3], "each once, in seq order")
        // bob's came by the fill (or by a push once nodes share an event log); alice's, pushed
        // behind the hole, was held and came with the fill or after it, never twice.
        XCTAssertTrue(seen.dropFirst().allSatisfy { ["gap", "live"].contains($0["via"] as? String ?? "") }, "\(seen)")

        let filled = messages(alice).filter { $0["text"] as? String == "bob through node two" }
        XCTAssertEqual(filled.count, 1)
        XCTAssertEqual(filled.first?["seq"] as? Int, 2)

        let history = try clients.run("carol", ["/open team", "/history 10"], json: true)
        let rows = try XCTUnwrap(jsonLines(history.out).last { $0["type"] as? String == "history" }?["messages"] as? [[String: Any]])
        XCTAssertEqual(rows.compactMap { $0["seq"] as? Int }, [1, 2, 3])
    }

    /// Added to a group with a history, dave's first push is seq 4 with nothing held: the fill
    /// brings 1-3 as history (in his cache, no line, no notification) and 4 as news.
    func testAMemberAddedToAGroupGetsItsHistoryQuietly() throws {
        try clients.register("alice", "bob", "carol", "dave")
        XCTAssertEqual(try clients.run("alice", ["/group create team bob carol", "old one", "old two", "old three"]).status, 0)
        let dave = try clients.start("dave")
        dave.send("/whoami")
        dave.waitForStdout("dave")
        XCTAssertEqual(try clients.run("alice", ["/open team", "/group add dave", "welcome dave"]).status, 0)
        dave.waitForStdout("welcome dave")
        dave.send("/open team")
        dave.send("/history 10")
        dave.waitForStdout("old three", count: 1)
        dave.closeInput()
        XCTAssertEqual(dave.waitExit(), 0, dave.stderr)
        let beforeOpen = dave.stdout.components(separatedBy: "welcome dave").first ?? ""
        XCTAssertFalse(beforeOpen.contains("old one"), "history is not shown as news:\n\(dave.stdout)")
        let history = try XCTUnwrap(dave.stdout.range(of: "now in [team]").map { String(dave.stdout[$0.upperBound...]) }, dave.stdout)
        for text in ["old one", "old two", "old three", "welcome dave"] { XCTAssertTrue(history.contains(text), text + " in:\n" + history) }
    }

    /// `--server` with several addresses: a dead one in the list is skipped, and the client
    /// names the node it is connected to.
    func testSeveralAddressesSkipADeadNode() throws {
        let dead = try freePort()
        try clients.register("dave")
        for _ in 0..<3 {
            // Whichever address the random start picks, the client ends on the live one.
            let r = try clients.run("dave", ["/server"], json: true, extra: ["--server", "127.0.0.1:\(dead),\(server.address)"])
            XCTAssertEqual(r.status, 0, r.err)
            let online = jsonLines(r.out).first { $0["type"] as? String == "connection" && $0["state"] as? String == "online" }
            XCTAssertEqual(online?["server"] as? String, server.address, r.out)
            let shown = try XCTUnwrap(jsonLines(r.out).first { $0["type"] as? String == "server" })
            XCTAssertEqual(shown["address"] as? String, server.address)
            XCTAssertEqual(shown["addresses"] as? [String], ["127.0.0.1:\(dead)", server.address])
        }
    }

    func testServerListParsing() {
        XCTAssertEqual(ServerAddress.parseList("a:1, b:2,a:1"), [ServerAddress(host: "a", port: 1), ServerAddress(host: "b", port: 2)])
        XCTAssertEqual(ServerAddress.parseList("[::1]:7878")?.first?.description, "[::1]:7878")
        XCTAssertNil(ServerAddress.parseList("a:1,"))
        XCTAssertNil(ServerAddress.parseList("a"))
        XCTAssertNil(ServerAddress.parseList(""))
    }
}
