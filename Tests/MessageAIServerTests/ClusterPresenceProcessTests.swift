import Foundation
import MessageAIProtocol
import XCTest

/// Issue 26 stage B on two `messageai-server` processes and one real PostgreSQL: what a user
/// on one node sees of someone on the other that is not a stored message: presence (also of a
/// node killed without a word), typing, a session revoked, a display name changed.
final class ClusterPresenceProcessTests: ClusterTestCase {
    private func twoNodes() throws -> (ChildServer, ChildServer, [ServerTestDirectory]) {
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", try freshDatabaseURL("presence")]
        return (try ChildServer(dataDir: dirs[0].path, arguments: arguments),
                try ChildServer(dataDir: dirs[1].path, arguments: arguments), dirs)
    }

    private func login(_ name: String, port: Int) throws -> (TestClient, SessionGranted) {
        let c = try TestClient(port: port)
        try c.hello(capabilities: [.zlib, .messageChanges])
        let granted: SessionGranted = try c.request(Login(login: name, password: TestUsers.password))
        c.user = granted.user
        c.token = granted.token
        return (c, granted)
    }

    /// ann (node 1) and ben, contacts, both registered on node 1.
    private func contacts(_ a: ChildServer) throws -> (TestClient, TestClient) {
        let users = try TestUsers.register(["ann", "ben"], port: a.port)
        try TestUsers.makeContacts(users[0], users[1])
        return (users[0], users[1])
    }

    private func presence(_ client: TestClient, of name: String, online: Bool, timeout: Double = 10) throws -> Presence {
        try client.push(Presence.self, timeout: timeout) { $0.user.username == name && $0.online == online }
    }

    func testPresenceCrossesNodesAndAUserOnBothStaysOnlineWhenOneCloses() throws {
        let (a, b, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let (ann, benOnA) = try contacts(a)
        benOnA.close()
        _ = try presence(ann, of: "ben", online: false)

        // ben comes online on node 2: ann on node 1 is told.
        let (benOnB, _) = try login("ben", port: b.port)
        _ = try presence(ann, of: "ben", online: true)
        XCTAssertTrue(try ann.request(ProfileGet(username: "ben"), expecting: Profile.self).online,
                      "his profile on node 1 shows him online on node 2")
        // His second device on node 1, then the first one leaves node 2: he stays online.
        let (benPhone, _) = try login("ben", port: a.port)
        benOnB.close()
        XCTAssertNil(try? presence(ann, of: "ben", online: false, timeout: 2), "a user with a connection left on a node stays online")
        // The last one goes: offline, with a last seen.
        let before = UInt64(Date().timeIntervalSince1970 * 1000)
        benPhone.close()
        XCTAssertGreaterThanOrEqual(try presence(ann, of: "ben", online: false).lastSeen, before - 1_000)
        let profile = try ann.request(ProfileGet(username: "ben"), expecting: Profile.self)
        XCTAssertFalse(profile.online)
        XCTAssertGreaterThanOrEqual(profile.lastSeen, before - 1_000)

        // Offline from node 2 crosses too.
        let (benAgain, _) = try login("ben", port: b.port)
        _ = try presence(ann, of: "ben", online: true)
        benAgain.close()
        XCTAssertGreaterThan(try presence(ann, of: "ben", online: false).lastSeen, before - 1_000)
    }

    /// kill -9 of ben's node: ann, on the other, sees him offline within the stated bound,
    /// last seen about when the node died.
    func testAKilledNodesUserIsShownOfflineWithinTheBound() throws {
        let (a, b, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let (ann, benOnA) = try contacts(a)
        benOnA.close()
        _ = try presence(ann, of: "ben", online: false)
        // Held until the kill: a client let go closes its socket, and ben would go offline
        // through a clean close at once, not through the reaping of a dead node.
        let (benOnB, _) = try login("ben", port: b.port)
        _ = try presence(ann, of: "ben", online: true)

        let killed = Date()
        b.kill9()
        let offline = try presence(ann, of: "ben", online: false, timeout: 30)
        let took = Date().timeIntervalSince(killed)
        XCTAssertLessThanOrEqual(took, 15, "shown offline within the 15 s bound (took \(took) s)")
        let killedMillis = UInt64(killed.timeIntervalSince1970 * 1000)
        // Last seen is the dead node's last heartbeat: at most one period (3 s) before the kill.
        XCTAssertLessThanOrEqual(offline.lastSeen, killedMillis + 500)
        XCTAssertGreaterThanOrEqual(offline.lastSeen, killedMillis - 4_000)
        XCTAssertGreaterThan(took, 5, "shown offline by the reaping of the dead node, not by a clean close (\(took) s)")
        print("ClusterPresenceProcessTests: offline after kill -9 shown in \(String(format: "%.1f", took)) s")
        withExtendedLifetime(benOnB) {}
    }

    /// Typing on node 1 reaches ben on node 2; a display-name change on node 1 shows in what
    /// ann's other device on node 2 sends next.
    func testTypingAndADisplayNameChangeCrossNodes() throws {
        let (a, b, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let (ann, _) = try contacts(a)
        let dm = try ann.openDM(with: "ben")
        let (ben, _) = try login("ben", port: b.port)
        ann.send(Typing(conversationID: dm.conversationID).frame(requestID: 0))
        let typing = try ben.push(TypingEvent.self) { $0.conversationID == dm.conversationID }
        XCTAssertEqual(typing.user.username, "ann")

        let (annTablet, _) = try login("ann", port: b.port)
        let _: Profile = try ann.request(ProfileUpdate(displayName: "Ann Apple"))
        // The tablet's next TYPING carries the new name once node 2 has read the change.
        let deadline = Date().addingTimeInterval(10)
        var shown = ""
        while shown != "Ann Apple", deadline.timeIntervalSinceNow > 0 {
            ben.discard(.typingEvent)
            annTablet.send(Typing(conversationID: dm.conversationID).frame(requestID: 0))
            shown = (try? ben.push(TypingEvent.self, timeout: 1.5) { $0.conversationID == dm.conversationID })?.user.displayName ?? ""
        }
        XCTAssertEqual(shown, "Ann Apple", "the other node's connection of ann carries her new name")
    }

    /// ann revokes, on node 1, the session of her connection on node 2: it is closed.
    func testASessionRevokedOnOneNodeClosesItsConnectionOnTheOther() throws {
        let (a, b, _) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let (ann, _) = try contacts(a)
        let (laptop, granted) = try login("ann", port: b.port)
        let _: OK = try ann.request(SessionRevoke(sessionID: granted.sessionID))
        XCTAssertTrue(try laptop.waitForClose(), "the revoked session's connection on the other node is closed")
        let (phone, _) = try login("ann", port: b.port)
        let _: OK = try ann.request(Logout())
        XCTAssertFalse(try phone.waitForClose(timeout: 1.5), "another session stays")
    }

    /// An admin disables ben through node 1's admin socket: his connection on node 2 closes.
    func testAnAccountDisabledThroughOneNodeIsClosedOnTheOther() throws {
        let (a, b, dirs) = try twoNodes()
        defer { _ = a.terminate(); _ = b.terminate() }
        let (_, benOnA) = try contacts(a)
        let (benOnB, _) = try login("ben", port: b.port)
        let disabled = try ChildServer.run(["admin", "users", "disable", "ben", "--data-dir", dirs[0].path])
        XCTAssertEqual(disabled.status, 0, disabled.out)
        XCTAssertTrue(try benOnA.waitForClose(), "closed on the node that disabled him")
        XCTAssertTrue(try benOnB.waitForClose(), "and on the other node")
    }
}
