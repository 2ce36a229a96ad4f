import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Accounts and sessions, groups, membership and read markers, one body each on every backend
/// (`StoreBackendTestCase`): what LOGIN, RESUME, the group handlers and MARK rely on from any store.
final class StoreAccountsSharedTests: StoreBackendTestCase {
    /// Usernames and emails are unique ignoring case, a login finds either, and a session is
    /// found by its token hash and ended by its own user only.
    func testAccountsAndSessions() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("Ann")
            let byName = try await store.user(login: "ANN"), byEmail = try await store.user(login: "ann@EXAMPLE.com")
            XCTAssertEqual([byName?.id, byEmail?.id], [ann.id, ann.id], "\(backend): a login by either, in any case")
            do {
                _ = try await store.createUser(email: "other@example.com", username: "aNN", displayName: "x", passwordHash: "h", now: 1)
                XCTFail("\(backend): a username taken in another case was accepted")
            } catch StoreError.usernameTaken {}
            do {
                _ = try await store.createUser(email: "ANN@example.com", username: "ann2", displayName: "x", passwordHash: "h", now: 1)
                XCTFail("\(backend): an email taken in another case was accepted")
            } catch StoreError.emailTaken {}

            let ben = try await store.addUser("ben")
            let laptop = try await store.createSession(userID: ann.id, tokenHash: Array(repeating: 1, count: 32), device: "laptop", now: 5)
            let phone = try await store.createSession(userID: ann.id, tokenHash: Array(repeating: 2, count: 32), device: "phone", now: 6)
            let found = try await store.session(tokenHash: Array(repeating: 2, count: 32))
            XCTAssertEqual(found?.id, phone.id, "\(backend)")
            XCTAssertEqual(found?.device, "phone")
            let notBens = try await store.deleteSession(id: laptop.id, userID: ben.id)
            XCTAssertFalse(notBens, "\(backend): another user cannot end ann's session")
            let ended = try await store.deleteSessions(userID: ann.id, except: phone.id)
            XCTAssertEqual(ended, [laptop.id], "\(backend)")
            let left = try await store.sessions(userID: ann.id).map(\.id)
            XCTAssertEqual(left, [phone.id], "\(backend)")
            let gone = try await store.session(tokenHash: Array(repeating: 1, count: 32))
            XCTAssertNil(gone, "\(backend): an ended session's token finds nothing")
        }
    }

    /// A group's members, its name, a member who leaves, and read markers that only rise,
    /// are capped at the last message and carry delivered along.
    func testGroupsMembershipAndReadMarkers() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let cal = try await store.addUser("cal"), dan = try await store.addUser("dan")
            let group = try await store.createGroup(name: "trip", creator: ann.id, members: [ben.id, cal.id], now: 10)
            let members = try await store.memberIDs(conversationID: group.id).sorted()
            XCTAssertEqual(members, [ann.id, ben.id, cal.id].sorted(), "\(backend)")
            let outsider = try await store.membership(conversationID: group.id, userID: dan.id)
            XCTAssertNil(outsider, "\(backend): dan is no member")
            let member = try await store.membership(conversationID: group.id, userID: ben.id)
            XCTAssertEqual(member, Membership(pending: false, blockedPartner: nil), "\(backend)")
            try await store.renameGroup(conversationID: group.id, name: "trip 2")
            let renamed = try await store.conversation(id: group.id)
            XCTAssertEqual(renamed?.name, "trip 2", "\(backend)")

            for text in ["one", "two", "three"] { _ = try await store.post(ann, group.id, text) }
            let raised = try await store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 2, read: 1)
            XCTAssertEqual([raised.delivered, raised.read], [2, 1], "\(backend)")
            XCTAssertTrue(raised.changed)
            let lower = try await store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 1, read: 0)
            XCTAssertEqual([lower.delivered, lower.read], [2, 1], "\(backend): markers never go down")
            XCTAssertFalse(lower.changed)
            let capped = try await store.raiseMarkers(conversationID: group.id, userID: cal.id, delivered: 0, read: 99)
            XCTAssertEqual([capped.delivered, capped.read], [3, 3], "\(backend): read carries delivered, capped at the last seq")
            let markers = try await store.markers(conversationID: group.id)
            let byUser = Dictionary(uniqueKeysWithValues: markers.map { ($0.user.userID, [$0.deliveredSeq, $0.readSeq]) })
            XCTAssertEqual(byUser[ben.id], [2, 1], "\(backend)")
            XCTAssertEqual(byUser[cal.id], [3, 3], "\(backend)")

            try await store.removeMember(conversationID: group.id, userID: cal.id)
            let left = try await store.isMember(conversationID: group.id, userID: cal.id)
            XCTAssertFalse(left, "\(backend): cal left")
            let after = try await store.memberIDs(conversationID: group.id).sorted()
            XCTAssertEqual(after, [ann.id, ben.id].sorted(), "\(backend)")
        }
    }
}
