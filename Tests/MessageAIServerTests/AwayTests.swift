import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// /away and /back on the wire: AWAY, the away mark in PRESENCE and PROFILE, kept across
/// reconnects and server restarts; and the smaller account rules of issue 16.
final class AwayTests: TwoUserTestCase {
    private func makeContacts() throws {
        let _: Profile = try alice.request(ContactAdd(username: "bob"))
        let _: Profile = try bob.request(ContactAccept(username: "alice"))
    }

    func testAwayWithTextReachesContactsAndOwnOtherSessionsAndBackClearsIt() throws {
        try makeContacts()
        let alicePhone = try TestUsers.secondSession(of: alice, port: server.port)
        let _: OK = try alice.request(AwaySet(away: true, message: "lunch 🍜, back at 2"))
        let seen = try bob.push(Presence.self) { $0.user.username == "alice" && $0.away }
        XCTAssertTrue(seen.online)
        XCTAssertEqual(seen.awayMessage, "lunch 🍜, back at 2")
        let mine = try alicePhone.push(Presence.self) { $0.user.username == "alice" && $0.away }
        XCTAssertEqual(mine.awayMessage, "lunch 🍜, back at 2", "the user's other devices hear of it too")
        let profile: Profile = try bob.request(ProfileGet(username: "alice"))
        XCTAssertTrue(profile.away)
        XCTAssertEqual(profile.awayMessage, "lunch 🍜, back at 2")

        let _: OK = try alicePhone.request(AwaySet(away: false))
        let back = try bob.push(Presence.self) { $0.user.username == "alice" && !$0.away }
        XCTAssertTrue(back.online)
        XCTAssertEqual(back.awayMessage, "")
        let after: Profile = try bob.request(ProfileGet(username: "alice"))
        XCTAssertFalse(after.away)
    }

    func testAwaySurvivesReconnectsAndShowsInTheContactList() throws {
        try makeContacts()
        let _: OK = try alice.request(AwaySet(away: true))
        _ = try bob.push(Presence.self) { $0.user.username == "alice" && $0.away }
        alice.close()
        let offline = try bob.push(Presence.self) { $0.user.username == "alice" && !$0.online }
        XCTAssertTrue(offline.away, "going offline does not clear away")
        let again = try TestUsers.secondSession(of: alice, port: server.port)
        let online = try bob.push(Presence.self) { $0.user.username == "alice" && $0.online }
        XCTAssertTrue(online.away, "reconnecting does not clear away: only /back does")
        XCTAssertEqual(online.awayMessage, "")
        let list: Contacts = try bob.request(ContactsList())
        XCTAssertEqual(list.contacts.first { $0.user.username == "alice" }?.away, true)
        let own: Profile = try again.request(ProfileGet(username: "alice"))
        XCTAssertTrue(own.away, "the user's own profile says they are away")
    }

    func testAwayIsNotShownToNonContacts() throws {
        _ = try alice.openDM(with: "bob")
        let _: OK = try alice.request(AwaySet(away: true, message: "gone"))
        let profile: Profile = try bob.request(ProfileGet(username: "alice"))
        XCTAssertFalse(profile.away, "presence, away included, is for accepted contacts only")
        let _: Pong = try bob.request(Ping())
        XCTAssertNil(bob.inbox.first { $0.type == .presence })
    }

    func testAwayMessageRules() throws {
        let long = String(repeating: "a", count: ChatServer.maxAwayMessage + 1)
        let tooLong = try alice.requestError(AwaySet(away: true, message: long))
        XCTAssertEqual(tooLong.errorCode, .tooLong)
        XCTAssertEqual(tooLong.limit, UInt64(ChatServer.maxAwayMessage))
        XCTAssertEqual(tooLong.field, "message")
        // Issue 23: one limit, the spec's 200 (65-200 used to be refused as "limit 64").
        for n in [64, 65, 200] {
            let _: OK = try alice.request(AwaySet(away: true, message: String(repeating: "é", count: n)))
            XCTAssertEqual(try server.store.awayMessage(userID: alice.user!.userID)?.unicodeScalars.count, n)
        }
        let _: OK = try alice.request(AwaySet(away: false))
        let bidi = try alice.requestError(AwaySet(away: true, message: "out\u{202E}gnp.exe"))
        XCTAssertEqual(bidi.errorCode, .invalidArgument)
        XCTAssertNil(try server.store.awayMessage(userID: alice.user!.userID), "a refused AWAY changes nothing")
    }

    func testAwayIsStoredAcrossReopeningTheDatabase() throws {
        let id = alice.user!.userID
        let _: OK = try alice.request(AwaySet(away: true, message: "à demain"))
        let path = server.directory.path + "/messageai.sqlite"
        server.stop()
        let reopened = try SQLiteStore(path: path, synchronous: .normal, checkpoints: WALCheckpointer.Limits())
        defer { reopened.close() }
        XCTAssertEqual(try reopened.awayMessage(userID: id), "à demain")
        XCTAssertTrue(try reopened.clearAway(userID: id))
        XCTAssertNil(try reopened.awayMessage(userID: id))
        XCTAssertFalse(try reopened.clearAway(userID: id))
    }

    func testWelcomeAnnouncesTheSendRateLimit() throws {
        let limited = try TestServer { $0.rateLimit = 7; $0.rateWindowSeconds = 2.5 }
        defer { limited.stop() }
        let c = try TestClient(port: limited.port)
        let welcome = try c.hello()
        XCTAssertEqual(welcome.sendLimit, 7)
        XCTAssertEqual(welcome.sendWindow, 2_500)
    }

    func testRemovingSomeoneWhoIsNotAContactSaysSo() throws {
        try makeContacts()
        let _: OK = try alice.request(ContactRemove(username: "bob"))
        let second = try alice.requestError(ContactRemove(username: "bob"))
        XCTAssertEqual(second.errorCode, .notAContact, "a second /remove must not say removed again")
        XCTAssertTrue(second.message.contains("bob"))
    }

    func testCapitalsInANewUsernameAreRefusedWithTheLowercaseForm() throws {
        let c = try server.client()
        let e = try c.requestError(Register(email: "carol@example.org", username: "Carol", password: TestUsers.password, displayName: ""))
        XCTAssertEqual(e.errorCode, .invalidUsername)
        XCTAssertTrue(e.message.contains("try 'carol'"), e.message)
        let ok: SessionGranted = try c.request(Register(email: "carol@example.org", username: "carol", password: TestUsers.password, displayName: ""))
        XCTAssertEqual(ok.user.username, "carol")
    }
}
