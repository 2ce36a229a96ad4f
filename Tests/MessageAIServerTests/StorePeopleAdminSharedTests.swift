import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// People (the directory, profiles, away) and the admin calls, one body each on every backend
/// (`StoreBackendTestCase`): what /people, /profile, /away and `messageai-server admin ...`
/// rely on from any store.
final class StorePeopleAdminSharedTests: StoreBackendTestCase {
    /// The directory finds a username by its start, a display name by its words (the last as
    /// a prefix) and an email only whole, in any case, ordered by username; a profile's
    /// display name, time zone and last seen read back as written; away is set, replaced and
    /// cleared once.
    func testDirectoryProfileAndAway() async {
        await forEachBackend { store, backend in
            let zoe = try await store.createUser(email: "zoe@example.com", username: "zoe", displayName: "Zoë Martín",
                                                 passwordHash: "h", now: 1)
            _ = try await store.createUser(email: "zed@example.com", username: "zed", displayName: "Mr Zed", passwordHash: "h", now: 1)
            _ = try await store.createUser(email: "amy@example.com", username: "amy", displayName: "Amy Koeller", passwordHash: "h", now: 1)

            let byStart = try await store.searchUsers(query: "Z", limit: 10).map(\.username)
            XCTAssertEqual(byStart, ["zed", "zoe"], "\(backend): usernames by their start, in order")
            let byWords = try await store.searchUsers(query: "martín zo", limit: 10).map(\.username)
            XCTAssertEqual(byWords, ["zoe"], "\(backend): display-name words, the last one a prefix")
            let byLastWord = try await store.searchUsers(query: "KOEL", limit: 10).map(\.username)
            XCTAssertEqual(byLastWord, ["amy"], "\(backend): a display name's later word")
            let byEmail = try await store.searchUsers(query: "ZOE@example.COM", limit: 10).map(\.username)
            XCTAssertEqual(byEmail, ["zoe"], "\(backend): an email, whole, in any case")
            let partEmail = try await store.searchUsers(query: "zoe@example", limit: 10)
            XCTAssertEqual(partEmail, [], "\(backend): part of an email finds nobody (no probing addresses)")
            let limited = try await store.searchUsers(query: "z", limit: 1).map(\.username)
            XCTAssertEqual(limited, ["zed"], "\(backend)")

            try await store.setDisplayName(userID: zoe.id, "Zoë 🇫🇷 مرحبا")
            try await store.setTimeZone(userID: zoe.id, "Asia/Tokyo")
            try await store.setLastSeen(userID: zoe.id, 1_795_000_000_000)
            let profile = try await store.user(id: zoe.id)
            XCTAssertEqual(profile?.displayName, "Zoë 🇫🇷 مرحبا", "\(backend)")
            XCTAssertEqual(profile?.timeZone, "Asia/Tokyo", "\(backend)")
            XCTAssertEqual(profile?.lastSeen, 1_795_000_000_000, "\(backend)")
            let renamed = try await store.searchUsers(query: "مرحبا", limit: 10).map(\.username)
            XCTAssertEqual(renamed, ["zoe"], "\(backend): the new display name is searchable")
            let oldName = try await store.searchUsers(query: "martín", limit: 10)
            XCTAssertEqual(oldName, [], "\(backend): the old one is not")

            let notAway = try await store.awayMessage(userID: zoe.id)
            XCTAssertNil(notAway, "\(backend)")
            try await store.setAway(userID: zoe.id, message: "", now: 5)
            let silent = try await store.awayMessage(userID: zoe.id)
            XCTAssertEqual(silent, "", "\(backend): away without a message is still away")
            try await store.setAway(userID: zoe.id, message: "at lunch 🍜", now: 6)
            let replaced = try await store.awayMessage(userID: zoe.id)
            XCTAssertEqual(replaced, "at lunch 🍜", "\(backend)")
            let cleared = try await store.clearAway(userID: zoe.id)
            let clearedTwice = try await store.clearAway(userID: zoe.id)
            XCTAssertEqual([cleared, clearedTwice], [true, false], "\(backend)")
            let back = try await store.awayMessage(userID: zoe.id)
            XCTAssertNil(back, "\(backend)")
        }
    }

