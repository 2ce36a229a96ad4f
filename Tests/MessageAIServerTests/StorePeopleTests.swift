import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StorePeopleTests: XCTestCase {
    func testPrefixSearchIsBoundedOrderedAndCaseInsensitive() {
        forEachStore { store, kind in
            for name in ["Sam", "sally", "Sabrina", "bob", "samuel", "SAMANTHA", "zed"] { try store.makeUser(name) }
            XCTAssertEqual(try store.searchUsers(query: "SA", limit: 50).map(\.username),
                           ["Sabrina", "sally", "Sam", "SAMANTHA", "samuel"], "\(kind)")
            XCTAssertEqual(try store.searchUsers(query: "sam", limit: 2).map(\.username), ["Sam", "SAMANTHA"])
            XCTAssertEqual(try store.searchUsers(query: "samuel", limit: 50).map(\.username), ["samuel"])
            XCTAssertEqual(try store.searchUsers(query: "samuelx", limit: 50), [])
            XCTAssertEqual(try store.searchUsers(query: "q", limit: 50), [])
            XCTAssertEqual(try store.searchUsers(query: "s", limit: 0), [])
            XCTAssertEqual(try store.searchUsers(query: "s", limit: -5), [])
        }
    }

    func testPrefixSearchTreatsWildcardsLiterally() {
        forEachStore { store, _ in
            for name in ["a_b", "axb", "a%c", "abc"] { try store.makeUser(name) }
            XCTAssertEqual(try store.searchUsers(query: "a_", limit: 50).map(\.username), ["a_b"])
            XCTAssertEqual(try store.searchUsers(query: "a%", limit: 50).map(\.username), ["a%c"])
            XCTAssertEqual(try store.searchUsers(query: "%", limit: 50), [])
            XCTAssertEqual(try store.searchUsers(query: "_", limit: 50), [])
        }
    }

    func testPrefixSearchUsesTheIndex() {
        forEachStore { store, _ in
            let plan = try store.searchUsersPlan().joined(separator: " | ")
            XCTAssertTrue(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), plan)
            XCTAssertTrue(plan.contains("users_fts VIRTUAL TABLE"), "names through the full-text index: \(plan)")
            XCTAssertFalse(plan.contains("SCAN u "), "no walk over every user: \(plan)")
        }
    }

    func testContactsAddRemoveListIdempotent() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            try store.addContact(owner: ann.id, contact: cal.id, now: 5)
            try store.addContact(owner: ann.id, contact: ben.id, now: 6)
            try store.addContact(owner: ann.id, contact: ben.id, now: 7) // again: no error, no duplicate
            XCTAssertEqual(try store.contacts(owner: ann.id).map(\.username), ["ben", "cal"], "\(kind)")
            XCTAssertTrue(try store.isContact(owner: ann.id, other: ben.id))
            XCTAssertFalse(try store.isContact(owner: ben.id, other: ann.id), "contacts are one-way")
            XCTAssertTrue(try store.removeContact(owner: ann.id, contact: ben.id))
            XCTAssertFalse(try store.removeContact(owner: ann.id, contact: ben.id))
            XCTAssertEqual(try store.contacts(owner: ann.id).map(\.username), ["cal"])
            XCTAssertThrowsError(try store.addContact(owner: ann.id, contact: 9_999, now: 8)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
        }
    }

    func testSharesConversationAndPresenceAudience() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let dee = try store.makeUser("dee"), eli = try store.makeUser("eli")
            XCTAssertFalse(try store.sharesConversation(ann.id, ben.id))
            XCTAssertEqual(try store.presenceAudience(userID: ann.id), [])

            // ben and ann accepted each other; cal only asked ann, ann only asked eli.
            try store.addContact(owner: ben.id, contact: ann.id, now: 1)
            try store.addContact(owner: ann.id, contact: ben.id, now: 1)
            try store.addContact(owner: cal.id, contact: ann.id, now: 1)
            try store.addContact(owner: ann.id, contact: eli.id, now: 1)
            // ben is also a conversation partner (no duplicate), dee only a partner.
            _ = try store.directConversation(ann.id, ben.id, now: 2)
            _ = try store.createGroup(name: "g", creator: dee.id, members: [ann.id, ben.id], now: 3)

            XCTAssertTrue(try store.sharesConversation(ann.id, dee.id), "\(kind)")
            XCTAssertTrue(try store.sharesConversation(dee.id, ann.id))
            XCTAssertFalse(try store.sharesConversation(ann.id, eli.id))
            XCTAssertEqual(try store.presenceAudience(userID: ann.id), [ben.id], "accepted contacts only")
            XCTAssertEqual(try store.presenceAudience(userID: eli.id), [])
            try store.block(blocker: ben.id, blocked: ann.id, now: 4)
            XCTAssertEqual(try store.presenceAudience(userID: ann.id), [], "a block hides presence both ways")
            XCTAssertEqual(try store.presenceAudience(userID: ben.id), [])
        }
    }

    /// Issue 24: `Martin`, `Nguyen` and `carol@example.com` found nobody. A display name is
    /// found by any word (accents and case folded, the last word a prefix); an email only whole.
    func testSearchByDisplayNameWordsAndExactEmail() {
        forEachStore { store, kind in
            let martin = try store.createUser(email: "mt@example.com", username: "mtaylor", displayName: "Martin Taylor",
                                              passwordHash: "x", now: 1)
            _ = try store.createUser(email: "minh@example.com", username: "minh", displayName: "Minh Nguyễn", passwordHash: "x", now: 1)
            _ = try store.createUser(email: "Carol@Example.com", username: "carol", displayName: "Carol", passwordHash: "x", now: 1)
            _ = try store.createUser(email: "martha@example.com", username: "martha", displayName: "M", passwordHash: "x", now: 1)
            func found(_ q: String) throws -> [String] { try store.searchUsers(query: q, limit: 20).map(\.username) }
            XCTAssertEqual(try found("Martin"), ["mtaylor"], "\(kind)")
            XCTAssertEqual(try found("taylor"), ["mtaylor"], "\(kind): any word")
            XCTAssertEqual(try found("mart"), ["martha", "mtaylor"], "\(kind): a username prefix and a name word prefix")
            XCTAssertEqual(try found("Nguyen"), ["minh"], "\(kind): accents folded")
            XCTAssertEqual(try found("martin tay"), ["mtaylor"], "\(kind): every word, the last a prefix")
            XCTAssertEqual(try found("carol@example.com"), ["carol"], "\(kind): an exact email, case aside")
            XCTAssertEqual(try found("carol@example.co"), [], "\(kind): part of an email finds nobody")
            XCTAssertEqual(try found("@example.com"), [], "\(kind)")
            XCTAssertEqual(try found("example"), [], "\(kind): the domain is not a name")
            try store.setDisplayName(userID: martin.id, "Marty Tailor")
            XCTAssertEqual(try found("taylor"), [], "\(kind): the old name is forgotten")
            XCTAssertEqual(try found("tailor"), ["mtaylor"], "\(kind)")
        }
    }
}
