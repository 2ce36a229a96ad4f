import XCTest
@testable import MessageAIServer
import MessageAIProtocol

/// Appending, seqs, idempotent client ids and history, one body per test on every backend
/// (`StoreBackendTestCase`: SQLite in memory and in a file, PostgreSQL).
final class StoreMessagesTests: StoreBackendTestCase {
    func testAppendGivesGaplessSeqPerConversationInOrder() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben"), cal = try await store.addUser("cal")
            let one = try await store.directConversation(ann.id, ben.id, now: 1).0
            let two = try await store.directConversation(ann.id, cal.id, now: 1).0
            var batch: [NewMessage] = []
            for i in 0..<30 {
                let (conversation, sender) = i % 3 == 0 ? (two.id, cal.id) : (one.id, i % 2 == 0 ? ann.id : ben.id)
                batch.append(NewMessage(conversationID: conversation, senderID: sender, clientID: newClientID(),
                                        text: "message \(i)", serverTime: UInt64(1_000 + i)))
            }
            let outcomes = try await store.append(batch)
            XCTAssertEqual(outcomes.count, 30, "\(backend)")
            XCTAssertFalse(outcomes.contains { $0.isDuplicate })
            let stored = try await store.messages(conversationID: one.id, afterSeq: 0, limit: 100)
            XCTAssertEqual(stored.map(\.seq), Array(1...20), "\(backend)")
            XCTAssertEqual(stored.map(\.text), batch.filter { $0.conversationID == one.id }.map(\.text), "batch order kept")
            let inTwo = try await store.seqs(two.id)
            XCTAssertEqual(inTwo, Array(1...10))
            let conversation = try await store.conversation(id: one.id)
            XCTAssertEqual(conversation?.lastSeq, 20)
            XCTAssertEqual(conversation?.lastActivity, 1_029)

            // What append returned is exactly what is stored.
            let returned = outcomes.map(\.message).filter { $0.conversationID == one.id }
            XCTAssertEqual(returned, stored, "\(backend)")
            XCTAssertEqual(stored.map(\.senderUsername).prefix(2), ["ben", "ann"])
            XCTAssertEqual(stored[1].kind, 1)