    /// Accounts as the admin lists them, disabling and enabling, ending every session, the
    /// counts of `admin stats`, and deleting an account: its name is free again, its messages
    /// stay under "deleted user", its sessions and contacts are gone.
    func testAdminAccountsStatisticsAndDeletion() async {
        await forEachBackend { store, backend in
            guard let admin = store.admin else { return XCTFail("\(backend): no admin capability") }
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let (dm, _) = try await store.directConversation(ann.id, ben.id, now: 3)
            _ = try await store.post(ann, dm.id, "hello ben")
            _ = try await store.post(ben, dm.id, "hi ann")
            try await store.addContact(owner: ann.id, contact: ben.id, now: 4)
            try await store.addContact(owner: ben.id, contact: ann.id, now: 4)
            let one = try await store.createSession(userID: ann.id, tokenHash: Array(repeating: 7, count: 32), device: "laptop", now: 5)
            let two = try await store.createSession(userID: ann.id, tokenHash: Array(repeating: 8, count: 32), device: "phone", now: 5)
            _ = try await store.createSession(userID: ben.id, tokenHash: Array(repeating: 9, count: 32), device: "phone", now: 5)

            let listed = try await admin.accounts().map { [$0.user.username, "\($0.disabled)"] }
            XCTAssertEqual(listed, [["ann", "false"], ["ben", "false"]], "\(backend)")
            let disabled = try await admin.setDisabled(userID: ben.id, at: 1_000)
            let nobody = try await admin.setDisabled(userID: 9_999, at: 1_000)
            XCTAssertEqual([disabled, nobody], [true, false], "\(backend)")
            let benDisabled = try await admin.isDisabled(userID: ben.id)
            XCTAssertTrue(benDisabled, "\(backend)")
            let benAccount = try await admin.account(username: "BEN")
            XCTAssertEqual(benAccount?.disabledAt, 1_000, "\(backend): found in any case, with when")

            var stats = try await admin.statistics()
            XCTAssertEqual([stats.users, stats.disabledUsers, stats.conversations, stats.messages, stats.sessions], [2, 1, 1, 2, 3],
                           "\(backend)")
            XCTAssertGreaterThan(stats.databaseBytes, 0, "\(backend)")
            _ = try await admin.setDisabled(userID: ben.id, at: 0)
            let enabled = try await admin.isDisabled(userID: ben.id)
            XCTAssertFalse(enabled, "\(backend): enabled again")

            let ended = try await admin.deleteAllSessions(userID: ann.id).sorted()
            XCTAssertEqual(ended, [one.id, two.id].sorted(), "\(backend)")
            let gone = try await admin.session(id: one.id)
            XCTAssertNil(gone, "\(backend)")

            let newName = try await admin.deleteAccount(userID: ann.id, now: 2_000)
            XCTAssertEqual(newName, "deleted-\(ann.id)", "\(backend)")
            let missing = try await admin.deleteAccount(userID: 9_999, now: 2_000)
            XCTAssertNil(missing, "\(backend)")
            let byOldName = try await store.user(login: "ann"), byOldEmail = try await store.user(login: "ann@example.com")
            XCTAssertNil(byOldName, "\(backend)")
            XCTAssertNil(byOldEmail, "\(backend)")
            let history = try await store.messages(conversationID: dm.id, afterSeq: 0, limit: 10)
            XCTAssertEqual(history.map(\.text), ["hello ben", "hi ann"], "\(backend): others' history keeps the messages")
            let benContacts = try await store.contacts(owner: ben.id)
            XCTAssertEqual(benContacts, [], "\(backend): the deleted account is nobody's contact")
            let again = try await store.addUser("ann")
            XCTAssertNotEqual(again.id, ann.id, "\(backend): the name is free for a new account")
            stats = try await admin.statistics()
            XCTAssertEqual([stats.users, stats.sessions, stats.messages], [3, 1, 2], "\(backend)")
        }
    }
}
