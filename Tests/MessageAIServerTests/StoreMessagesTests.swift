import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StoreMessagesTests: XCTestCase {
    func testAppendGivesGaplessSeqPerConversationInOrder() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let one = try store.directConversation(ann.id, ben.id, now: 1).0
            let two = try store.directConversation(ann.id, cal.id, now: 1).0
            var batch: [NewMessage] = []
            for i in 0..<30 {
                let (conversation, sender) = i % 3 == 0 ? (two.id, cal.id) : (one.id, i % 2 == 0 ? ann.id : ben.id)
                batch.append(NewMessage(conversationID: conversation, senderID: sender, clientID: newClientID(),
                                        text: "message \(i)", serverTime: UInt64(1_000 + i)))
            }
            let outcomes = try store.append(batch)
            XCTAssertEqual(outcomes.count, 30, "\(kind)")
            XCTAssertFalse(outcomes.contains { $0.isDuplicate })
            let stored = try store.messages(conversationID: one.id, afterSeq: 0, limit: 100)
            XCTAssertEqual(stored.map(\.seq), Array(1...20))
            XCTAssertEqual(stored.map(\.text), batch.filter { $0.conversationID == one.id }.map(\.text), "batch order kept")
            XCTAssertEqual(try store.messages(conversationID: two.id, afterSeq: 0, limit: 100).map(\.seq), Array(1...10))
            XCTAssertEqual(try store.conversation(id: one.id)?.lastSeq, 20)
            XCTAssertEqual(try store.conversation(id: one.id)?.lastActivity, 1_029)

            // What append returned is exactly what is stored.
            let returned = outcomes.map(\.message).filter { $0.conversationID == one.id }
            XCTAssertEqual(returned, stored)
            XCTAssertEqual(stored.map(\.senderUsername).prefix(2), ["ben", "ann"])
            XCTAssertEqual(stored[1].kind, 1)

            // A following single append continues the sequence.
            XCTAssertEqual(try store.send(ben, one.id, "next").message.seq, 21)
        }
    }

    func testResendWithSameClientIDIsADuplicateWithOriginalSeqAndTime() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            let id = newClientID()
            let first = try store.send(ann, dm.id, "only once", time: 5_000, clientID: id)
            XCTAssertFalse(first.isDuplicate)
            _ = try store.send(ben, dm.id, "in between", time: 5_100)
            let again = try store.send(ann, dm.id, "only once", time: 9_000, clientID: id)
            XCTAssertTrue(again.isDuplicate, "\(kind)")
            XCTAssertEqual(again.message, first.message, "original seq and server time")
            XCTAssertEqual(again.message.serverTime, 5_000)
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map(\.text), ["only once", "in between"])
            XCTAssertEqual(try store.conversation(id: dm.id)?.lastActivity, 5_100, "a duplicate is not activity")

            // The same client id from another sender is a different message.
            XCTAssertFalse(try store.send(ben, dm.id, "mine", clientID: id).isDuplicate)
        }
    }

    func testDuplicatesInsideOneBatchAreDetected() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            let id = newClientID()
            let outcomes = try store.append([
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: id, text: "a", serverTime: 10),
                NewMessage(conversationID: dm.id, senderID: ben.id, clientID: newClientID(), text: "b", serverTime: 11),
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: id, text: "a", serverTime: 12),
            ])
            XCTAssertEqual(outcomes.map(\.isDuplicate), [false, false, true], "\(kind)")
            XCTAssertEqual(outcomes[2].message, outcomes[0].message)
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map(\.seq), [1, 2])
        }
    }

    func testBatchIsAllOrNothing() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            _ = try store.send(ann, dm.id, "before", time: 5)
            let batch = [
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: "x", serverTime: 10),
                NewMessage(conversationID: 9_999, senderID: ann.id, clientID: newClientID(), text: "y", serverTime: 11),
            ]
            XCTAssertThrowsError(try store.append(batch)) { XCTAssertEqual($0 as? StoreError, .notFound, "\(kind)") }
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map(\.text), ["before"])
            XCTAssertEqual(try store.conversation(id: dm.id)?.lastSeq, 1)
            XCTAssertEqual(try store.conversation(id: dm.id)?.lastActivity, 5)
            // The store is usable afterwards and the seq continues without a gap.
            XCTAssertEqual(try store.send(ann, dm.id, "after").message.seq, 2)
            // A message whose text was rolled back can be sent again: its client id is free.
            XCTAssertFalse(try store.append([batch[0]])[0].isDuplicate)
        }
    }

    func testHistoryPagingBeforeAndAfter() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            _ = try store.append((1...120).map {
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: "#\($0)", serverTime: UInt64($0))
            })
            XCTAssertEqual(try store.messages(conversationID: dm.id, beforeSeq: 0, limit: 50).map(\.seq), Array(71...120), "\(kind)")
            XCTAssertEqual(try store.messages(conversationID: dm.id, beforeSeq: 71, limit: 50).map(\.seq), Array(21...70))
            XCTAssertEqual(try store.messages(conversationID: dm.id, beforeSeq: 21, limit: 50).map(\.seq), Array(1...20))
            XCTAssertEqual(try store.messages(conversationID: dm.id, beforeSeq: 1, limit: 50), [])
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 100, limit: 5).map(\.seq), Array(101...105))
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 118, limit: 50).map(\.seq), [119, 120])
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 120, limit: 50), [])
            XCTAssertEqual(try store.message(conversationID: dm.id, seq: 7)?.text, "#7")
            XCTAssertNil(try store.message(conversationID: dm.id, seq: 121))
        }
    }

    func testLongAndUnicodeTextIsKeptIntact() {
        forEachStore { store, _ in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            let text = String(repeating: "héllo wörld 👋🏽 ", count: 600) + "\u{0}end"
            _ = try store.send(ann, dm.id, text)
            let stored = try store.messages(conversationID: dm.id, afterSeq: 0, limit: 1).first?.text
            XCTAssertTrue(stored == text, "text changed on the way (\(stored?.unicodeScalars.count ?? 0) scalars)")
            XCTAssertTrue(try store.message(senderID: ann.id, clientID: [])  == nil)
            _ = try store.send(ann, dm.id, "")
            XCTAssertEqual(try store.messages(conversationID: dm.id, afterSeq: 1, limit: 1).first?.text, "", "empty, not NULL")
        }
    }
}