            // A following single append continues the sequence.
            let next = try await store.post(ben, one.id, "next")
            XCTAssertEqual(next.message.seq, 21)
        }
    }

    func testResendWithSameClientIDIsADuplicateWithOriginalSeqAndTime() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            let id = newClientID()
            let first = try await store.post(ann, dm.id, "only once", time: 5_000, clientID: id)
            XCTAssertFalse(first.isDuplicate)
            _ = try await store.post(ben, dm.id, "in between", time: 5_100)
            let again = try await store.post(ann, dm.id, "only once", time: 9_000, clientID: id)
            XCTAssertTrue(again.isDuplicate, "\(backend)")
            XCTAssertEqual(again.message, first.message, "original seq and server time")
            XCTAssertEqual(again.message.serverTime, 5_000)
            let texts = try await store.texts(dm.id)
            XCTAssertEqual(texts, ["only once", "in between"])
            let conversation = try await store.conversation(id: dm.id)
            XCTAssertEqual(conversation?.lastActivity, 5_100, "a duplicate is not activity (\(backend))")

            // Another text, or another conversation, under the same id is a reuse: nothing stored.
            let changed = try await store.post(ann, dm.id, "another text", clientID: id)
            XCTAssertEqual(changed, .clientIDReused(first.message), "\(backend)")
            // The same client id from another sender is a different message.
            let bens = try await store.post(ben, dm.id, "mine", clientID: id)
            XCTAssertFalse(bens.isDuplicate)
        }
    }

    func testDuplicatesInsideOneBatchAreDetected() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            let id = newClientID()
            let outcomes = try await store.append([
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: id, text: "a", serverTime: 10),
                NewMessage(conversationID: dm.id, senderID: ben.id, clientID: newClientID(), text: "b", serverTime: 11),
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: id, text: "a", serverTime: 12),
            ])
            XCTAssertEqual(outcomes.map(\.isDuplicate), [false, false, true], "\(backend)")
            XCTAssertEqual(outcomes[2].message, outcomes[0].message)
            let seqs = try await store.seqs(dm.id)
            XCTAssertEqual(seqs, [1, 2])
        }
    }

    func testBatchIsAllOrNothing() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.post(ann, dm.id, "before", time: 5)
            let batch = [
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: "x", serverTime: 10),
                NewMessage(conversationID: 9_999, senderID: ann.id, clientID: newClientID(), text: "y", serverTime: 11),
            ]
            do {
                _ = try await store.append(batch)
                XCTFail("\(backend): a batch naming a missing conversation was stored")
            } catch {
                XCTAssertEqual(error as? StoreError, .notFound, "\(backend)")
            }
            let texts = try await store.texts(dm.id)
            XCTAssertEqual(texts, ["before"], "\(backend)")
            let conversation = try await store.conversation(id: dm.id)
            XCTAssertEqual(conversation?.lastSeq, 1)
            XCTAssertEqual(conversation?.lastActivity, 5)
            // The store is usable afterwards and the seq continues without a gap.
            let after = try await store.post(ann, dm.id, "after")
            XCTAssertEqual(after.message.seq, 2)
            // A message whose text was rolled back can be sent again: its client id is free.
            let again = try await store.append([batch[0]])
            XCTAssertFalse(again[0].isDuplicate, "\(backend)")
        }
    }

    func testHistoryPagingBeforeAndAfter() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            _ = try await store.append((1...120).map {
                NewMessage(conversationID: dm.id, senderID: ann.id, clientID: newClientID(), text: "#\($0)", serverTime: UInt64($0))
            })
            func before(_ seq: UInt64) async throws -> [UInt64] {
                try await store.messages(conversationID: dm.id, beforeSeq: seq, limit: 50).map(\.seq)
            }
            let pages = [try await before(0), try await before(71), try await before(21), try await before(1)]
            XCTAssertEqual(pages, [Array(71...120), Array(21...70), Array(1...20), []], "\(backend)")
            let after = [try await store.seqs(dm.id, after: 100, limit: 5), try await store.seqs(dm.id, after: 118, limit: 50),
                         try await store.seqs(dm.id, after: 120, limit: 50)]
            XCTAssertEqual(after, [Array(101...105), [119, 120], []])
            let seventh = try await store.message(conversationID: dm.id, seq: 7)
            XCTAssertEqual(seventh?.text, "#7")
            let beyond = try await store.message(conversationID: dm.id, seq: 121)
            XCTAssertNil(beyond)
        }
    }

    /// Text comes back byte for byte. A NUL character is SQLite's only: PostgreSQL's TEXT cannot
    /// hold one (a message with it fails to store there), so that part runs on SQLite alone.
    func testLongAndUnicodeTextIsKeptIntact() async {
        await forEachBackend { store, backend in
            let ann = try await store.addUser("ann"), ben = try await store.addUser("ben")
            let dm = try await store.directConversation(ann.id, ben.id, now: 1).0
            let text = String(repeating: "héllo wörld 👋🏽 ", count: 600) + (backend == .postgres ? "" : "\u{0}") + "end"
            _ = try await store.post(ann, dm.id, text)
            let stored = try await store.messages(conversationID: dm.id, afterSeq: 0, limit: 1).first?.text
            XCTAssertTrue(stored == text, "\(backend): text changed on the way (\(stored?.unicodeScalars.count ?? 0) scalars)")
            let none = try await store.message(senderID: ann.id, clientID: [])
            XCTAssertNil(none)
            _ = try await store.post(ann, dm.id, "")
            let empty = try await store.messages(conversationID: dm.id, afterSeq: 1, limit: 1).first?.text
            XCTAssertEqual(empty, "", "empty, not NULL")
        }
    }
}
