import XCTest

/// The interactive client in a real pseudo-terminal, against a real server.
final class ReplTests: ServerBackedTestCase {
    override class var directoryName: String { "repl" }

    /// The text after the first occurrence of `marker` that follows `offset`.
    private func after(_ marker: String, in text: String, from offset: String.Index) -> Substring? {
        guard let r = text.range(of: marker, range: offset..<text.endIndex) else { return nil }
        return text[r.upperBound...]
    }

    func testIncomingMessageLeavesTheHalfTypedLineIntactAndEnterSendsAllOfIt() throws {
        try clients.register("alice", "bob")
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the prompt; got: \(pty.output)") { pty.output.contains("[bob]> ") }

        pty.type("/dm alice\r")
        eventually(15, "the conversation prompt; got: \(pty.output)") { pty.output.contains("[alice]> ") }

        let half = "half typed words"
        pty.type(half)
        eventually(5, "the echo of the typed text") { pty.output.contains(half) }
        let mark = pty.output.endIndex

        let alice = try clients.run("alice", ["/dm bob", "incoming while typing"])
        XCTAssertEqual(alice.status, 0, alice.err)
        eventually(15, "the message, then the half-typed line redrawn after it; got: \(pty.output.debugDescription)") {
            let out = pty.output
            guard mark <= out.endIndex, let rest = after("alice: incoming while typing", in: out, from: mark) else { return false }
            return rest.contains("[alice]> ") && rest.contains(half)
        }

        pty.type("\r")
        // The REPL prints a sent message once; its state shows as a mark in the prompt.
        eventually(15, "the sent mark in the prompt; got: \(pty.output)") { pty.output.contains("✓") }

        let history = try clients.run("alice", ["/dm bob", "/history"], json: true)
        let page = try XCTUnwrap(jsonLines(history.out).first { $0["type"] as? String == "history" })
        let texts = (page["messages"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
        XCTAssertEqual(texts, ["incoming while typing", half], "Enter sent the complete line, once")

        pty.type("/quit\r")
        eventually(15, "the REPL to exit") { !bob.isRunning }
        guard !bob.isRunning else { return XCTFail("still running after /quit; the screen: \(pty.output)") }
        XCTAssertEqual(bob.terminationStatus, 0, pty.output)
    }

    func testTabCompletesCommandsAndUnknownCommandsDoNotEndTheRepl() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "hello"]).status, 0)
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the prompt; got: \(pty.output)") { pty.output.contains("[bob]> ") }

        pty.type("/frobnicate\r")
        eventually(10, "the unknown-command message; got: \(pty.output)") { pty.output.contains("unknown command /frobnicate") }

        // Completion redraws only the missing characters, so the proof is what the line does.
        pty.type("/op\tali\t\r")
        eventually(10, "the conversation opened; got: \(pty.output)") { pty.output.contains("now in [alice]") }
        pty.type("/hist\t\r")
        // /open already shows the recent messages (and the sync may have announced it); the
        // history's own output starts with its day header (not the recap's "--- 1 unread ---"),
        // and the command is over once the message follows it.
        eventually(10, "the history") {
            guard let header = pty.output.range(of: "--- 20", options: .backwards) else { return false }  // "--- 2026-11-23 ---"
            return pty.output[header.upperBound...].contains("alice: hello")
        }

        pty.type("\u{04}")
        eventually(15, "exit at Ctrl-D") { !bob.isRunning }
        // Reading the status of a process still running traps: check it only once it ended.
        guard !bob.isRunning else { return XCTFail("still running after Ctrl-D; the screen: \(pty.output)") }
        XCTAssertEqual(bob.terminationStatus, 1, "the unknown command makes the exit status non-zero")
        XCTAssertTrue(FileManager.default.fileExists(atPath: clients.dir("bob") + "/history"), "input history is saved")
    }
}

extension ReplTests {
    /// /login without a password asks for it with echo off; the password never shows.
    func testLoginPromptsForThePasswordWithoutEcho() throws {
        try clients.register("bob")
        XCTAssertEqual(try clients.run("bob", ["/logout"]).status, 0)
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the logged-out prompt; got: \(pty.output)") { pty.output.contains("[not logged in]> ") }
        pty.type("/login bob\r")
        eventually(10, "the password prompt; got: \(pty.output)") { pty.output.contains("password: ") }
        pty.type("password-bob\r")
        eventually(15, "the login; got: \(pty.output)") { pty.output.contains("logged in as bob") }
        XCTAssertFalse(pty.output.contains("password-bob"), "the password is not echoed")
        pty.type("/whoami\r")
        eventually(10, "whoami; got: \(pty.output)") { pty.output.contains("bob (online)") }
        pty.type("/quit\r")
        eventually(15, "exit") { !bob.isRunning }
        guard !bob.isRunning else { return XCTFail("still running after /quit; the screen: \(pty.output)") }
        XCTAssertEqual(bob.terminationStatus, 0, pty.output)
    }
}
