import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The idle timeout measures the client's silence, not the server's work: a REGISTER or LOGIN
/// whose password hash outlasts it (a loaded machine, a sanitizer build: issue 24's ASan run
/// lost logins this way) is answered, and the connection lives on for a whole idle period
/// after the answer.
final class IdleWhileHashingTests: XCTestCase {
    func testAHashLongerThanTheIdleTimeoutIsAnsweredAndTheConnectionStays() throws {
        let idle: UInt64 = 1_000
        // Enough rounds that one hash takes several idle periods even on a fast machine.
        let server = try TestServer { $0.idleTimeoutMillis = idle; $0.pbkdf2Rounds = 3_000_000 }
        defer { server.stop() }
        let c = try TestClient(port: server.port)
        try c.hello()
        let started = Date()
        let id = c.send(Register(email: "slow@example.org", username: "slowhash", password: TestUsers.password,
                                 displayName: "Slow Hash", device: "t"))
        let answer = try c.wait(for: "register answer", timeout: 120) { $0.requestID == id }
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(answer.type, SessionGranted.frameType, "the hash took \(took) s; answer: \(answer.type)")
        // Not a timing assertion on the product: without it this test would prove nothing.
        XCTAssertGreaterThan(took, Double(idle) / 1000, "the hash must outlast the idle timeout: raise the rounds")
        // The idle clock started again with the answer: a request made right after it is served.
        let pong: Pong = try c.request(Ping())
        XCTAssertNotNil(pong)
        XCTAssertFalse(c.closedByServer)
    }
}
