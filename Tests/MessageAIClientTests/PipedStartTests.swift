import XCTest

/// A script's first line runs once the connection has settled (issue 24): `printf '/whoami\n/server\n' | messageai`
/// printed "frank (connecting)" and "TLS (not connected now)".
final class PipedStartTests: ServerBackedTestCase {
    override class var directoryName: String { "piped-start" }

    func testFirstCommandsSeeTheConnectedState() throws {
        try clients.register("frank")
        let r = try clients.run("frank", ["/whoami", "/server"])
        XCTAssertEqual(r.status, 0, r.err)
        XCTAssertTrue(r.out.contains("frank (online)"), r.out)
        XCTAssertFalse(r.out.contains("connecting"), r.out)
        XCTAssertFalse(r.out.contains("not connected now"), r.out)
        XCTAssertTrue(r.out.contains("TLSv1.3") || r.out.contains("TLSv1.2"), "the TLS session is described: \(r.out)")
    }

    /// An unreachable server is said once, soon, and the script still runs offline.
    func testUnreachableServerIsSaidClearlyWithinTheWait() throws {
        try clients.register("frank")
        let address = server.address
        server.stop()
        let started = Date()
        let r = try clients.run("frank", ["/whoami"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 15, "the wait for the connection is bounded")
        XCTAssertTrue(r.err.contains("cannot reach the server at \(address)"), "a clear message on stderr: \(r.err)")
        XCTAssertTrue(r.out.contains("frank (offline"), r.out)
    }
}
