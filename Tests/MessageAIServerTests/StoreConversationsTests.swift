import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StoreConversationsTests: XCTestCase {
    func testDirectConversationIsOnePerPairInBothDirections() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let (first, created) = try store.directConversation(ann.id, ben.id, now: 10)
            XCTAssertTrue(created, "\(kind)")
            XCTAssertEqual(first.kind, .direct)
            let (again, createdAgain) = try store.directConversation(ben.id, ann.id, now: 20)
            XCTAssertFalse(createdAgain)
            XCTAssertEqual(again.id, first.id)
            XCTAssertEqual(try store.directConversation(ann.id, ben.id, now: 30).0.id, first.id)
            XCTAssertNotEqual(try store.directConversation(ann.id, cal.id, now: 40).0.id, first.id)
            XCTAssertEqual(try store.members(conversationID: first.id).map(\.username), ["ann", "ben"])
            XCTAssertThrowsError(try store.directConversation(ann.id, ann.id, now: 50))
            XCTAssertThrowsError(try store.directConversation(ann.id, 9_999, now: 50)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
            XCTAssertEqual(try store.conversationList(userID: ann.id).count, 2, "a failed open left nothing behind")
        }
    }

    func testGroupCreateAddRenameLeave() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let cal = try store.makeUser("cal"), dee = try store.makeUser("dee")
            let group = try store.createGroup(name: "Hiking", creator: ann.id, members: [ben.id, cal.id, ben.id], now: 10)
            XCTAssertEqual(group.kind, .group)
            XCTAssertEqual(try store.conversation(id: group.id)?.name, "Hiking", "\(kind)")
            XCTAssertEqual(try store.members(conversationID: group.id).map(\.username), ["ann", "ben", "cal"])

            try store.addMembers(conversationID: group.id, userIDs: [dee.id, ann.id], now: 20)
            XCTAssertEqual(try store.members(conversationID: group.id).map(\.username), ["ann", "ben", "cal", "dee"])
            XCTAssertTrue(try store.isMember(conversationID: group.id, userID: dee.id))

            try store.renameGroup(conversationID: group.id, name: "Hiking 2027")
            XCTAssertEqual(try store.conversationView(id: group.id, userID: ben.id)?.name, "Hiking 2027")

            try store.removeMember(conversationID: group.id, userID: cal.id)
            XCTAssertFalse(try store.isMember(conversationID: group.id, userID: cal.id))
            XCTAssertEqual(Set(try store.memberIDs(conversationID: group.id)), [ann.id, ben.id, dee.id], "fan-out skips a leaver")
            XCTAssertNil(try store.conversationView(id: group.id, userID: cal.id), "a leaver no longer sees it")
            XCTAssertEqual(try store.conversationList(userID: cal.id).count, 0)
            XCTAssertThrowsError(try store.removeMember(conversationID: group.id, userID: cal.id)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
            XCTAssertThrowsError(try store.renameGroup(conversationID: 9_999, name: "x")) { XCTAssertEqual($0 as? StoreError, .notFound) }
            XCTAssertThrowsError(try store.addMembers(conversationID: 9_999, userIDs: [ann.id], now: 1)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
            // A group with an unknown user is not created at all.
            XCTAssertThrowsError(try store.createGroup(name: "bad", creator: ann.id, members: [ben.id, 9_999], now: 30)) {
                XCTAssertEqual($0 as? StoreError, .notFound)
            }
            XCTAssertEqual(try store.conversationList(userID: ann.id).map(\.name), ["Hiking 2027"])
        }
    }

    func testConversationListOrderLastMessageUnreadAndMarkers() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let dm = try store.directConversation(ann.id, ben.id, now: 100).0
            let group = try store.createGroup(name: "Team", creator: cal.id, members: [ann.id, ben.id], now: 200)
            let quiet = try store.directConversation(ann.id, cal.id, now: 50).0

            _ = try store.send(ben, dm.id, "hi ann", time: 300)
            _ = try store.send(ben, dm.id, "are you there?", time: 310)
            _ = try store.send(ann, dm.id, "yes", time: 320)
            _ = try store.send(cal, group.id, "standup at 10", time: 400)

            var list = try store.conversationList(userID: ann.id)
            XCTAssertEqual(list.map(\.conversationID), [group.id, dm.id, quiet.id], "\(kind)")
            XCTAssertEqual(list[0].lastMessage?.text, "standup at 10")
            XCTAssertEqual(list[0].lastActivity, 400)
            XCTAssertEqual(list[0].unread, 1)
            XCTAssertEqual(list[0].members.map(\.username), ["ann", "ben", "cal"])
            XCTAssertEqual(list[1].lastMessage?.text, "yes")
            XCTAssertEqual(list[1].lastMessage?.senderUsername, "ann")
            XCTAssertEqual(list[1].lastSeq, 3)
            XCTAssertEqual(list[1].unread, 2, "own messages are never unread")
            XCTAssertNil(list[2].lastMessage)
            XCTAssertEqual(list[2].unread, 0)
            XCTAssertEqual(list[2].lastActivity, 50)

            _ = try store.raiseMarkers(conversationID: dm.id, userID: ann.id, delivered: 3, read: 1)
            list = try store.conversationList(userID: ann.id)
            XCTAssertEqual(list[1].unread, 1)
            XCTAssertEqual(list[1].deliveredSeq, 3)
            XCTAssertEqual(list[1].readSeq, 1)
            XCTAssertEqual(try store.conversationView(id: dm.id, userID: ben.id)?.unread, 1, "ben's own view: ann's reply")

            // New activity moves a conversation to the top.
            _ = try store.send(cal, quiet.id, "ping", time: 500)
            XCTAssertEqual(try store.conversationList(userID: ann.id).map(\.conversationID), [quiet.id, group.id, dm.id])
        }
    }

    func testMarkersAreMonotonicReadImpliesDeliveredAndCapped() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let group = try store.createGroup(name: "g", creator: ann.id, members: [ben.id, cal.id], now: 1)
            for i in 1...5 { _ = try store.send(ann, group.id, "m\(i)", time: UInt64(10 + i)) }

            var r = try store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 3, read: 0)
            XCTAssertEqual([r.delivered, r.read], [3, 0], "\(kind)"); XCTAssertTrue(r.changed)
            r = try store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 3, read: 0)
            XCTAssertFalse(r.changed, "same values: nothing to push")
            r = try store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 1, read: 0)
            XCTAssertEqual([r.delivered, r.read], [3, 0]); XCTAssertFalse(r.changed, "never lowered")
            r = try store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 0, read: 4)
            XCTAssertEqual([r.delivered, r.read], [4, 4], "read implies delivered"); XCTAssertTrue(r.changed)
            r = try store.raiseMarkers(conversationID: group.id, userID: ben.id, delivered: 99, read: 77)
            XCTAssertEqual([r.delivered, r.read], [5, 5], "capped at the last seq")
            r = try store.raiseMarkers(conversationID: group.id, userID: cal.id, delivered: 2, read: 0)

            let markers = try store.markers(conversationID: group.id)
            XCTAssertEqual(markers.map(\.user.username), ["ann", "ben", "cal"])
            XCTAssertEqual(markers.map(\.deliveredSeq), [0, 5, 2])
            XCTAssertEqual(markers.map(\.readSeq), [0, 5, 0])
            XCTAssertThrowsError(try store.raiseMarkers(conversationID: group.id, userID: 9_999, delivered: 1, read: 1)) {
                XCTAssertEqual($0 as? StoreError, .notFound, "not a member")
            }
        }
    }
}
