import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Issue 25 §1's first invariant on a real PostgreSQL: seqs from `UPDATE ... RETURNING` under
/// the conversation's row lock, idempotent sends through the client id table.
final class AppendMessageTests: PostgresTestCase {
    /// What readers of the conversation would see: 1...1600, each once, whatever the interleaving.
    func testConcurrentSendersGetGapFreeDistinctSeqs() async throws {
        let store = try await openStore(maximumConnections: 8)
        let (group, users) = try await makeGroup(store, users: 8)
        let perSender = 200
        let seqs = try await withThrowingTaskGroup(of: [UInt64].self) { tasks in
            for sender in users {
                tasks.addTask {
                    var mine: [UInt64] = []
                    for i in 0..<perSender {
                        let sent = try await store.appendMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                                 text: "message \(i)", serverTime: now())
                        XCTAssertFalse(sent.duplicate)
                        mine.append(sent.seq)
                    }
                    return mine
                }
            }
            var all: [[UInt64]] = []
            for try await mine in tasks { all.append(mine) }
            return all
        }
        for mine in seqs {
            XCTAssertEqual(mine, mine.sorted(), "one sender's messages keep their order")
        }
        let total = users.count * perSender
        XCTAssertEqual(seqs.flatMap { $0 }.sorted(), Array(1...UInt64(total)))
        let stored = try await store.messageSeqs(conversationID: group)
        XCTAssertEqual(stored, Array(1...UInt64(total)))
    }

    func testResendReturnsTheFirstSeqAndTakesNone() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 2)
        let id = newClientID()
        let first = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: id,
                                                  text: "hello", serverTime: 1000)
        XCTAssertEqual(first, AppendedMessage(seq: 1, serverTime: 1000, duplicate: false))
        let again = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: id,
                                                  text: "hello", serverTime: 2000)
        XCTAssertEqual(again, AppendedMessage(seq: 1, serverTime: 1000, duplicate: true))
        // Another user may hold the same bytes: ids are per user.
        let other = try await store.appendMessage(conversationID: group, senderID: users[1], clientID: id,
                                                  text: "hello", serverTime: 3000)
        XCTAssertEqual(other, AppendedMessage(seq: 2, serverTime: 3000, duplicate: false))
        let seqsInGroup = try await store.messageSeqs(conversationID: group)
        XCTAssertEqual(seqsInGroup, [1, 2])
    }

    func testReusedClientIDIsRefusedAndTakesNoSeq() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 2)
        let elsewhere = try await store.createGroup(name: "other", memberIDs: users, now: now())
        let id = newClientID()
        _ = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: id, text: "hello", serverTime: 1)
        await assertThrows(.conflict("client id already used")) {
            _ = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: id, text: "changed", serverTime: 2)
        }
        await assertThrows(.conflict("client id already used")) {
            _ = try await store.appendMessage(conversationID: elsewhere, senderID: users[0], clientID: id, text: "hello", serverTime: 3)
        }
        let next = try await store.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                 text: "next", serverTime: 4)
        XCTAssertEqual(next.seq, 2, "a refused send leaves no gap")
        let seqsInElsewhere = try await store.messageSeqs(conversationID: elsewhere)
        XCTAssertEqual(seqsInElsewhere, [])
    }

    /// As on SQLite, membership is the caller's check; a conversation that does not exist
    /// fails the whole batch, stores nothing, and leaves the client id free.
    func testMissingConversationIsNotFoundAndNothingIsStored() async throws {
        let store = try await openStore()
        let (ownGroup, users) = try await makeGroup(store, users: 1)
        let id = newClientID()
        await assertThrows(.notFound) {
            _ = try await store.appendMessage(conversationID: 999_999, senderID: users[0], clientID: id,
                                              text: "nowhere", serverTime: 1)
        }
        let sent = try await store.appendMessage(conversationID: ownGroup, senderID: users[0], clientID: id,
                                                 text: "here", serverTime: 2)
        XCTAssertEqual(sent, AppendedMessage(seq: 1, serverTime: 2, duplicate: false))
    }
}
