import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// The store's operations with the SQLite store's behaviour: accounts, conversations, markers,
/// history and sync, changes. Search has its own file.
final class StoreOperationsTests: PostgresTestCase {
    func testAccountsAndSessions() async throws {
        let store = try await openStore()
        let id = try await store.createUser(username: "Zoë", email: "Zoe@Example.org", displayName: "Zoë Ŝ", passwordHash: "h1", now: 5)
        await assertThrows(.usernameTaken) {
            _ = try await store.createUser(username: "ZOË", email: "other@example.org", displayName: "x", passwordHash: "x", now: 6)
        }
        await assertThrows(.emailTaken) {
            _ = try await store.createUser(username: "other", email: "zoe@EXAMPLE.org", displayName: "x", passwordHash: "x", now: 6)
        }
        let byName = try await store.user(login: "zoë")
        let byEmail = try await store.user(login: "ZOE@example.ORG")
        XCTAssertEqual(byName?.id, id)
        XCTAssertEqual(byEmail?.id, id)
        XCTAssertEqual(byName?.displayName, "Zoë Ŝ")
        try await store.setLastSeen(userID: id, 100)
        try await store.setLastSeen(userID: id, 50)
        let seen = try await store.user(id: id)?.lastSeen
        XCTAssertEqual(seen, 100, "last seen never moves back (two nodes reporting out of order)")

        let one = try await store.createSession(userID: id, tokenHash: [1, 2, 3], device: "laptop", now: 10)
        let two = try await store.createSession(userID: id, tokenHash: [4, 5, 6], device: "phone 📱", now: 11)
        let found = try await store.session(tokenHash: [4, 5, 6])
        XCTAssertEqual(found, two)
        let deleted = try await store.deleteSessions(userID: id, except: two.id)
        XCTAssertEqual(deleted, [one.id])
        let otherUsersDelete = try await store.deleteSession(id: two.id, userID: id + 1)
        XCTAssertFalse(otherUsersDelete)
        let left = try await store.sessions(userID: id)
        XCTAssertEqual(left.map(\.device), ["phone 📱"])
    }

    func testGroupsMembersAndTheConversationList() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 3)
        let (other, _) = try await makeGroup(store, users: 1)
        try await store.addMembers(conversationID: other, userIDs: [users[0], users[0]], now: now())
        try await store.renameGroup(conversationID: group, name: "שלום team 日本")
        let t = now() + 10_000
        _ = try await store.appendMessage(conversationID: group, senderID: users[1], clientID: newClientID(), text: "one", serverTime: t + 100)
        _ = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(), text: "two", serverTime: t + 200)
        _ = try await store.appendMessage(conversationID: group, senderID: users[2], clientID: newClientID(), text: "three", serverTime: t + 300)
        _ = try await store.appendMessage(conversationID: other, senderID: users[0], clientID: newClientID(), text: "elsewhere", serverTime: t + 150)

        let list = try await store.conversationList(userID: users[0])
        XCTAssertEqual(list.map(\.conversationID), [group, other], "most recent activity first")
        XCTAssertEqual(list[0].name, "שלום team 日本")
        XCTAssertEqual(list[0].unread, 2, "messages from others above the read marker")
        XCTAssertEqual(list[0].lastMessage?.text, "three")
        XCTAssertEqual(list[0].members.count, 3)
        XCTAssertEqual(list[1].members.count, 2, "adding a member twice adds them once")

        _ = try await store.raiseMarkers(conversationID: group, userID: users[0], delivered: 0, read: 2)
        let view = try await store.conversationView(id: group, userID: users[0])
        XCTAssertEqual(view?.unread, 1)
        XCTAssertEqual(view?.readSeq, 2)
        XCTAssertEqual(view?.deliveredSeq, 2, "read implies delivered")

        try await store.removeMember(conversationID: group, userID: users[0])
        let gone = try await store.conversationView(id: group, userID: users[0])
        XCTAssertNil(gone)
        await assertThrows(.notFound) { try await store.removeMember(conversationID: group, userID: users[0]) }
        await assertThrows(.notFound) { try await store.addMembers(conversationID: 987_654, userIDs: [users[0]], now: 1) }
    }

    func testMarkersNeverMoveBackwardsEvenRacing() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 2)
        for i in 0..<20 {
            _ = try await store.appendMessage(conversationID: group, senderID: users[1], clientID: newClientID(), text: "m\(i)", serverTime: now())
        }
        let raised = try await store.raiseMarkers(conversationID: group, userID: users[0], delivered: 10, read: 5)
        XCTAssertTrue(raised == (10, 5, true))
        let lower = try await store.raiseMarkers(conversationID: group, userID: users[0], delivered: 3, read: 1)
        XCTAssertTrue(lower == (10, 5, false), "\(lower)")
        let capped = try await store.raiseMarkers(conversationID: group, userID: users[0], delivered: 999, read: 999)
        XCTAssertTrue(capped == (20, 20, true), "capped at the last seq: \(capped)")
        await assertThrows(.notFound) {
            _ = try await store.raiseMarkers(conversationID: group, userID: 424_242, delivered: 1, read: 1)
        }

        // A member's devices raising at once, in any order: the result is the highest.
        let (other, members) = try await makeGroup(store, users: 2)
        for i in 0..<50 {
            _ = try await store.appendMessage(conversationID: other, senderID: members[1], clientID: newClientID(), text: "n\(i)", serverTime: now())
        }
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for value in (1...50).shuffled() {
                tasks.addTask {
                    _ = try await store.raiseMarkers(conversationID: other, userID: members[0], delivered: UInt64(value), read: UInt64(value) - 1)
                }
            }
            try await tasks.waitForAll()
        }
        let markers = try await store.markers(conversationID: other)
        let mine = try XCTUnwrap(markers.first { $0.user.userID == members[0] })
        XCTAssertEqual(mine.deliveredSeq, 50)
        XCTAssertEqual(mine.readSeq, 49)
    }
}
