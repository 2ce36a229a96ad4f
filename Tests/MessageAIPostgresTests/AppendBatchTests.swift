import MessageAIPostgres
import XCTest

/// SENDs gathered into one transaction (the server's group commit) on PostgreSQL: each
/// message's own answer, nothing of a refused one stored, and batches from two nodes into
/// the same conversations never losing, doubling or reordering a message.
final class AppendBatchTests: PostgresTestCase {
    func testEachMessageOfABatchGetsItsOwnAnswer() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 3)
        let (ann, ben, cal) = (users[0], users[1], users[2])
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let (blockedDM, _) = try await store.directConversation(ann, cal, now: 1)
        try await store.block(blocker: cal, blocked: ann, now: 1)
        let (_, strangers) = try await makeGroup(store, users: 1)
        let earlier = newClientID()
        let first = try await store.appendMessage(conversationID: group, senderID: ann, clientID: earlier, text: "earlier", serverTime: 1)
        let refusedID = newClientID()
        typealias New = PostgresStore.NewMessage
        let batch = [
            New(conversationID: group, senderID: ben, clientID: newClientID(), text: "one", serverTime: 2),
            New(conversationID: dm.id, senderID: ann, clientID: newClientID(), text: "to ben", serverTime: 2),
            New(conversationID: group, senderID: ann, clientID: earlier, text: "earlier", serverTime: 2),
            New(conversationID: group, senderID: strangers[0], clientID: newClientID(), text: "intruder", serverTime: 2),
            New(conversationID: blockedDM.id, senderID: ann, clientID: refusedID, text: "to cal", serverTime: 2),
            New(conversationID: group, senderID: ben, clientID: newClientID(), text: "two", serverTime: 2, replyTo: 99),
            New(conversationID: group, senderID: cal, clientID: newClientID(), text: "three", serverTime: 2, replyTo: first.seq),
            New(conversationID: group, senderID: ann, clientID: earlier, text: "not the same text", serverTime: 2),
        ]
        let outcomes = try await store.append(batch: batch)
        XCTAssertEqual(outcomes, [
            .appended(AppendedMessage(seq: 2, serverTime: 2, duplicate: false)),
            .appended(AppendedMessage(seq: 1, serverTime: 2, duplicate: false)),
            .appended(AppendedMessage(seq: 1, serverTime: 1, duplicate: true)),
            .refused(.notMember),
            .refused(.blocked(bySender: false)),
            .refused(.noSuchMessage),
            .appended(AppendedMessage(seq: 3, serverTime: 2, duplicate: false)),
            .refused(.clientIDReused),
        ], "in the batch's order; a conversation's messages numbered in it, with no gap for the refused")
        let history = try await store.messages(conversationID: group, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(history, ["earlier", "one", "three"])
        try await store.unblock(blocker: cal, blocked: ann)
        let retried = try await store.append(batch: [New(conversationID: blockedDM.id, senderID: ann, clientID: refusedID, text: "to cal", serverTime: 3)])
        XCTAssertEqual(retried, [.appended(AppendedMessage(seq: 1, serverTime: 3, duplicate: false))],
                       "the refused message's client id was left free")
    }

    /// Two nodes (two pools), four writers each, every batch spanning three conversations in a
    /// shuffled order: each conversation's seqs are 1...N with each message once, each
    /// sender's messages in the order they were sent. Batches that deadlock are run again.
    func testBatchesFromTwoNodesAcrossConversationsStayGapFree() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 4)
        let second = try await openStore(database: database, maximumConnections: 4)
        let (a, users) = try await makeGroup(first, users: 8)
        let b = try await first.createGroup(name: "b", memberIDs: users, now: 1)
        let c = try await first.createGroup(name: "c", memberIDs: users, now: 1)
        let conversations = [a, b, c]
        let batches = 15, perBatch = 9
        try await withThrowingTaskGroup(of: Void.self) { writers in
            for (w, sender) in users.enumerated() {
                let store = w.isMultiple(of: 2) ? first : second
                writers.addTask {
                    for n in 0..<batches {
                        let batch = (0..<perBatch).map { k in
                            PostgresStore.NewMessage(conversationID: conversations[k % 3], senderID: sender, clientID: newClientID(),
                                                     text: "w\(w) b\(n) m\(k)", serverTime: now())
                        }.shuffled()
                        let outcomes = try await store.append(batch: batch)
                        XCTAssertTrue(outcomes.allSatisfy { if case .appended(let m) = $0 { !m.duplicate } else { false } })
                    }
                }
            }
            try await writers.waitForAll()
        }
        for conversation in conversations {
            let stored = try await first.messages(conversationID: conversation, afterSeq: 0, limit: 10_000)
            XCTAssertEqual(stored.map(\.seq), Array(1...Int64(users.count * batches * 3)))
            XCTAssertEqual(Set(stored.map(\.text)).count, stored.count, "each message once")
            for w in users.indices {
                let mine = stored.map(\.text).filter { $0.hasPrefix("w\(w) ") }
                let batchesInOrder = mine.map { Int($0.split(separator: " ")[1].dropFirst())! }
                XCTAssertEqual(batchesInOrder, batchesInOrder.sorted(), "writer \(w)'s batches in the order sent")
            }
        }
    }
}
