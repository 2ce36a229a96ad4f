import Foundation
import XCTest
@testable import MessageAIServer

/// `Store.memberList` (issue 26), one body on every backend: the members are right after each
/// change; PostgreSQL's version rises with every membership change and stays put otherwise;
/// SQLite, one writer, reports 0 and is trusted from its cache (README "Running several nodes").
final class StoreMemberListTests: StoreBackendTestCase {
    func testTheMemberListFollowsEveryChangeAndItsVersionRisesOnlyWhereSeveralWriters() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), cal = try await store.addUser("cal")
            let group = try await store.createGroup(name: "g", creator: ann.id, members: [ben.id, cal.id], now: 10)
            let created = try await store.memberList(conversationID: group.id)
            XCTAssertEqual(Set(created.ids), [ann.id, ben.id, cal.id], "\(backend)")

            try await store.removeMember(conversationID: group.id, userID: cal.id)
            let left = try await store.memberList(conversationID: group.id)
            XCTAssertEqual(Set(left.ids), [ann.id, ben.id], "\(backend)")
            // A member added again inserts nothing: the list and its version stay as they were.
            try await store.addMembers(conversationID: group.id, userIDs: [ben.id], now: 20)
            let again = try await store.memberList(conversationID: group.id)
            XCTAssertEqual(Set(again.ids), Set(left.ids), "\(backend)")
            XCTAssertEqual(again.version, left.version, "\(backend)")

            try await store.addMembers(conversationID: group.id, userIDs: [cal.id], now: 30)
            let back = try await store.memberList(conversationID: group.id)
            XCTAssertEqual(Set(back.ids), [ann.id, ben.id, cal.id], "\(backend)")
            if backend == .postgres {
                XCTAssertGreaterThan(created.version, 0)
                XCTAssertGreaterThan(left.version, created.version)
                XCTAssertGreaterThan(back.version, left.version)
            } else {
                XCTAssertEqual([created.version, left.version, back.version], [0, 0, 0], "\(backend)")
            }
        }
    }
}
