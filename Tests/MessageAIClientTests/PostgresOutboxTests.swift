import Foundation
import XCTest

/// The real client against a server on PostgreSQL (issue 25) while the database is stopped and
/// started again: its SENDs are refused with 77 `database_unavailable`, the outbox keeps them
/// and sends them again with backoff, the person is told once, and the conversation ends up
/// with every message once, in the order typed.
final class PostgresOutboxTests: PostgresBackedTestCase {
    override class var directoryName: String { "pg-outbox" }
    override class var serverArguments: [String] { ["--database", databaseURL, "--rate-limit", "100000"] }

    func testMessagesTypedWhileTheDatabaseIsDownAreSentOnceItIsBack() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        try clients.register("alice", "bob")
        let alice = try clients.start("alice", json: true)
        alice.send("/dm bob")
        func sent() -> Int {
            jsonLines(alice.stdout).filter { $0["type"] as? String == "state" && $0["state"] as? String == "sent" }.count
        }
        let texts = (0..<30).map { "message \($0) café 東京" }
        for text in texts.prefix(10) { alice.send(text) }
        eventually(30, "the first 10 sent") { sent() >= 10 }

        cluster.pause()
        for text in texts.dropFirst(10) { alice.send(text) }
        eventually(60, "the client tells of the database; stderr: \(alice.stderr.suffix(400))") {
            (alice.stdout + alice.stderr).contains("database unavailable, will retry")
        }
        XCTAssertEqual(sent(), 10, "nothing is acknowledged while the database is down")
        try cluster.resume()
        eventually(120, "all 30 sent after the restart; stderr: \(alice.stderr.suffix(400))") { sent() >= 30 }
        alice.closeInput()
        XCTAssertEqual(alice.waitExit(timeout: 60), 0, alice.stderr)
        let told = (alice.stdout + alice.stderr).components(separatedBy: "database unavailable, will retry").count - 1
        XCTAssertEqual(told, 1, "told once, not per message or per retry")
        XCTAssertEqual(sent(), 30, "each message acknowledged once")

        let b = try clients.run("bob", ["/dm alice", "/history 100"], json: true)
        XCTAssertEqual(b.status, 0, b.err)
        let history = try XCTUnwrap(jsonLines(b.out).last { $0["type"] as? String == "history" })
        let got = (history["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertEqual(got, texts, "every message once, in the order typed")
    }
}
