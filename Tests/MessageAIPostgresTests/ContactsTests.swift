import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Contacts by consent and blocking, held to the SQLite store's answers
/// (Tests/MessageAIServerTests/StorePeopleTests.swift, StorePrivacyTests.swift), and the races
/// only several nodes can run.
final class ContactsTests: PostgresTestCase {
    func testContactsAddRemoveListIdempotent() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben"), cal = try await makeUser(store, "cal")
        try await store.addContact(owner: ann, contact: cal, now: 5)
        let new = try await store.addContact(owner: ann, contact: ben, now: 6)
        let again = try await store.addContact(owner: ann, contact: ben, now: 7)
        XCTAssertEqual([new, again], [true, false], "idempotent")
        let list = try await store.contacts(owner: ann).map(\.username)
        XCTAssertEqual(list, ["ben", "cal"])
        let annWantsBen = try await store.isContact(owner: ann, other: ben), benWantsAnn = try await store.isContact(owner: ben, other: ann)
        XCTAssertTrue(annWantsBen)
        XCTAssertFalse(benWantsAnn, "contacts are one-way")
        let removed = try await store.removeContact(owner: ann, contact: ben), removedAgain = try await store.removeContact(owner: ann, contact: ben)
        XCTAssertEqual([removed, removedAgain], [true, false])
        let left = try await store.contacts(owner: ann).map(\.username)
        XCTAssertEqual(left, ["cal"])
        await assertThrows(.notFound) { _ = try await store.addContact(owner: ann, contact: 987_654, now: 8) }
    }

    func testSharesConversationAndPresenceAudience() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben"), cal = try await makeUser(store, "cal")
        let dee = try await makeUser(store, "dee"), eli = try await makeUser(store, "eli")
        let before = try await store.sharesConversation(ann, ben), nobody = try await store.presenceAudience(userID: ann)
        XCTAssertFalse(before)
        XCTAssertEqual(nobody, [])
        // ben and ann accepted each other; cal only asked ann, ann only asked eli.
        try await store.addContact(owner: ben, contact: ann, now: 1)
        try await store.addContact(owner: ann, contact: ben, now: 1)
        try await store.addContact(owner: cal, contact: ann, now: 1)
        try await store.addContact(owner: ann, contact: eli, now: 1)
        _ = try await store.directConversation(ann, ben, now: 2)
        _ = try await store.createGroup(name: "g", creator: dee, members: [ann, ben], now: 3)
        let shares = try await [store.sharesConversation(ann, dee), store.sharesConversation(dee, ann), store.sharesConversation(ann, eli)]
        XCTAssertEqual(shares, [true, true, false])
        let audience = try await store.presenceAudience(userID: ann), eliAudience = try await store.presenceAudience(userID: eli)
        XCTAssertEqual(audience, [ben], "accepted contacts only")
        XCTAssertEqual(eliAudience, [])
        try await store.block(blocker: ben, blocked: ann, now: 4)
        let blockedA = try await store.presenceAudience(userID: ann), blockedB = try await store.presenceAudience(userID: ben)
        XCTAssertEqual(blockedA + blockedB, [], "a block hides presence both ways")
    }

    func testDeclineRemoveAndBlockLinks() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        let asked = try await store.addContact(owner: ann, contact: ben, now: 1)
        XCTAssertTrue(asked)
        let declined = try await store.declineContact(owner: ben, requester: ann)
        XCTAssertTrue(declined)
        let seenByBen = try await store.contactLink(ben, ann)
        XCTAssertTrue(seenByBen.declinedByMe && seenByBen.theyWant && !seenByBen.iWant)
        let benEntries = try await store.contactEntries(owner: ben)
        XCTAssertEqual(benEntries.count, 0, "a declined request is not listed")
        let annEntries = try await store.contactEntries(owner: ann)
        XCTAssertEqual(annEntries.map(\.0.username), ["ben"], "the requester still sees their request")
        XCTAssertEqual(annEntries.first?.1, ContactLink(iWant: true))
        // Adding back after a decline is an accept.
        try await store.addContact(owner: ben, contact: ann, now: 3)
        let accepted = try await store.contactLink(ann, ben)
        XCTAssertTrue(accepted.accepted && accepted.sharesPresence)
        // Removing withdraws one side and does not turn the other into a request.
        let removed = try await store.removeContact(owner: ben, contact: ann)
        XCTAssertTrue(removed)
        let afterRemove = try await store.contactEntries(owner: ben)
        XCTAssertEqual(afterRemove.count, 0)

        let blocked = try await store.block(blocker: ann, blocked: ben, now: 4), twice = try await store.block(blocker: ann, blocked: ben, now: 5)
        XCTAssertEqual([blocked, twice], [true, false])
        let blockedList = try await store.blockedUsers(blocker: ann).map(\.username)
        XCTAssertEqual(blockedList, ["ben"])
        let benSees = try await store.contactLink(ben, ann)
        XCTAssertTrue(benSees.theyBlock && !benSees.iBlock && benSees.blocked && !benSees.sharesPresence)
        let (dm, _) = try await store.directConversation(ann, ben, now: 6)
        let benStanding = try await store.membership(conversationID: dm.id, userID: ben)
        XCTAssertEqual(benStanding, Membership(pending: true, blockedPartner: ann), "ann opened it; ben holds a request")
        let annStanding = try await store.membership(conversationID: dm.id, userID: ann)
        XCTAssertEqual(annStanding, Membership(pending: false, blockedPartner: ben),
                       "the blocker's own send is refused too: SEND checks blockedPartner")
        let stranger = try await store.membership(conversationID: dm.id, userID: 987_654)
        XCTAssertNil(stranger)
        let blockers = try await store.blockers(of: ben, among: [ann, ben]), none = try await store.blockers(of: ben, among: [])
        XCTAssertEqual(blockers, [ann])
        XCTAssertEqual(none, [])
        let partnersOfBen = try await store.blockPartners(of: ben), partnersOfAnn = try await store.blockPartners(of: ann)
        XCTAssertEqual(partnersOfBen, [ann])
        XCTAssertEqual(partnersOfAnn, [ben])
        let unblocked = try await store.unblock(blocker: ann, blocked: ben)
        XCTAssertTrue(unblocked)
        let free = try await store.membership(conversationID: dm.id, userID: ben)
        XCTAssertNil(free?.blockedPartner, "after the unblock, ben's send would go through")
        let acceptedRequest = try await store.acceptRequest(conversationID: dm.id, userID: ben)
        let acceptedTwice = try await store.acceptRequest(conversationID: dm.id, userID: ben)
        XCTAssertEqual([acceptedRequest, acceptedTwice], [true, false])
        let benNow = try await store.membership(conversationID: dm.id, userID: ben)
        XCTAssertEqual(benNow?.pending, false)
        await assertThrows(.notFound) { _ = try await store.block(blocker: ann, blocked: 987_654, now: 7) }
    }

    /// PROTOCOL.md: asking again does not reach the decliner, even after the request was
    /// withdrawn and made anew (SQLite's kept_declines, v13); the decliner adding the requester
    /// forgets it.
    func testADeclineOutlivesAWithdrawnRequest() async throws {
        let store = try await openStore()
        let ann = try await makeUser(store, "ann"), ben = try await makeUser(store, "ben")
        try await store.addContact(owner: ann, contact: ben, now: 1)
        try await store.declineContact(owner: ben, requester: ann)
        _ = try await store.removeContact(owner: ann, contact: ben)
        try await store.addContact(owner: ann, contact: ben, now: 2)
        let asked = try await store.contactEntries(owner: ben)
        XCTAssertEqual(asked.count, 0, "the new request starts declined")
        try await store.addContact(owner: ben, contact: ann, now: 3)
        let link = try await store.contactLink(ann, ben)
        XCTAssertTrue(link.accepted)
        XCTAssertFalse(link.declinedByMe)
    }

    /// A request accepted both ways: two users asking each other at once, on two nodes (two
    /// pools on one database), end as accepted contacts with no decline, whatever the order;
    /// their direct conversation's message requests are then accepted on both sides.
    func testRequestsCrossingOnTwoNodesEndAccepted() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 2)
        let second = try await openStore(database: database, maximumConnections: 2)
        for round in 0..<20 {
            let a = try await makeUser(first, "a\(round)"), b = try await makeUser(first, "b\(round)")
            let (dm, _) = try await first.directConversation(a, b, now: 1)
            async let one = first.addContact(owner: a, contact: b, now: 2)
            async let two = second.addContact(owner: b, contact: a, now: 2)
            let added = try await [one, two]
            XCTAssertEqual(added, [true, true])
            try await second.acceptDirectRequests(a, b)
            let seenByA = try await first.contactLink(a, b), seenByB = try await second.contactLink(b, a)
            XCTAssertTrue(seenByA.sharesPresence && seenByB.sharesPresence, "round \(round)")
            XCTAssertFalse(seenByA.declinedByMe || seenByB.declinedByMe)
            let audience = try await first.presenceAudience(userID: a)
            XCTAssertEqual(audience, [b])
            let pending = try await [first.membership(conversationID: dm.id, userID: a)?.pending,
                                     second.membership(conversationID: dm.id, userID: b)?.pending]
            XCTAssertEqual(pending, [false, false], "round \(round): no message request is left")
        }
    }
}

