import XCTest

/// Piped input is read as the outbox takes it: a producer far ahead of a server that has
/// stopped answering waits in its pipe; the client holds a bounded outbox, and every message
/// arrives once the server answers again.
final class PipedInputTests: ServerBackedTestCase {
    override class var directoryName: String { "piped-input" }
    override class var serverArguments: [String] { ["--rate-limit", "100000"] }

    private func outboxCount(_ user: String) -> Int {
        guard let d = FileManager.default.contents(atPath: clients.dir(user) + "/accounts/\(user)/outbox.json"),
              let obj = try? JSONSerialization.jsonObject(with: d) as? [String: Any] else { return 0 }
        return (obj["entries"] as? [Any])?.count ?? 0
    }

    func testAFastProducerWaitsInThePipeWhileTheServerIsStopped() throws {
        try clients.register("alice", "bob")
        let alice = try clients.start("alice")
        alice.send("/dm bob")
        alice.waitForStdout("now in [bob]")
        let serverPID = try XCTUnwrap(server.child?.pid)
        kill(serverPID, SIGSTOP)
        var resumed = false
        defer { if !resumed { kill(serverPID, SIGCONT) } }

        // 600 lines of 500 bytes: 300 KB, far more than a pipe (64 KB) and the window hold.
        let total = 600
        let padding = String(repeating: "x", count: 480)
        let written = LineCount()
        let producer = Thread {
            for i in 1...total {
                alice.send(String(format: "m%04d ", i) + padding)  // blocks while the pipe is full
                written.value = i
            }
        }
        producer.start()

        eventually(30, "the outbox fills up to its window") { self.outboxCount("alice") >= 64 }
        let soFar = written.value
        XCTAssertLessThan(soFar, total, "the producer is held back in its pipe")
        XCTAssertLessThanOrEqual(outboxCount("alice"), 64, "the outbox stays within its window")

        kill(serverPID, SIGCONT)
        resumed = true
        eventually(120, "the producer wrote everything") { written.value == total }
        alice.closeInput()
        XCTAssertEqual(alice.waitExit(timeout: 120), 0, alice.stderr)

        let bob = try clients.run("bob", ["/dm alice", "/wait-messages \(total) 60", "/history 1"])
        XCTAssertEqual(bob.status, 0, bob.err)
        XCTAssertTrue(bob.out.contains("m0600 "), "the last line arrived")
    }
}

/// Lines written so far, shared with the producer thread.
private final class LineCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int {
        get { lock.withLock { count } }
        set { lock.withLock { count = newValue } }
    }
}
