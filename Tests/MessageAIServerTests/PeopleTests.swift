import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Search, contacts, profile visibility and presence.
final class PeopleTests: ThreeUserTestCase {
    func testSearchByPrefixIsCaseInsensitiveAndShowsNamesOnly() throws {
        let found: Users = try ann.request(UserSearch(prefix: "B"))
        XCTAssertEqual(found.users.map(\.username), ["ben"])
        XCTAssertEqual(found.users.first?.displayName, "Ben")
        let all: Users = try ann.request(UserSearch(prefix: "a"))
        XCTAssertEqual(all.users.map(\.username), ["ann"])
        let none: Users = try ann.request(UserSearch(prefix: "zzz"))
        XCTAssertTrue(none.users.isEmpty)
        XCTAssertEqual(try ann.requestError(UserSearch(prefix: "")).errorCode, .invalidArgument)
    }

    /// Issue 24, over the wire: a word of a display name (as renamed), and an email only whole.
    func testSearchByDisplayNameWordAndExactEmail() throws {
        let _: Profile = try ben.request(ProfileUpdate(displayName: "Benoît Martin"))
        func found(_ q: String) throws -> [String] { (try ann.request(UserSearch(prefix: q)) as Users).users.map(\.username) }
        XCTAssertEqual(try found("Martin"), ["ben"])
        XCTAssertEqual(try found("benoit"), ["ben"], "accents folded")
        XCTAssertEqual(try found("CAT@example.org"), ["cat"], "the whole email, case aside")
        XCTAssertEqual(try found("cat@example.or"), [], "part of an email finds nobody")
        XCTAssertEqual(try found("cat@"), [])
        let long = String(repeating: "x", count: 240) + "@example.org"
        XCTAssertEqual(try found(long), [], "an email may be longer than a username")
        XCTAssertEqual(try ann.requestError(UserSearch(prefix: String(repeating: "x", count: 65))).errorCode, .tooLong)
    }

    func testProfileVisibleOnlyToContactsAndConversationPartners() throws {
        XCTAssertEqual(try ann.requestError(ProfileGet(username: "ben")).errorCode, .notAContact)
        XCTAssertEqual(try ann.requestError(ProfileGet(username: "nobody")).errorCode, .notFound)
        let own: Profile = try ann.request(ProfileGet(username: "ann"))
        XCTAssertEqual(own.user.username, "ann")

        let added: Profile = try ann.request(ContactAdd(username: "ben"))
        XCTAssertEqual(added.user.username, "ben")
        XCTAssertFalse(added.online, "a request shows no presence until accepted")
        let seen: Profile = try ann.request(ProfileGet(username: "ben"))
        XCTAssertEqual(seen.user.displayName, "Ben")
        // ben sees who asked him, names only; cat, unrelated to ann, sees nothing.
        let asker: Profile = try ben.request(ProfileGet(username: "ann"))
        XCTAssertEqual(asker.contactState, .incoming)
        XCTAssertEqual(try cat.requestError(ProfileGet(username: "ann")).errorCode, .notAContact)

        // Sharing a conversation makes the profile visible both ways.
        _ = try cat.openDM(with: "ben")
        let viaDM: Profile = try ben.request(ProfileGet(username: "cat"))
        XCTAssertEqual(viaDM.user.username, "cat")
        XCTAssertFalse(viaDM.online, "a conversation partner who is not a contact sees no presence")
        XCTAssertEqual(viaDM.contactState, ContactState.none)
    }

    func testContactsAddListRemoveWithPresence() throws {
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let _: Profile = try ann.request(ContactAdd(username: "cat"))
        let _: Profile = try ann.request(ContactAdd(username: "cat")) // idempotent
        XCTAssertEqual(try ann.requestError(ContactAdd(username: "ann")).errorCode, .invalidArgument)
        XCTAssertEqual(try ann.requestError(ContactAdd(username: "ghost")).errorCode, .notFound)
        let _: Profile = try ben.request(ContactAccept(username: "ann"))
        let _: Profile = try cat.request(ContactAccept(username: "ann"))

        cat.close()
        let offline = try ann.push(Presence.self) { $0.user.username == "cat" && !$0.online }
        XCTAssertGreaterThan(offline.lastSeen, 0)

        let list: Contacts = try ann.request(ContactsList())
        XCTAssertEqual(list.contacts.map(\.user.username).sorted(), ["ben", "cat"])
        XCTAssertEqual(Set(list.contacts.map(\.contactState)), [.accepted])
        XCTAssertEqual(list.contacts.first { $0.user.username == "ben" }?.online, true)
        let catEntry = list.contacts.first { $0.user.username == "cat" }
        XCTAssertEqual(catEntry?.online, false)
        XCTAssertGreaterThan(catEntry?.lastSeen ?? 0, 0)

        let _: OK = try ann.request(ContactRemove(username: "cat"))
        let after: Contacts = try ann.request(ContactsList())
        XCTAssertEqual(after.contacts.map(\.user.username), ["ben"])
        XCTAssertEqual(try ann.requestError(ContactRemove(username: "cat")).errorCode, .notAContact, "nothing left to remove")
        XCTAssertEqual(try ann.requestError(ContactRemove(username: "ghost")).errorCode, .notFound)
    }

    func testPresenceGoesToContactsOnlyWhenFirstSessionArrivesAndLastLeaves() throws {
        let _: Profile = try ann.request(ContactAdd(username: "ben"))
        let _: Profile = try ben.request(ContactAccept(username: "ann"))
        let benPhone = try TestUsers.secondSession(of: ben, port: server.port)
        ben.close()
        // ben still has a session: no offline presence yet. Then the last one leaves.
        benPhone.close()
        let off = try ann.push(Presence.self) { $0.user.username == "ben" }
        XCTAssertFalse(off.online, "the first presence after two closes is the offline one")
        _ = try TestUsers.secondSession(of: ben, port: server.port)
        let on = try ann.push(Presence.self) { $0.user.username == "ben" }
        XCTAssertTrue(on.online)
        // cat is neither ben's contact-owner nor a partner: nothing arrives.
        XCTAssertNil(cat.inbox.first { $0.type == .presence })
        let _: Pong = try cat.request(Ping())
        XCTAssertNil(cat.inbox.first { $0.type == .presence })
    }
}
