import XCTest

/// What the REPL shows while things happen (issue 24): one's own message with its reference,
/// presence only while it is known, and group receipts as they arrive.
final class ReplLiveViewTests: ServerBackedTestCase {
    override class var directoryName: String { "repl-live" }

    /// The prompt drawn last: from the last "[" + `name` to its "]> ".
    private func lastPrompt(_ pty: PseudoTerminal, _ name: String) -> String {
        let out = pty.output
        guard let start = out.range(of: "[" + name, options: .backwards),
              let end = out.range(of: "]> ", range: start.upperBound..<out.endIndex) else { return "" }
        return String(out[start.lowerBound..<end.upperBound])
    }

    private func befriend(_ a: String, _ b: String) throws {
        XCTAssertEqual(try clients.run(a, ["/add \(b)"]).status, 0)
        XCTAssertEqual(try clients.run(b, ["/add \(a)"]).status, 0)
    }

    /// /reply and /edit take `#N`: the line of a message one just sent shows it, as others' do.
    func testOwnMessageShowsItsReferenceOnceAcknowledged() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "first from alice"]).status, 0)
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the prompt; got: \(pty.output)") { pty.output.contains("[bob]> ") }
        pty.type("/dm alice\r")
        eventually(15, "the conversation; got: \(pty.output)") { pty.output.contains("#1 alice: first from alice") }
        pty.type("my own words\r")
        eventually(15, "the own line with its reference; got: \(pty.output.suffix(600).debugDescription)") {
            pty.output.contains("#2 bob: my own words")
        }
        XCTAssertEqual(pty.output.components(separatedBy: "bob: my own words").count - 1, 1, "the message is printed once")
    }

    /// Offline, the peer's presence is not known: `[alice|offline, ...]`, not `[alice (online)|offline`.
    func testOfflinePromptDoesNotClaimThePeerIsOnline() throws {
        try clients.register("alice", "bob")
        try befriend("alice", "bob")
        let alice = try clients.start("alice")
        alice.send("/follow")
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the prompt; got: \(pty.output)") { pty.output.contains("[bob]> ") }
        pty.type("/dm alice\r")
        eventually(15, "alice shown online; got: \(pty.output.suffix(400).debugDescription)") { lastPrompt(pty, "alice").contains("(online)") }

        server.stop()
        eventually(20, "the offline prompt; got: \(pty.output.suffix(400).debugDescription)") { lastPrompt(pty, "alice").contains("|offline") }
        let prompt = lastPrompt(pty, "alice")
        XCTAssertFalse(prompt.contains("online)"), "offline, the peer's presence is unknown: \(prompt)")
        alice.kill9()
    }

    /// bob's prompt follows read receipts that do not move every member at once: carol, online
    /// all along in another conversation, opens the group, and "✓✓ delivered" turns into "read
    /// by 1 of 2" without /info. (Nobody connects or leaves meanwhile: a presence change would
    /// redraw the prompt and hide the bug.)
    func testGroupReceiptInThePromptFollowsOneMemberReading() throws {
        try clients.register("alice", "bob", "carol")
        try befriend("alice", "bob")
        try befriend("carol", "bob")
        XCTAssertEqual(try clients.run("bob", ["/group create team alice carol"]).status, 0)
        XCTAssertEqual(try clients.run("carol", ["/dm bob"]).status, 0)  // carol is elsewhere
        let alice = try clients.start("alice"), carol = try clients.start("carol")
        defer { alice.kill9(); carol.kill9() }
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the group prompt; got: \(pty.output)") { pty.output.contains("[team, 3 members") }
        pty.type("to the team\r")
        eventually(15, "delivered to both; got: \(lastPrompt(pty, "team"))") { lastPrompt(pty, "team").contains("✓✓ delivered") }
        carol.send("/open team")
        carol.waitForStdout("now in [team]")
        eventually(15, "read by carol; got: \(lastPrompt(pty, "team"))") { lastPrompt(pty, "team").contains("✓✓ read by 1 of 2") }
    }
}
