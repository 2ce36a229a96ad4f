import XCTest
@testable import MessageAIServer
import MessageAISQLite

final class StorePrivacyTests: XCTestCase {
    /// A 0.1.0 database: pairs who had added each other become accepted contacts; one-way adds
    /// become pending requests the other side sees.
    func testMigrationKeepsMutualContactsAcceptedAndOneWayAddsAsRequests() throws {
        let dir = try TempDirectory()
        let old = try Database(path: dir.databasePath)
        try Migrations.apply(to: old, now: 1, migrations: Array(Migrations.all.prefix(3)))
        for (id, name) in [(1, "ann"), (2, "ben"), (3, "cal")] {
            try old.run("""
                INSERT INTO users (id, username, username_lower, email, email_lower, display_name, password_hash, created_at)
                VALUES (?, ?, ?, ?, ?, ?, 'x', 1)
                """, UInt64(id), name, name, "\(name)@example.org", "\(name)@example.org", name.capitalized)
        }
        for (owner, contact) in [(1, 2), (2, 1), (1, 3)] {
            try old.run("INSERT INTO contacts (owner_id, contact_id, created_at) VALUES (?, ?, 1)", UInt64(owner), UInt64(contact))
        }
        old.close()

        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        // Later migrations follow it (several branches add their own): v4 is applied, not last.
        XCTAssertTrue(try store.appliedMigrations().contains("v4_contact_consent_and_blocks"))
        XCTAssertTrue(try store.contactLink(1, 2).accepted)
        XCTAssertTrue(try store.contactLink(2, 1).accepted)
        let pending = try store.contactLink(3, 1)
        XCTAssertFalse(pending.accepted)
        XCTAssertTrue(pending.theyWant && !pending.declinedByMe, "cal now has a request from ann")
        XCTAssertEqual(try store.contactEntries(owner: 3).map(\.0.username), ["ann"])
        XCTAssertEqual(try store.presenceAudience(userID: 1), [2])
    }

    func testDeclineRemoveAndBlockLinks() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            XCTAssertTrue(try store.addContact(owner: ann.id, contact: ben.id, now: 1))
            XCTAssertFalse(try store.addContact(owner: ann.id, contact: ben.id, now: 2), "\(kind): idempotent")
            XCTAssertTrue(try store.declineContact(owner: ben.id, requester: ann.id))
            XCTAssertTrue(try store.contactLink(ben.id, ann.id).declinedByMe)
            XCTAssertEqual(try store.contactEntries(owner: ben.id).count, 0)
            // Adding back after a decline is an accept.
            try store.addContact(owner: ben.id, contact: ann.id, now: 3)
            XCTAssertTrue(try store.contactLink(ann.id, ben.id).accepted)
            // Removing withdraws one side and does not turn the other into a request.
            XCTAssertTrue(try store.removeContact(owner: ben.id, contact: ann.id))
            XCTAssertEqual(try store.contactEntries(owner: ben.id).count, 0)

            XCTAssertTrue(try store.block(blocker: ann.id, blocked: ben.id, now: 4))
            XCTAssertFalse(try store.block(blocker: ann.id, blocked: ben.id, now: 5))
            XCTAssertEqual(try store.blockedUsers(blocker: ann.id).map(\.username), ["ben"])
            XCTAssertTrue(try store.contactLink(ben.id, ann.id).theyBlock)
            let (dm, _) = try store.directConversation(ann.id, ben.id, now: 6)
            XCTAssertEqual(try store.membership(conversationID: dm.id, userID: ben.id),
                           Membership(pending: true, blockedPartner: ann.id), "ann opened it; ben holds a request")
            XCTAssertEqual(try store.membership(conversationID: dm.id, userID: ann.id)?.pending, false)
            XCTAssertNil(try store.membership(conversationID: dm.id, userID: 9_999))
            XCTAssertEqual(try store.blockers(of: ben.id, among: [ann.id]), [ann.id])
            XCTAssertEqual(try store.blockPartners(of: ben.id), [ann.id])
            XCTAssertEqual(try store.blockPartners(of: ann.id), [ben.id])
            XCTAssertTrue(try store.unblock(blocker: ann.id, blocked: ben.id))
            XCTAssertNil(try store.membership(conversationID: dm.id, userID: ben.id)?.blockedPartner)
            try store.acceptRequest(conversationID: dm.id, userID: ben.id)
            XCTAssertEqual(try store.membership(conversationID: dm.id, userID: ben.id)?.pending, false)
            XCTAssertThrowsError(try store.block(blocker: ann.id, blocked: 9_999, now: 7))
        }
    }
}
