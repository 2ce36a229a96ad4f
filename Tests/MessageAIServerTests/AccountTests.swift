import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Registration, login, sessions and passwords over real sockets.
final class AccountTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer() }
    override func tearDown() { server.stop() }

    func testRegistrationRaceForOneUsernameHasExactlyOneWinner() throws {
        // REGISTER refuses capitals now, so the race is on one spelling; uniqueness ignoring
        // case (0.1.0 accounts may have capitals) is the store's, tested in StoreAccountsTests.
        let names = ["racer", "racer", "racer", "racer"]
        let clients = try names.map { _ in try server.client() }
        let ids = zip(clients, names.indices).map { c, i in
            c.send(Register(email: "racer\(i)@example.org", username: names[i], password: TestUsers.password, displayName: "R"))
        }
        var winners = 0
        var taken = 0
        for (c, id) in zip(clients, ids) {
            let f = try c.wait(for: "register answer", timeout: 30) { $0.requestID == id }
            if f.type == .session { winners += 1 } else if try f.decode(ErrorFrame.self).errorCode == .usernameTaken { taken += 1 }
        }
        XCTAssertEqual(winners, 1)
        XCTAssertEqual(taken, names.count - 1)
        XCTAssertEqual(try server.store.searchUsers(query: "racer", limit: 10).count, 1)
    }

    func testRegistrationRulesNameTheRule() throws {
        let c = try server.client()
        let cases: [(Register, ErrorCode)] = [
            (Register(email: "a@example.org", username: "ab", password: TestUsers.password, displayName: ""), .invalidUsername),
            (Register(email: "a@example.org", username: "-abc", password: TestUsers.password, displayName: ""), .invalidUsername),
            (Register(email: "a@example.org", username: "a b c", password: TestUsers.password, displayName: ""), .invalidUsername),
            (Register(email: "not-an-email", username: "abc", password: TestUsers.password, displayName: ""), .invalidEmail),
            (Register(email: "a@example.org", username: "abc", password: "short", displayName: ""), .weakPassword),
            (Register(email: "a@example.org", username: "abc", password: TestUsers.password, displayName: String(repeating: "n", count: 65)), .tooLong),
        ]
        for (r, code) in cases {
            let e = try c.requestError(r)
            XCTAssertEqual(e.errorCode, code, "\(r.username) / \(r.email)")
            XCTAssertFalse(e.message.isEmpty)
        }
        XCTAssertTrue(try c.requestError(cases[0].0).message.contains("3-32"))
    }

    func testLoginWithUsernameOrEmailAndResumeAfterReconnect() throws {
        let (alice) = try TestUsers.register(["alice"], port: server.port)[0]
        let dup = try server.client().requestError(Register(email: "ALICE@example.org", username: "alice2", password: TestUsers.password, displayName: ""))
        XCTAssertEqual(dup.errorCode, .emailTaken, "emails are unique case-insensitively")
        let byName: SessionGranted = try server.client().request(Login(login: "ALICE", password: TestUsers.password, device: "phone"))
        XCTAssertEqual(byName.user.username, "alice")
        XCTAssertEqual(byName.token.count, 32)
        let byEmail: SessionGranted = try server.client().request(Login(login: "alice@example.org", password: TestUsers.password))
        XCTAssertNotEqual(byName.token, byEmail.token)
        XCTAssertNotEqual(byName.sessionID, byEmail.sessionID)

        alice.close()
        let again = try server.client()
        let resumed: SessionGranted = try again.request(Resume(token: byName.token))
        XCTAssertEqual(resumed.sessionID, byName.sessionID)
        XCTAssertTrue(resumed.token.isEmpty, "the token is never sent again")
        let _: Contacts = try again.request(ContactsList())
        // A second login on a logged-in connection is refused in words a person can act on.
        let twice = try again.requestError(Login(login: "alice", password: TestUsers.password))
        XCTAssertEqual(twice.errorCode, .alreadyAuthenticated)
        XCTAssertEqual(twice.message, "already logged in on this connection: log out first")

        XCTAssertEqual(try server.client().requestError(Resume(token: [UInt8](repeating: 7, count: 32))).errorCode, .invalidToken)
    }

    /// Requests that need the login wait for it and are answered in order; PINGs are answered
    /// at once meanwhile (they have no order to keep).
    func testRequestsPipelinedBehindLoginAreAnsweredInOrder() throws {
        _ = try TestUsers.register(["ivan"], port: server.port)
        let c = try server.client()
        let login = c.send(Login(login: "ivan", password: TestUsers.password))
        let lists = (0..<200).map { _ in c.send(ContactsList()) }
        let ping = c.send(Ping())
        var order: [UInt32] = []
        while order.count < 202 {
            guard let f = try c.readFrame() else { break }
            XCTAssertNotEqual(f.type, .error, "nothing is refused as not logged in")
            if f.requestID != 0 { order.append(f.requestID) }
        }
        XCTAssertEqual(order.filter { $0 != ping }, [login] + lists)
        XCTAssertTrue(order.contains(ping))
    }

    func testWrongPasswordAndUnknownUserGetTheSameError() throws {
        _ = try TestUsers.register(["bob"], port: server.port)
        let c = try server.client()
        let wrong = try c.requestError(Login(login: "bob", password: "not the password"), timeout: 30)
        let unknown = try c.requestError(Login(login: "nobody", password: "not the password"), timeout: 30)
        XCTAssertEqual(wrong.errorCode, .invalidCredentials)
        XCTAssertEqual(unknown.errorCode, .invalidCredentials)
        XCTAssertEqual(wrong.message, unknown.message)
    }

    func testRepeatedFailuresAreThrottledPerAccount() throws {
        _ = try TestUsers.register(["carol"], port: server.port)
        let c = try server.client()
        for _ in 0..<5 {
            XCTAssertEqual(try c.requestError(Login(login: "carol", password: "wrong password"), timeout: 30).errorCode, .invalidCredentials)
        }
        let throttled = try c.requestError(Login(login: "carol", password: TestUsers.password))
        XCTAssertEqual(throttled.errorCode, .throttled)
        XCTAssertGreaterThan(throttled.retryAfter, 0)
        XCTAssertLessThanOrEqual(throttled.retryAfter, 60_000)
        // By email too: it is the same account.
        XCTAssertEqual(try c.requestError(Login(login: "carol@example.org", password: TestUsers.password)).errorCode, .throttled)
    }

    /// Five failures on other names from one address (an office behind one NAT) do not lock
    /// the address out; the per-address limit is loose (ThrottleTests covers it).
    func testFiveFailuresOnOtherAccountsDoNotLockTheAddress() throws {
        let c = try server.client()
        let ids = (0..<5).map { c.send(Login(login: "ghost\($0)", password: "whatever you like")) }
        for id in ids {
            let f = try c.wait(for: "login answer", timeout: 30) { $0.requestID == id }
            XCTAssertEqual(try f.decode(ErrorFrame.self).errorCode, .invalidCredentials)
        }
        let e = try c.requestError(Login(login: "someone-else", password: "whatever you like"), timeout: 30)
        XCTAssertEqual(e.errorCode, .invalidCredentials)
    }

    func testLogoutRevokesTheToken() throws {
        let dave = try TestUsers.register(["dave"], port: server.port)[0]
        let _: OK = try dave.request(Logout())
        XCTAssertEqual(try dave.requestError(ContactsList()).errorCode, .notAuthenticated)
        XCTAssertEqual(try server.client().requestError(Resume(token: dave.token)).errorCode, .invalidToken)
    }

    func testSessionsListAndRevokeClosesThatSession() throws {
        let erin = try TestUsers.register(["erin"], port: server.port)[0]
        let laptop = try server.client()
        let second: SessionGranted = try laptop.request(Login(login: "erin", password: TestUsers.password, device: "laptop"))
        let list: Sessions = try erin.request(SessionsList())
        XCTAssertEqual(list.sessions.count, 2)
        XCTAssertEqual(list.sessions.filter(\.current).count, 1)
        XCTAssertEqual(list.sessions.first { !$0.current }?.device, "laptop")

        let _: OK = try erin.request(SessionRevoke(sessionID: second.sessionID))
        XCTAssertTrue(try laptop.waitForClose())
        XCTAssertEqual(try server.client().requestError(Resume(token: second.token)).errorCode, .invalidToken)
        XCTAssertEqual(try erin.requestError(SessionRevoke(sessionID: 999_999)).errorCode, .notFound)
        let after: Sessions = try erin.request(SessionsList())
        XCTAssertEqual(after.sessions.count, 1)
    }

    func testPasswordChangeRevokesOtherSessions() throws {
        let frank = try TestUsers.register(["frank"], port: server.port)[0]
        let other = try TestUsers.secondSession(of: frank, port: server.port)
        let laptop = try server.client()
        let laptopSession: SessionGranted = try laptop.request(Login(login: "frank", password: TestUsers.password))

        XCTAssertEqual(try frank.requestError(PasswordChange(oldPassword: "wrong password", newPassword: "new password 1"), timeout: 30).errorCode,
                       .invalidCredentials)
        // `other` resumed frank's own token: it is the same session and stays.
        let _: OK = try frank.request(PasswordChange(oldPassword: TestUsers.password, newPassword: "new password 1"), timeout: 30)
        XCTAssertTrue(try laptop.waitForClose())
        XCTAssertEqual(try server.client().requestError(Resume(token: laptopSession.token)).errorCode, .invalidToken)
        let _: Pong = try other.request(Ping())
        XCTAssertEqual(try server.client().requestError(Login(login: "frank", password: TestUsers.password), timeout: 30).errorCode, .invalidCredentials)
        let _: SessionGranted = try server.client().request(Login(login: "frank", password: "new password 1"), timeout: 30)
    }

    func testProfileUpdateChangesDisplayName() throws {
        let gina = try TestUsers.register(["gina"], port: server.port)[0]
        let p: Profile = try gina.request(ProfileUpdate(displayName: "Gina G."))
        XCTAssertEqual(p.user.displayName, "Gina G.")
        XCTAssertEqual(try gina.requestError(ProfileUpdate(displayName: String(repeating: "x", count: 65))).errorCode, .tooLong)
        let found: Users = try gina.request(UserSearch(prefix: "gin"))
        XCTAssertEqual(found.users.map(\.displayName), ["Gina G."])
    }

    func testPasswordsAreStoredOnlyAsSlowSaltedHashes() throws {
        _ = try TestUsers.register(["hank"], port: server.port)
        let stored = try server.server.queue.sync { try server.store.user(username: "hank")!.passwordHash }
        XCTAssertFalse(stored.contains(TestUsers.password))
        XCTAssertTrue(stored.hasPrefix("pbkdf2-sha256$600000$"), stored)
    }
}
