import XCTest

/// Keys at the REPL in a real pseudo-terminal: what a person pressing them would notice.
final class ReplKeysTests: ServerBackedTestCase {
    override class var directoryName: String { "repl-keys" }

    /// Ctrl-C as a terminal delivers it (SIGINT to the foreground process; the test's pty is
    /// not the child's controlling terminal, so the byte alone would signal nobody). Waits
    /// for the output to move on, so two presses are never merged into one pending signal.
    private func pressCtrlC(_ p: Process, _ pty: PseudoTerminal, then what: String, _ seen: (String) -> Bool) {
        kill(p.processIdentifier, SIGINT)
        eventually(10, "\(what); got: \(pty.output.suffix(400).debugDescription)") { seen(pty.output) }
    }

    /// Issue 24: the first Ctrl-C cleared "half typed line", and after that Ctrl-C did nothing
    /// (libedit's published line length still counted the cleared text).
    func testCtrlCAfterClearingALineStillHintsAndThenQuits() throws {
        try clients.register("bob")
        let pty = try PseudoTerminal()
        let bob = try startRepl("bob", pty)
        defer { if bob.isRunning { kill(bob.processIdentifier, SIGKILL) } }
        eventually(15, "the prompt; got: \(pty.output)") { pty.output.contains("[bob]> ") }

        pty.type("half typed line")
        eventually(5, "the echo of the typed text") { pty.output.contains("half typed line") }
        var mark = pty.output.utf8.count
        pressCtrlC(bob, pty, then: "the line cleared (libedit redraws it)") { $0.utf8.count > mark }
        XCTAssertTrue(bob.isRunning, "the first Ctrl-C clears the line; it does not quit")

        mark = pty.output.utf8.count
        pressCtrlC(bob, pty, then: "the hint on the now empty line") {
            String(decoding: Array($0.utf8).dropFirst(mark), as: UTF8.self).contains("Ctrl-C again or Ctrl-D to quit")
        }
        XCTAssertTrue(bob.isRunning, "the second Ctrl-C only says how to leave")

        kill(bob.processIdentifier, SIGINT)
        eventually(10, "the third Ctrl-C leaves") { !bob.isRunning }
        guard !bob.isRunning else { return XCTFail("still running after three Ctrl-C; the screen: \(pty.output)") }
        XCTAssertEqual(bob.terminationStatus, 0, pty.output)
    }
}
