import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Login and registration throttles over real sockets, with clients at different loopback
/// addresses: they slow down guessing without locking out the innocent.
final class ThrottleTests: XCTestCase {
    var server: TestServer!
    override func tearDown() { server?.stop() }

    func client(from address: String) throws -> TestClient {
        let c = try TestClient(port: server.port, source: address)
        try c.hello()
        return c
    }

    func login(_ c: TestClient, _ name: String, _ password: String) throws -> Frame {
        try c.wait(for: "login answer", timeout: 30) { [id = c.send(Login(login: name, password: password, device: "test"))] in $0.requestID == id }
    }

    /// One user's typos behind a shared address (an office NAT) lock nobody else out.
    func testTyposAtASharedAddressLockOutOnlyThatAccountThere() throws {
        server = try TestServer()
        _ = try TestUsers.register(["alice", "bob"], port: server.port)
        let office = try client(from: "127.0.0.2")
        for _ in 0..<5 {
            XCTAssertEqual(try login(office, "alice", "wrong password").decode(ErrorFrame.self).errorCode, .invalidCredentials)
        }
        let throttled = try login(office, "alice", TestUsers.password).decode(ErrorFrame.self)
        XCTAssertEqual(throttled.errorCode, .throttled, "the sixth try at once waits, even with the right password")
        XCTAssertGreaterThan(throttled.retryAfter, 0)
        XCTAssertLessThanOrEqual(throttled.retryAfter, 1_000, "the first wait is a second")
        // bob, behind the same address, logs in at once.
        let colleague = try client(from: "127.0.0.2")
        XCTAssertEqual(try login(colleague, "bob", TestUsers.password).type, SessionGranted.frameType)
        // alice gets in once the short wait is over.
        let later = try client(from: "127.0.0.2")
        let granted = try waitUntil(timeout: 10) { try login(later, "alice", TestUsers.password).type == SessionGranted.frameType }
        XCTAssertTrue(granted)
    }

    /// A stranger guessing alice's password from elsewhere does not lock alice out of her
    /// usual address, and never blocks a RESUME.
    func testStrangerCannotLockOutTheOwner() throws {
        server = try TestServer { $0.loginFailuresPerAccount = 3; $0.loginFailuresPerAddress = 1_000 }
        let alice = try TestUsers.register(["alice"], port: server.port)[0] // from 127.0.0.1
        let strangers = try (2...5).map { try client(from: "127.0.0.\($0)") }
        var refused = 0
        for round in 0..<4 {
            for s in strangers {
                let f = try login(s, "alice", "guess \(round)")
                let e = try f.decode(ErrorFrame.self)
                if e.errorCode == .throttled { refused += 1 } else { XCTAssertEqual(e.errorCode, .invalidCredentials) }
            }
        }
        XCTAssertGreaterThan(refused, 0, "guessing from many addresses slows down")
        let fresh = try client(from: "127.0.0.9")
        XCTAssertEqual(try login(fresh, "alice", TestUsers.password).decode(ErrorFrame.self).errorCode, .throttled,
                       "a new address waits for the account-wide delay")
        // alice, at the address she registered from, with the right password: in.
        let home = try client(from: "127.0.0.1")
        XCTAssertEqual(try login(home, "alice", TestUsers.password).type, SessionGranted.frameType)
        // Her token resumes from anywhere, even from an address that is being throttled.
        let resumed = try TestClient(port: server.port, source: "127.0.0.9")
        try resumed.hello()
        let _: SessionGranted = try resumed.request(Resume(token: alice.token))
    }

    /// Failures on many accounts from one address add up, past a loose limit.
    func testManyAccountsFromOneAddressAreSlowedDown() throws {
        server = try TestServer { $0.loginFailuresPerAddress = 6 }
        let c = try client(from: "127.0.0.5")
        for i in 0..<6 {
            XCTAssertEqual(try login(c, "ghost\(i)", "whatever you like").decode(ErrorFrame.self).errorCode, .invalidCredentials)
        }
        let e = try login(c, "ghost6", "whatever you like").decode(ErrorFrame.self)
        XCTAssertEqual(e.errorCode, .throttled)
        XCTAssertGreaterThan(e.retryAfter, 0)
        // Another address is not affected.
        XCTAssertEqual(try login(try client(from: "127.0.0.6"), "ghost6", "whatever you like").decode(ErrorFrame.self).errorCode,
                       .invalidCredentials)
    }

