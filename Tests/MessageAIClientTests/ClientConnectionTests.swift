import XCTest

/// Keepalive, dead-link detection and groups, against a real server process.
final class ClientConnectionTests: ServerBackedTestCase {
    override class var directoryName: String { "conn" }
    override class var serverArguments: [String] { ["--ping-interval", "0.3", "--idle-timeout", "1.5"] }

    /// With a 1.5 s idle timeout the client's pings keep a quiet connection open; a frozen
    /// server (SIGSTOP) is detected as a dead link and the client reconnects once it thaws.
    func testPingsKeepTheLinkAndAFrozenServerIsDetectedAsDead() throws {
        try clients.register("alice", "bob")
        let bob = try clients.start("bob")
        bob.send("/dm alice")
        bob.send("/follow")
        bob.waitForStdout("now in [alice]")
        let alice = try clients.run("alice", ["/dm bob", "still here after a quiet while?"], extra: [])
        XCTAssertEqual(alice.status, 0, alice.err)
        bob.waitForStdout("alice: still here after a quiet while?")
        // A deliberate quiet period of over two idle timeouts (what is tested, not a way to
        // wait for something): the server closes a link that sends nothing for 1.5 s.
        Thread.sleep(forTimeInterval: 4)
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "three seconds later"]).status, 0)
        bob.waitForStdout("alice: three seconds later")
        XCTAssertFalse(bob.stdout.contains("connection lost"), bob.stdout)

        let serverPid = try XCTUnwrap(server.child?.pid)
        kill(serverPid, SIGSTOP)
        bob.waitForStdout("dead link", timeout: 10)
        kill(serverPid, SIGCONT)
        bob.waitForStdout("* connected to", count: 2, timeout: 15)
        bob.closeInput()
        XCTAssertEqual(bob.waitExit(), 0, bob.stderr)
    }

    func testGroupMessageReadByEveryMemberShowsInInfo() throws {
        try clients.register("alice", "bob", "carol")
        let created = try clients.run("alice", ["/group create Team bob carol", "standup in 5", "/group members"], json: true)
        XCTAssertEqual(created.status, 0, created.err)
        let members = try XCTUnwrap(jsonLines(created.out).first { $0["type"] as? String == "members" })
        XCTAssertEqual(((members["members"] as? [[String: Any]]) ?? []).compactMap { $0["username"] as? String }, ["alice", "bob", "carol"])

        XCTAssertEqual(try clients.run("bob", ["/open team"]).status, 0)
        var info = try clients.run("alice", ["/open Team", "/info"], json: true)
        var row = try XCTUnwrap(jsonLines(info.out).first { $0["type"] as? String == "info" })
        XCTAssertEqual(row["recipient_count"] as? Int, 2)
        XCTAssertEqual(row["read_by"] as? [String], ["bob"])
        XCTAssertEqual(row["state"] as? String, "sent", "a group message is read when every member read it")

        XCTAssertEqual(try clients.run("carol", ["/list", "/open Team", "/history"]).status, 0)
        info = try clients.run("alice", ["/open Team", "/wait read 5", "/info"], json: true)
        XCTAssertEqual(info.status, 0, info.err)
        row = try XCTUnwrap(jsonLines(info.out).first { $0["type"] as? String == "info" })
        XCTAssertEqual(Set(row["read_by"] as? [String] ?? []), ["bob", "carol"])
        XCTAssertEqual(row["state"] as? String, "read")
    }
}
