import XCTest

/// /edit alone and /delete's confirmation in a real pseudo-terminal, against a real server.
final class ReplChangesTests: ServerBackedTestCase {
    override class var directoryName: String { "repl-changes" }

    func testEditAlonePutsTheLastMessageOnTheLineAndDeleteAsksFirst() throws {
        try clients.register("alice", "bob")
        XCTAssertEqual(try clients.run("alice", ["/dm bob", "see you at teh café ☕", "/wait sent"]).status, 0)
        let pty = try PseudoTerminal()
        let alice = try startRepl("alice", pty)
        defer { if alice.isRunning { kill(alice.processIdentifier, SIGKILL) } }
        // The REPL reopens the last conversation; the prompt names the connection only when it
        // is not online: [bob|#1 ✓ sent]> once connected, [bob|connecting...]> before.
        eventually(60, "the online prompt") {
            guard let r = pty.output.range(of: "[bob", options: .backwards) else { return false }
            let rest = pty.output[r.upperBound...]
            return rest.contains("]") && !["|connecting", "|offline", "|reconnecting"].contains { rest.hasPrefix($0) }
        }
        pty.type("/edit\r")
        eventually(60, "the last message on the input line; got: \(pty.output.debugDescription)") {
            pty.output.contains("/edit #1 see you at teh café ☕")
        }
        // The user fixes the typo where the cursor is, at the end: erases "teh café ☕" (10
        // characters) and types the fix.
        pty.type(String(repeating: "\u{7F}", count: 10) + "the café ☕\r")
        eventually(60, "bob sees the edit") {
            ((try? clients.run("bob", ["/dm alice", "/history"]).out) ?? "").contains("alice: see you at the café ☕ (edited)")
        }

        pty.type("/delete #1\r")
        eventually(60, "the confirmation question; got: \(pty.output)") { pty.output.contains("Type /delete #1 again to confirm") }
        XCTAssertFalse(((try? clients.run("bob", ["/dm alice", "/history"]).out) ?? "").contains("message deleted"), "not before confirming")
        pty.type("/delete #1\r")
        eventually(60, "bob sees the delete") {
            ((try? clients.run("bob", ["/dm alice", "/history"]).out) ?? "").contains("alice: message deleted")
        }
        pty.type("/quit\r")
        eventually(60, "the REPL to exit") { !alice.isRunning }
    }
}