    func testRegistrationsArePerAddressAndLimited() throws {
        server = try TestServer { $0.registrationsPerAddressPerHour = 2 }
        let here = try client(from: "127.0.0.3")
        for name in ["ann", "ben"] {
            let c = try client(from: "127.0.0.3")
            let _: SessionGranted = try c.request(Register(email: "\(name)@example.org", username: name, password: TestUsers.password,
                                                           displayName: name, device: "t"), timeout: 30)
        }
        let e = try here.requestError(Register(email: "cal@example.org", username: "cal", password: TestUsers.password, displayName: "Cal", device: "t"))
        XCTAssertEqual(e.errorCode, .throttled)
        XCTAssertGreaterThan(e.retryAfter, 60_000, "a new account every half hour")
        XCTAssertFalse(e.closes)
        let elsewhere = try client(from: "127.0.0.4")
        let _: SessionGranted = try elsewhere.request(Register(email: "cal@example.org", username: "cal", password: TestUsers.password,
                                                               displayName: "Cal", device: "t"), timeout: 30)
    }

    /// Past the bound on password hashing in flight, a LOGIN is refused at once with a retry
    /// hint instead of queueing; the ones in flight finish normally.
    func testPasswordWorkInFlightIsBounded() throws {
        server = try TestServer { $0.maxPasswordHashesInFlight = 2; $0.pbkdf2Rounds = 2_000_000 }
        _ = try TestUsers.register(["alice"], port: server.port)
        let clients = try (0..<6).map { _ in try server.client() }
        let ids = clients.map { $0.send(Login(login: "alice", password: TestUsers.password, device: "t")) }
        var granted = 0, busy = 0
        for (c, id) in zip(clients, ids) {
            let f = try c.wait(for: "login answer", timeout: 60) { $0.requestID == id }
            if f.type == SessionGranted.frameType { granted += 1; continue }
            let e = try f.decode(ErrorFrame.self)
            XCTAssertEqual(e.errorCode, .serverBusy)
            XCTAssertGreaterThan(e.retryAfter, 0)
            XCTAssertFalse(e.closes)
            busy += 1
        }
        XCTAssertGreaterThanOrEqual(granted, 2)
        XCTAssertGreaterThan(busy, 0, "six logins at once, two hashes allowed")
        // A refusal is not a failed login: the account is not throttled afterwards.
        let after = try server.client()
        let _: SessionGranted = try after.request(Login(login: "alice", password: TestUsers.password, device: "t"), timeout: 30)
    }

    /// The decoy is hashed at start and off the hub: with slow rounds, the server answers
    /// PING while it is being computed, and it is ready later without any login asking for it.
    func testDecoyIsHashedAtStartOffTheHub() throws {
        server = try TestServer { $0.pbkdf2Rounds = 4_000_017 } // rounds no other test uses: a fresh decoy
        let c = try server.client()
        let _: Pong = try c.request(Ping())
        XCTAssertFalse(server.server.decoy.isReady, "the hub answered while the decoy was still being hashed")
        XCTAssertTrue(waitUntil(timeout: 60) { server.server.decoy.isReady }, "computed at start, no login needed")
        XCTAssertTrue(server.server.decoy.value.hasPrefix("pbkdf2-sha256$4000017$"))
    }

    /// The decoy for unknown users is hashed at start, with the configured rounds.
    func testDecoyUsesTheConfiguredRounds() throws {
        server = try TestServer { $0.pbkdf2Rounds = 700_000 }
        XCTAssertTrue(server.server.decoy.value.hasPrefix("pbkdf2-sha256$700000$"))
        let c = try server.client()
        XCTAssertEqual(try c.requestError(Login(login: "nobody", password: "whatever it is", device: "t"), timeout: 30).errorCode,
                       .invalidCredentials)
    }

    /// Issue 23: checks in flight count from their start. 16 wrong LOGINs for one account sent
    /// at once on 16 connections: 5 are checked, the other 11 wait (before, all 16 were checked).
    func testParallelWrongLoginsSpendTheFreeFailuresAtOnce() throws {
        server = try TestServer()
        _ = try TestUsers.register(["alice"], port: server.port) // from 127.0.0.1, so 127.0.0.8 is a stranger
        let clients = try (0..<16).map { _ in try client(from: "127.0.0.8") }
        let ids = clients.map { $0.send(Login(login: "alice", password: "a wrong guess", device: "t")) }
        var checked = 0, throttled = 0
        for (c, id) in zip(clients, ids) {
            let e = try c.wait(for: "login answer", timeout: 60) { $0.requestID == id }.decode(ErrorFrame.self)
            switch e.errorCode {
            case .invalidCredentials: checked += 1
            case .throttled: throttled += 1; XCTAssertGreaterThan(e.retryAfter, 0)
            default: XCTFail("unexpected \(e.errorCode)")
            }
        }
        XCTAssertEqual(checked, 5, "only the free failures are checked")
        XCTAssertEqual(throttled, 11)
    }
}
