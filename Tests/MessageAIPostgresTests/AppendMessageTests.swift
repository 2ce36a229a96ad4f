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
}
