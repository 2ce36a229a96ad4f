import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// The admin capability (`AdminStore`, issue 27), written against the interface (`store.adminCapability`)
/// and run on an in-memory and a temp-file database.
final class StoreAdminTests: XCTestCase {
    func testDisableAndEnableAnAccountKeepItsSessions() {
        forEachStore { store, kind in
            let admin = try XCTUnwrap(store.adminCapability, "\(kind)")
            let alice = try store.makeUser("alice")
            let bob = try store.makeUser("bob")
            let session = try store.createSession(userID: bob.id, tokenHash: [UInt8](repeating: 5, count: 32), device: "phone", now: 10)
            XCTAssertFalse(try admin.isDisabled(userID: bob.id))
            XCTAssertTrue(try admin.setDisabled(userID: bob.id, at: 5_000))
            XCTAssertTrue(try admin.isDisabled(userID: bob.id))
            XCTAssertFalse(try admin.isDisabled(userID: alice.id), "only bob (\(kind))")
            XCTAssertEqual(try admin.account(username: "BOB")?.disabledAt, 5_000, "usernames case-insensitively")
            XCTAssertEqual(try admin.accounts().map { [$0.user.username: $0.disabled] }, [["alice": false], ["bob": true]])
            XCTAssertEqual(try admin.session(id: session.id), session, "disabling keeps the sessions")
            XCTAssertTrue(try admin.setDisabled(userID: bob.id, at: 0))
            XCTAssertFalse(try admin.isDisabled(userID: bob.id))
            XCTAssertFalse(try admin.setDisabled(userID: 999, at: 1), "no such user")
            XCTAssertNil(try admin.account(username: "carol"))
        }
    }

    func testRevokeEverySessionOfOneUser() {
        forEachStore { store, _ in
            let admin = try XCTUnwrap(store.adminCapability)
            let dan = try store.makeUser("dan")
            let eve = try store.makeUser("eve")
            let a = try store.createSession(userID: dan.id, tokenHash: [UInt8](repeating: 1, count: 32), device: "a", now: 1)
            let b = try store.createSession(userID: dan.id, tokenHash: [UInt8](repeating: 2, count: 32), device: "b", now: 2)
            let c = try store.createSession(userID: eve.id, tokenHash: [UInt8](repeating: 3, count: 32), device: "c", now: 3)
            XCTAssertEqual(try admin.deleteAllSessions(userID: dan.id), [a.id, b.id])
            XCTAssertEqual(try store.sessions(userID: dan.id), [])
            XCTAssertEqual(try admin.session(id: c.id), c, "other users untouched")
            XCTAssertNil(try admin.session(id: a.id))
        }
    }

    func testStatisticsCountWhatIsStored() {
        forEachStore { store, kind in
            let admin = try XCTUnwrap(store.adminCapability)
            let alice = try store.makeUser("alice")
            let bob = try store.makeUser("bob")
            let (dm, _) = try store.directConversation(alice.id, bob.id, now: 1)
            _ = try store.send(alice, dm.id, "one")
            _ = try store.send(bob, dm.id, "two")
            _ = try admin.setDisabled(userID: bob.id, at: 9)
            _ = try store.createSession(userID: alice.id, tokenHash: [UInt8](repeating: 4, count: 32), device: "x", now: 1)
            let s = try admin.statistics()
            XCTAssertEqual([s.users, s.disabledUsers, s.conversations, s.messages, s.sessions, s.files], [2, 1, 1, 2, 1, 0], "\(kind)")
            XCTAssertGreaterThan(s.databaseBytes, 0)
        }
    }

    func testDeleteFreesTheNameAndKeepsTheMessages() {
        forEachStore { store, kind in
            let admin = try XCTUnwrap(store.adminCapability)
            let alice = try store.makeUser("alice")
            let bob = try store.makeUser("bob")
            let (dm, _) = try store.directConversation(alice.id, bob.id, now: 1)
            _ = try store.send(bob, dm.id, "still here")
            _ = try store.addContact(owner: alice.id, contact: bob.id, now: 1)
            _ = try store.createSession(userID: bob.id, tokenHash: [UInt8](repeating: 6, count: 32), device: "x", now: 1)
            XCTAssertEqual(try admin.deleteAccount(userID: bob.id, now: 50), "deleted-\(bob.id)", "\(kind)")
            XCTAssertNil(try store.user(username: "bob"))
            XCTAssertNil(try store.user(login: "bob@example.com"))
            XCTAssertEqual(try store.sessions(userID: bob.id), [])
            XCTAssertEqual(try store.contacts(owner: alice.id), [])
            XCTAssertTrue(try admin.isDisabled(userID: bob.id))
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map { "\($0.senderUsername): \($0.text)" },
                           ["deleted-\(bob.id): still here"])
            XCTAssertNoThrow(try store.makeUser("bob"), "the name is free again")
            XCTAssertNil(try admin.deleteAccount(userID: 999, now: 1))
        }
    }

    func testSnapshotIsAConsistentCopyWithMode0600() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let alice = try store.makeUser("alice")
        let bob = try store.makeUser("bob")
        let (dm, _) = try store.directConversation(alice.id, bob.id, now: 1)
        for i in 0..<50 { _ = try store.send(alice, dm.id, "message \(i)") }
        let copy = dir.url.appendingPathComponent("copy.sqlite").path
        try XCTUnwrap(store.adminCapability).snapshot(into: copy)
        let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? NSNumber
        XCTAssertEqual(mode?.intValue, 0o600)
        let restored = try SQLiteStore(path: copy)
        defer { restored.close() }
        XCTAssertEqual(try restored.messages(conversationID: dm.id, afterSeq: 0, limit: 100).map(\.text),
                       (0..<50).map { "message \($0)" })
        XCTAssertEqual(try restored.user(username: "bob")?.passwordHash, "pbkdf2$test$bob")
        // A second snapshot into the same file is refused rather than written over it.
        XCTAssertThrowsError(try XCTUnwrap(store.adminCapability).snapshot(into: copy))
        // An in-memory database has no file to copy: it says so.
        let memory = try SQLiteStore(path: ":memory:")
        defer { memory.close() }
        XCTAssertThrowsError(try XCTUnwrap(memory.adminCapability).snapshot(into: dir.url.appendingPathComponent("m.sqlite").path))
    }
}
