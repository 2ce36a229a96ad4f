@testable import MessageAIPostgres
import XCTest

/// People search, time zone, avatars and the away mark, held to the answers of the SQLite
/// store's tests (Tests/MessageAIServerTests/StorePeopleTests.swift, AwayTests, AvatarTests).
final class PeopleTests: PostgresTestCase {
    func testPrefixSearchIsBoundedOrderedAndCaseInsensitive() async throws {
        let store = try await openStore()
        for name in ["Sam", "sally", "Sabrina", "bob", "samuel", "SAMANTHA", "zed"] { _ = try await makeUser(store, name) }
        func found(_ q: String, _ limit: Int = 50) async throws -> [String] { try await store.searchUsers(query: q, limit: limit).map(\.username) }
        let sa = try await found("SA")
        XCTAssertEqual(sa, ["Sabrina", "sally", "Sam", "SAMANTHA", "samuel"])
        let two = try await found("sam", 2)
        XCTAssertEqual(two, ["Sam", "SAMANTHA"])
        let exact = try await found("samuel")
        XCTAssertEqual(exact, ["samuel"])
        let none = try await found("samuelx")
        XCTAssertEqual(none, [])
        let q = try await found("q")
        XCTAssertEqual(q, [])
        let zero = try await found("s", 0), negative = try await found("s", -5)
        XCTAssertEqual(zero + negative, [], "a limit of 0 or less asks for nobody")
    }

    func testPrefixSearchTreatsWildcardsLiterally() async throws {
        let store = try await openStore()
        for name in ["a_b", "axb", "a%c", "abc"] { _ = try await makeUser(store, name) }
        let underscore = try await store.searchUsers(query: "a_", limit: 50).map(\.username)
        XCTAssertEqual(underscore, ["a_b"])
        let percent = try await store.searchUsers(query: "a%", limit: 50).map(\.username)
        XCTAssertEqual(percent, ["a%c"])
        let bare = try await store.searchUsers(query: "%", limit: 50) + store.searchUsers(query: "_", limit: 50)
        XCTAssertEqual(bare, [])
    }

    /// Issue 24's cases, and the words SQLite's users_fts holds: any word of a display name,
    /// accents and case folded, every word must match, the last a prefix; CJK names by their
    /// pairs; an email only whole.
    func testSearchByDisplayNameWordsAccentsCJKAndExactEmail() async throws {
        let store = try await openStore()
        let martin = try await store.createUser(username: "mtaylor", email: "mt@example.com", displayName: "Martin Taylor", passwordHash: "x", now: 1)
        _ = try await store.createUser(username: "minh", email: "minh@example.com", displayName: "Minh Nguyễn", passwordHash: "x", now: 1)
        _ = try await store.createUser(username: "carol", email: "Carol@Example.com", displayName: "Carol", passwordHash: "x", now: 1)
        _ = try await store.createUser(username: "martha", email: "martha@example.com", displayName: "M", passwordHash: "x", now: 1)
        _ = try await store.createUser(username: "taro", email: "taro@example.jp", displayName: "山田太郎", passwordHash: "x", now: 1)
        _ = try await store.createUser(username: "zoe", email: "zoe@example.fr", displayName: "Zoë Šťastná", passwordHash: "x", now: 1)
        func found(_ q: String) async throws -> [String] { try await store.searchUsers(query: q, limit: 20).map(\.username) }
        let cases: [(String, [String], String)] = [
            ("Martin", ["mtaylor"], "a name word"),
            ("taylor", ["mtaylor"], "any word"),
            ("mart", ["martha", "mtaylor"], "a username prefix and a name word prefix"),
            ("Nguyen", ["minh"], "accents folded"),
            ("nguy", ["minh"], "an accented word by its unaccented prefix"),
            ("ŠŤAST", ["zoe"], "case and accents folded in the query too"),
            ("martin tay", ["mtaylor"], "every word, the last a prefix"),
            ("martin carol", [], "every word must match"),
            ("山田", ["taro"], "a CJK name by its first pair"),
            ("太郎", ["taro"], "a CJK name by a later pair"),
            ("山", ["taro"], "a single CJK character as a prefix"),
            ("carol@example.com", ["carol"], "an exact email, case aside"),
            ("carol@example.co", [], "part of an email finds nobody"),
            ("@example.com", [], "a domain finds nobody"),
            ("example", [], "the domain is not a name"),
        ]
        for (query, expected, why) in cases {
            let answer = try await found(query)
            XCTAssertEqual(answer, expected, "\(query): \(why)")
        }
        try await store.setDisplayName(userID: martin, "Marty Tailor")
        let old = try await found("taylor"), new = try await found("tailor")
        XCTAssertEqual(old, [], "the old name is forgotten")
        XCTAssertEqual(new, ["mtaylor"])
        await assertThrows(.notFound) { try await store.setDisplayName(userID: 987_654, "x") }
    }

