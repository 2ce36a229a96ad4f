import XCTest

/// The client as scripts drive it: real server process, real client processes, pipes.
final class PipedModeTests: ServerBackedTestCase {
    override class var directoryName: String { "piped" }

    func testTwoClientsExchangeMessagesInPlainAndJSONMode() throws {
        try clients.register("alice", "bob")
        let bob = try clients.start("bob", json: true)
        bob.send("/dm alice")
        bob.send("/follow")
        bob.waitForStdout(#""command":"/dm""#)

        let alice = try clients.run("alice", ["/dm bob", "hello bob", "/wait read 10"])
        XCTAssertEqual(alice.status, 0, alice.err)
        XCTAssertTrue(alice.out.contains("alice: hello bob (sending)"), alice.out)
        XCTAssertTrue(alice.out.contains("read: hello bob"), alice.out)

        bob.waitForStdout(#""text":"hello bob""#)
        let message = try XCTUnwrap(jsonLines(bob.stdout).first { $0["type"] as? String == "message" })
        XCTAssertEqual(message["conversation"] as? String, "alice")
        XCTAssertEqual(message["sender"] as? String, "alice")
        XCTAssertEqual(message["seq"] as? Int, 1)
        XCTAssertEqual((message["client_id"] as? String)?.count, 32)
        XCTAssertGreaterThan(message["server_time"] as? Int ?? 0, 1_600_000_000_000)

        bob.send("hi alice")
        bob.closeInput()
        XCTAssertEqual(bob.waitExit(), 0, bob.stderr)
        let states = jsonLines(bob.stdout).filter { $0["type"] as? String == "state" }.compactMap { $0["state"] as? String }
        XCTAssertEqual(Array(states.prefix(2)), ["sending", "sent"])
        XCTAssertTrue(jsonLines(bob.stdout).allSatisfy { $0["type"] is String }, "every JSON line has a type")

        let back = try clients.run("alice", ["/dm bob", "/history"])
        XCTAssertEqual(back.status, 0, back.err)
        // /history starts with a date separator (the sync may print bob's reply before it).
        let lines = back.out.split(separator: "\n").drop { !$0.hasPrefix("--- ") }
        let hello = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("alice: hello bob (read)") }, back.out)
        let reply = try XCTUnwrap(lines.firstIndex { $0.hasSuffix("bob: hi alice") }, back.out)
        XCTAssertLessThan(hello, reply)
        XCTAssertNotNil(lines[reply].range(of: #"^\[bob\] \d\d:\d\d bob: hi alice$"#, options: .regularExpression))
    }

    func testBadLinesFailTheExitStatusButTheScriptCarriesOn() throws {
        try clients.register("alice")
        let r = try clients.run("alice", ["/nonsense", "/history 0", "/dm", "/whoami"], json: true)
        XCTAssertNotEqual(r.status, 0)
        let errors = jsonLines(r.out).filter { $0["type"] as? String == "error" }
        XCTAssertEqual(errors.compactMap { $0["code"] as? String }, ["unknown_command", "usage", "usage"])
        XCTAssertEqual(jsonLines(r.out).first { $0["type"] as? String == "whoami" }?["username"] as? String, "alice")
        XCTAssertTrue(r.err.contains("unknown command /nonsense"), r.err)
    }

    func testWaitTimesOutWithNonZeroExitWhenNobodyReads() throws {
        try clients.register("alice", "bob")
        let r = try clients.run("alice", ["/dm bob", "anyone?", "/wait read 1"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("not yet read"), r.err)
        XCTAssertTrue(r.out.contains("sent: anyone?"), r.out)
    }

    func testSavedSessionResumesWithoutPasswordAndIsOwnerOnly() throws {
        try clients.register("alice")
        var st = stat()
        XCTAssertEqual(stat(clients.dir("alice") + "/session.json", &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o600)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: clients.dir("alice") + "/session.json"))
        let token = try XCTUnwrap((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["token"] as? String)
        XCTAssertEqual(token.count, 64)
        let r = try clients.run("alice", ["/whoami", "/profile"], json: true)
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertEqual(jsonLines(r.out).first { $0["type"] as? String == "profile" }?["username"] as? String, "alice")
        XCTAssertFalse(r.out.contains(token) || r.err.contains(token), "the token is never printed")
    }
}

extension PipedModeTests {
    /// A message outside the current conversation runs --notify-command with the text as one
    /// argument: shell syntax in the message stays text.
    func testNotifyCommandGetsTheTextAsOneArgumentWithoutAShell() throws {
        try clients.register("alice", "bob")
        let root: String = self.root
        let log = root + "/notified.txt"
        let script = root + "/notify.sh"
        try "#!/bin/sh\nprintf '%s|%s\\n' \"$#\" \"$1\" >> '\(log)'\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let bob = try clients.start("bob", extra: ["--notify-command", script])
        bob.send("/follow")
        bob.waitForStdout("* connected")
        let hostile = "hi $(touch \(root)/pwned); `touch \(root)/pwned2` 'q\" && exit 1"
        XCTAssertEqual(try clients.run("alice", ["/dm bob", hostile]).status, 0)
        bob.waitForStdout("alice: \(hostile)")
        eventually(10, "the notification") { (try? String(contentsOfFile: log, encoding: .utf8))?.contains(hostile) ?? false }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines, ["1|alice: \(hostile)"[...]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/pwned"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/pwned2"))
        bob.closeInput()
        XCTAssertEqual(bob.waitExit(), 0, bob.stderr)
    }

    /// The acceptance scenario: a message turns read once the other side opens the conversation.
    func testMessageBecomesReadWhenTheOtherOpensTheConversation() throws {
        try clients.register("alice", "bob")
        try clients.makeContacts("alice", "bob") // a stranger's DM is a request: no read markers
        let alice = try clients.start("alice", json: true)
        alice.send("/dm bob")
        alice.send("are you there?")
        alice.send("/wait delivered 20")
        alice.send("/wait read 20")
        alice.closeInput()
        alice.waitForStdout(#""state":"sent""#)
        XCTAssertEqual(try clients.run("bob", ["/follow 0"]).status, 0, "bob's client comes online: delivered")
        alice.waitForStdout(#""state":"delivered""#)
        XCTAssertFalse(alice.stdout.contains(#""state":"read""#), "not read before bob opens it")
        XCTAssertEqual(try clients.run("bob", ["/open alice"]).status, 0)
        XCTAssertEqual(alice.waitExit(), 0, alice.stderr)
        let states = jsonLines(alice.stdout).filter { $0["type"] as? String == "state" }.compactMap { $0["state"] as? String }
        XCTAssertEqual(states, ["sending", "sent", "delivered", "read"])
    }
}

extension PipedModeTests {
    /// Escape sequences in someone's message cannot drive the reader's terminal; a message
    /// over the limit is refused before it is queued.
    func testControlCharactersAreNeutralisedAndOverlongMessagesRefused() throws {
        try clients.register("alice", "bob")
        let evil = "clear \u{1B}[2J\u{1B}]0;pwned\u{07} done"
        let tooLong = String(repeating: "x", count: 10_001)
        let sent = try clients.run("alice", ["/dm bob", evil, tooLong, "/wait sent", "/queue"], json: true)
        XCTAssertNotEqual(sent.status, 0, "the overlong line fails")
        XCTAssertEqual(jsonLines(sent.out).first { $0["type"] as? String == "error" }?["code"] as? String, "too_long")
        XCTAssertEqual((jsonLines(sent.out).first { $0["type"] as? String == "queue" }?["messages"] as? [Any])?.count, 0)

        let r = try clients.run("bob", ["/open alice", "/history"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertFalse(r.out.contains("\u{1B}"), "no escape character reaches the terminal")
        XCTAssertTrue(r.out.contains("alice: clear \u{FFFD}[2J\u{FFFD}]0;pwned\u{FFFD} done"), r.out)
        let json = try clients.run("bob", ["/open alice", "/history"], json: true)
        let texts = (jsonLines(json.out).first { $0["type"] as? String == "history" }?["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertEqual(texts, [evil], "JSON keeps the exact text")
    }
}

extension PipedModeTests {
    /// A password change elsewhere revokes this data dir's saved session: the next start says
    /// so, forgets the token, and commands that need a login fail clearly.
    func testRevokedSessionIsForgottenWithAClearMessage() throws {
        try clients.register("alice")
        let laptop = try clients.run("alice-laptop", ["/login alice password-alice"])
        XCTAssertEqual(laptop.status, 0, laptop.err)
        XCTAssertEqual(try clients.run("alice", ["/passwd password-alice password-alice-2"]).status, 0)
        let r = try clients.run("alice-laptop", ["/contacts"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.err.contains("expired or was revoked"), r.err)
        XCTAssertTrue(r.err.contains("not logged in"), r.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: clients.dir("alice-laptop") + "/session.json"))
        XCTAssertEqual(try clients.run("alice-laptop", ["/login alice password-alice-2", "/whoami"]).status, 0)
    }
}
