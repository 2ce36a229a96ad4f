import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// The admin capability, held to the SQLite store's answers (Tests/MessageAIServerTests/StoreAdminTests.swift).
final class AdminTests: PostgresTestCase {
    func testDisableAndEnableAnAccountKeepItsSessions() async throws {
        let store = try await openStore()
        let alice = try await makeUser(store, "alice"), bob = try await makeUser(store, "bob")
        let session = try await store.createSession(userID: bob, tokenHash: [UInt8](repeating: 5, count: 32), device: "phone", now: 10)
        let before = try await store.isDisabled(userID: bob)
        XCTAssertFalse(before)
        let set = try await store.setDisabled(userID: bob, at: 5_000)
        XCTAssertTrue(set)
        let bobDisabled = try await store.isDisabled(userID: bob), aliceDisabled = try await store.isDisabled(userID: alice)
        XCTAssertTrue(bobDisabled)
        XCTAssertFalse(aliceDisabled, "only bob")
        let account = try await store.account(username: "BOB")
        XCTAssertEqual(account?.disabledAt, 5_000, "usernames case-insensitively")
        let all = try await store.accounts().map { [$0.user.username: $0.disabled] }
        XCTAssertEqual(all, [["alice": false], ["bob": true]])
        let kept = try await store.session(id: session.id)
        XCTAssertEqual(kept, session, "disabling keeps the sessions")
        // The login still finds the account, so that only its owner (after the password) is
        // told it is disabled; the server refuses on isDisabled, as on SQLite.
        let byLogin = try await store.user(login: "bob@example.com")
        XCTAssertEqual(byLogin?.id, bob)
        let enabled = try await store.setDisabled(userID: bob, at: 0)
        XCTAssertTrue(enabled)
        let after = try await store.isDisabled(userID: bob)
        XCTAssertFalse(after)
        let nobody = try await store.setDisabled(userID: 987_654, at: 1), noAccount = try await store.account(username: "carol")
        XCTAssertFalse(nobody, "no such user")
        XCTAssertNil(noAccount)
    }

    func testRevokeEverySessionOfOneUser() async throws {
        let store = try await openStore()
        let dan = try await makeUser(store, "dan"), eve = try await makeUser(store, "eve")
        let a = try await store.createSession(userID: dan, tokenHash: [UInt8](repeating: 1, count: 32), device: "a", now: 1)
        let b = try await store.createSession(userID: dan, tokenHash: [UInt8](repeating: 2, count: 32), device: "b", now: 2)
        let c = try await store.createSession(userID: eve, tokenHash: [UInt8](repeating: 3, count: 32), device: "c", now: 3)
        let deleted = try await store.deleteAllSessions(userID: dan)
        XCTAssertEqual(deleted, [a.id, b.id])
        let left = try await store.sessions(userID: dan)
        XCTAssertEqual(left, [])
        let others = try await store.session(id: c.id), gone = try await store.session(id: a.id)
        XCTAssertEqual(others, c, "other users untouched")
        XCTAssertNil(gone)
    }

    func testStatisticsCountWhatIsStored() async throws {
        let store = try await openStore()
        let alice = try await makeUser(store, "alice"), bob = try await makeUser(store, "bob")
        let (dm, _) = try await store.directConversation(alice, bob, now: 1)
        _ = try await store.appendMessage(conversationID: dm.id, senderID: alice, clientID: newClientID(), text: "one", serverTime: 1)
        _ = try await store.appendMessage(conversationID: dm.id, senderID: bob, clientID: newClientID(), text: "two", serverTime: 1)
        _ = try await store.appendMessage(conversationID: dm.id, senderID: bob, clientID: newClientID(), text: "three", serverTime: 1)
        _ = try await store.apply(NewChange(conversationID: dm.id, actorID: bob, clientID: newClientID(), targetSeq: 3,
                                                          action: .delete, serverTime: 2))
        _ = try await store.setDisabled(userID: bob, at: 9)
        _ = try await store.createSession(userID: alice, tokenHash: [UInt8](repeating: 4, count: 32), device: "x", now: 1)
        let s = try await store.statistics()
        XCTAssertEqual([s.users, s.disabledUsers, s.conversations, s.messages, s.sessions, s.files], [2, 1, 1, 2, 1, 0],
                       "a deleted message is not counted")
        XCTAssertEqual(s.fileBytes, 0)
        XCTAssertGreaterThan(s.databaseBytes, 0)
    }

    func testDeleteFreesTheNameAndKeepsTheMessages() async throws {
        let store = try await openStore()
        let alice = try await makeUser(store, "alice"), bob = try await makeUser(store, "bob", displayName: "Bob Builder")
        let (dm, _) = try await store.directConversation(alice, bob, now: 1)
        _ = try await store.appendMessage(conversationID: dm.id, senderID: bob, clientID: newClientID(), text: "still here", serverTime: 1)
        try await store.addContact(owner: alice, contact: bob, now: 1)
        try await store.block(blocker: bob, blocked: alice, now: 1)
        try await store.setAway(userID: bob, message: "gone fishing", now: 1)
        _ = try await store.createSession(userID: bob, tokenHash: [UInt8](repeating: 6, count: 32), device: "x", now: 1)
        let name = try await store.deleteAccount(userID: bob, now: 50)
        XCTAssertEqual(name, "deleted-\(bob)")
        let byName = try await store.user(username: "bob"), byEmail = try await store.user(login: "bob@example.com")
        XCTAssertNil(byName)
        XCTAssertNil(byEmail, "the deleted account cannot be found by its old login")
        let found = try await store.searchUsers(query: "Builder", limit: 10)
        XCTAssertEqual(found, [], "nor by its old display name")
        let sessions = try await store.sessions(userID: bob), contacts = try await store.contacts(owner: alice)
        XCTAssertEqual(sessions, [])
        XCTAssertEqual(contacts, [])
        let partners = try await store.blockPartners(of: alice), away = try await store.awayMessage(userID: bob)
        XCTAssertEqual(partners, [])
        XCTAssertNil(away)
        let disabled = try await store.isDisabled(userID: bob)
        XCTAssertTrue(disabled)
        let history = try await store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map { "\($0.senderUsername): \($0.text)" }
        XCTAssertEqual(history, ["deleted-\(bob): still here"])
        let reborn = try await makeUser(store, "bob")
        XCTAssertNotEqual(reborn, bob, "the name is free again")
        let none = try await store.deleteAccount(userID: 987_654, now: 1)
        XCTAssertNil(none)
    }
}