    /// Both halves of the search walk an index (a range on usernames, GIN on name words), not
    /// every user: with enough users that a sequential scan would cost more.
    func testSearchUsesTheIndexes() async throws {
        let store = try await openStore()
        for i in 0..<300 { _ = try await makeUser(store, "person\(i)", displayName: "Person Number\(i)") }
        let plan = try await store.explainUserSearch(query: "person12")
        XCTAssertTrue(plan.contains("users_username_prefix"), plan)
        XCTAssertTrue(plan.contains("users_name_words"), plan)
        XCTAssertFalse(plan.contains("Seq Scan on users"), plan)
    }

    func testTimeZoneAvatarAndAwayMark() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let unset = try await store.user(id: ann)?.timeZone
        XCTAssertEqual(unset, "", "not known until the client says")
        try await store.setTimeZone(userID: ann, "Asia/Tokyo")
        let zone = try await store.user(username: "ANN")?.timeZone
        XCTAssertEqual(zone, "Asia/Tokyo")
        await assertThrows(.notFound) { try await store.setTimeZone(userID: 987_654, "UTC") }

        let none = try await store.avatarID(userID: ann)
        XCTAssertEqual(none, [])
        let first = try await store.setAvatar(userID: ann, fileID: [1, 2, 3])
        XCTAssertEqual(first, [], "nothing replaced")
        let second = try await store.setAvatar(userID: ann, fileID: [4, 5])
        XCTAssertEqual(second, [1, 2, 3], "the replaced one, for the caller to release")
        let now = try await store.avatarID(userID: ann), owner = try await store.avatarOwner(fileID: [4, 5])
        XCTAssertEqual(now, [4, 5])
        XCTAssertEqual(owner, ann)
        let cleared = try await store.setAvatar(userID: ann, fileID: [])
        XCTAssertEqual(cleared, [4, 5])
        let orphan = try await store.avatarOwner(fileID: [4, 5])
        XCTAssertNil(orphan)
        let group = try await store.createGroup(name: "g", creator: ann, members: [ben], now: 2)
        let groupOld = try await store.setGroupAvatar(conversationID: group.id, fileID: [9])
        XCTAssertEqual(groupOld, [])
        let shown = try await store.conversationView(id: group.id, userID: ben)?.avatarID
        let fetched = try await store.conversation(id: group.id)?.avatarID
        XCTAssertEqual(shown, [9], "the group's avatar is in the member's list")
        XCTAssertEqual(fetched, [9])
        await assertThrows(.notFound) { _ = try await store.setGroupAvatar(conversationID: 987_654, fileID: [9]) }
        await assertThrows(.notFound) { _ = try await store.setAvatar(userID: 987_654, fileID: [9]) }
        XCTAssertGreaterThan(dm.id, 0)

        let notAway = try await store.awayMessage(userID: ben)
        XCTAssertNil(notAway)
        try await store.setAway(userID: ben, message: "", now: 3)
        let blank = try await store.awayMessage(userID: ben)
        XCTAssertEqual(blank, "", "away without a message")
        try await store.setAway(userID: ben, message: "at lunch 🍜", now: 4)
        let lunch = try await store.awayMessage(userID: ben)
        XCTAssertEqual(lunch, "at lunch 🍜", "a second mark replaces the first")
        let back = try await store.clearAway(userID: ben), again = try await store.clearAway(userID: ben)
        XCTAssertEqual([back, again], [true, false])
        let gone = try await store.awayMessage(userID: ben)
        XCTAssertNil(gone)
    }
}

extension PostgresTestCase {
    /// A user named `name` (email `name@example.com`); returns the id.
    func makeUser(_ store: PostgresStore, _ name: String, displayName: String? = nil) async throws -> UInt64 {
        try await store.createUser(username: name, email: "\(name)@example.com", displayName: displayName ?? name.capitalized,
                                   passwordHash: "pbkdf2$test$\(name)", now: 1)
    }
}
