import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StoreAccountsTests: XCTestCase {
    func testUsernamesAndEmailsAreUniqueCaseInsensitively() {
        forEachStore { store, kind in
            let alice = try store.createUser(email: "Alice@Example.com", username: "Alice", displayName: "Alice A",
                                             passwordHash: "h1", now: 10)
            XCTAssertEqual(alice.username, "Alice", "stored as typed (\(kind))")
            XCTAssertThrowsError(try store.createUser(email: "other@example.com", username: "aLICE", displayName: "x",
                                                      passwordHash: "h", now: 11)) {
                XCTAssertEqual($0 as? StoreError, .usernameTaken, "\(kind)")
            }
            XCTAssertThrowsError(try store.createUser(email: "alice@EXAMPLE.COM", username: "alice2", displayName: "x",
                                                      passwordHash: "h", now: 11)) {
                XCTAssertEqual($0 as? StoreError, .emailTaken, "\(kind)")
            }
            // Failed attempts left nothing behind.
            XCTAssertNil(try store.user(username: "alice2"))
            XCTAssertEqual(try store.searchUsers(query: "", limit: 10).count, 1)
        }
    }

    func testLookupByIdUsernameOrEmail() {
        forEachStore { store, kind in
            let bob = try store.createUser(email: "Bob@Mail.org", username: "Bob_1", displayName: "Bob",
                                           passwordHash: "pbkdf2$x", now: 42)
            XCTAssertEqual(try store.user(id: bob.id), bob, "\(kind)")
            XCTAssertEqual(try store.user(login: "bob_1"), bob)
            XCTAssertEqual(try store.user(login: "BOB@mail.ORG"), bob)
            XCTAssertEqual(try store.user(username: "BOB_1"), bob)
            XCTAssertNil(try store.user(login: "nobody"))
            XCTAssertNil(try store.user(id: bob.id + 100))
            XCTAssertEqual(bob.lastSeen, 0)
            XCTAssertEqual(bob.createdAt, 42)
        }
    }

    func testProfileUpdates() {
        forEachStore { store, _ in
            let carol = try store.makeUser("carol")
            try store.setDisplayName(userID: carol.id, "Carol C. ✨")
            try store.setPasswordHash(userID: carol.id, "new-hash")
            try store.setLastSeen(userID: carol.id, 9_999)
            let reloaded = try XCTUnwrap(try store.user(id: carol.id))
            XCTAssertEqual(reloaded.displayName, "Carol C. ✨")
            XCTAssertEqual(reloaded.passwordHash, "new-hash")
            XCTAssertEqual(reloaded.lastSeen, 9_999)
            XCTAssertThrowsError(try store.setDisplayName(userID: 999, "x")) { XCTAssertEqual($0 as? StoreError, .notFound) }
        }
    }

    func testSessionsCreateLookupTouchAndDelete() {
        forEachStore { store, kind in
            let dan = try store.makeUser("dan")
            let eve = try store.makeUser("eve")
            let hashes = (0..<3).map { i in [UInt8](repeating: UInt8(i + 1), count: 32) }
            let s1 = try store.createSession(userID: dan.id, tokenHash: hashes[0], device: "laptop", now: 100)
            let s2 = try store.createSession(userID: dan.id, tokenHash: hashes[1], device: "phone", now: 200)
            let s3 = try store.createSession(userID: eve.id, tokenHash: hashes[2], device: "tablet", now: 300)

            XCTAssertEqual(try store.session(tokenHash: hashes[1]), s2, "\(kind)")
            XCTAssertNil(try store.session(tokenHash: [UInt8](repeating: 9, count: 32)))
            XCTAssertEqual(try store.sessions(userID: dan.id).map(\.id), [s1.id, s2.id])

            try store.touchSession(id: s1.id, now: 500)
            XCTAssertEqual(try store.session(tokenHash: hashes[0])?.lastUsedAt, 500)

            // Someone else's session id cannot be deleted.
            XCTAssertFalse(try store.deleteSession(id: s3.id, userID: dan.id))
            XCTAssertNotNil(try store.session(tokenHash: hashes[2]))

            let s4 = try store.createSession(userID: dan.id, tokenHash: [UInt8](repeating: 7, count: 32), device: "cli", now: 400)
            XCTAssertEqual(try store.deleteSessions(userID: dan.id, except: s4.id), [s1.id, s2.id])
            XCTAssertEqual(try store.sessions(userID: dan.id).map(\.id), [s4.id])
            XCTAssertEqual(try store.sessions(userID: eve.id).map(\.id), [s3.id], "other users untouched")

            XCTAssertTrue(try store.deleteSession(id: s4.id, userID: dan.id))
            XCTAssertFalse(try store.deleteSession(id: s4.id, userID: dan.id))
            XCTAssertNil(try store.session(tokenHash: [UInt8](repeating: 7, count: 32)))
        }
    }

    func testSessionTokenHashIsUnique() {
        forEachStore { store, _ in
            let dan = try store.makeUser("dan")
            let hash = [UInt8](repeating: 3, count: 32)
            _ = try store.createSession(userID: dan.id, tokenHash: hash, device: "a", now: 1)
            XCTAssertThrowsError(try store.createSession(userID: dan.id, tokenHash: hash, device: "b", now: 2))
            XCTAssertThrowsError(try store.createSession(userID: 12345, tokenHash: [1], device: "c", now: 2)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
        }
    }
}
