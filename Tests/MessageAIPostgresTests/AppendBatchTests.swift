import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// SENDs gathered into one transaction (the server's group commit) on PostgreSQL: each
/// message's own answer, and batches from two nodes into
/// the same conversations never losing, doubling or reordering a message.
final class AppendBatchTests: PostgresTestCase {
    /// Each message's own answer in the batch's order, as SQLite gives them: stored with the
    /// next seq of its conversation, a resend its original, a reused id the message that holds it.
    func testEachMessageOfABatchGetsItsOwnAnswer() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 3)
        let (ann, ben, cal) = (users[0], users[1], users[2])
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)
        let earlier = newClientID()
        _ = try await store.appendMessage(conversationID: group, senderID: ann, clientID: earlier, text: "earlier", serverTime: 1)
        let batch = [
            NewMessage(conversationID: group, senderID: ben, clientID: newClientID(), text: "one", serverTime: 2),
            NewMessage(conversationID: dm.id, senderID: ann, clientID: newClientID(), text: "to ben", serverTime: 2),
            NewMessage(conversationID: group, senderID: ann, clientID: earlier, text: "earlier", serverTime: 2),
            NewMessage(conversationID: group, senderID: cal, clientID: newClientID(), text: "three", serverTime: 2, replyTo: 1),
            NewMessage(conversationID: group, senderID: ann, clientID: earlier, text: "not the same text", serverTime: 2),
        ]
        let outcomes = try await store.append(batch)
        let answers = outcomes.map { outcome -> String in
            switch outcome {
            case .stored(let m): "stored \(m.conversationID == group ? "group" : "dm") #\(m.seq) \(m.text) by \(m.senderUsername.prefix(5))"
            case .duplicate(let m): "duplicate #\(m.seq) \(m.text)"
            case .clientIDReused(let m): "reused #\(m?.seq ?? 0)"
            case .refused: "refused"
            case .rateLimited(let wait): "rate limited \(wait) ms"
            }
        }
        XCTAssertEqual(answers, ["stored group #2 one by user1", "stored dm #1 to ben by user0", "duplicate #1 earlier",
                                 "stored group #3 three by user2", "reused #1"], "in the batch's order")
        let history = try await store.messages(conversationID: group, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(history, ["earlier", "one", "three"])
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
                            NewMessage(conversationID: conversations[k % 3], senderID: sender, clientID: newClientID(),
                                                     text: "w\(w) b\(n) m\(k)", serverTime: now())
                        }.shuffled()
                        let outcomes = try await store.append(batch)
                        XCTAssertTrue(outcomes.allSatisfy { if case .stored = $0 { true } else { false } })
                    }
                }
            }
            try await writers.waitForAll()
        }
        for conversation in conversations {
            let stored = try await first.messages(conversationID: conversation, afterSeq: 0, limit: 10_000)
            XCTAssertEqual(stored.map(\.seq), Array(1...UInt64(users.count * batches * 3)))
            XCTAssertEqual(Set(stored.map(\.text)).count, stored.count, "each message once")
            for w in users.indices {
                let mine = stored.map(\.text).filter { $0.hasPrefix("w\(w) ") }
                let batchesInOrder = mine.map { Int($0.split(separator: " ")[1].dropFirst())! }
                XCTAssertEqual(batchesInOrder, batchesInOrder.sorted(), "writer \(w)'s batches in the order sent")
            }
        }
    }

    /// A batch whose messages ask the append to confirm the sender's membership (the server's
    /// SEND skips its own check then): a member's message is stored; a non-member's, a
    /// removed member's, a message request holder's and one in a direct conversation with a
    /// block are refused, with nothing stored and no seq taken, while the rest of the batch
    /// commits with gap-free seqs.
    func testConfirmedMembershipRefusesWhatTheHandlerWouldHave() async throws {
        let store = try await openStore()
        XCTAssertTrue(store.confirmsMembership)
        let (group, users) = try await makeGroup(store, users: 3)
        let (ann, ben, cal) = (users[0], users[1], users[2])
        let (dm, _) = try await store.directConversation(ann, ben, now: 1)  // no contacts: ben holds a request
        try await store.removeMember(conversationID: group, userID: cal)
        func send(_ conversation: UInt64, _ sender: UInt64, _ text: String) -> NewMessage {
            NewMessage(conversationID: conversation, senderID: sender, clientID: newClientID(), text: text, serverTime: 2,
                       confirmMembership: true)
        }
        func answers(_ outcomes: [AppendOutcome]) -> [String] {
            outcomes.map { outcome in
                switch outcome {
                case .stored(let m): "stored #\(m.seq) \(m.text)"
                case .refused: "refused"
                default: "other"
                }
            }
        }
        let first = try await store.append([send(group, ann, "a1"), send(group, cal, "removed"), send(dm.id, cal, "stranger"),
                                            send(dm.id, ben, "request holder"), send(group, ben, "b1"), send(dm.id, ann, "dm1")])
        XCTAssertEqual(answers(first), ["stored #1 a1", "refused", "refused", "refused", "stored #2 b1", "stored #1 dm1"])
        _ = try await store.block(blocker: ben, blocked: ann, now: 3)
        let second = try await store.append([send(dm.id, ann, "after the block"), send(group, ann, "a2")])
        XCTAssertEqual(answers(second), ["refused", "stored #3 a2"])
        let groupTexts = try await store.messages(conversationID: group, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(groupTexts, ["a1", "b1", "a2"], "nothing refused is stored, no seq is skipped")
        let dmTexts = try await store.messages(conversationID: dm.id, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(dmTexts, ["dm1"])
        // Without the flag the append does not check (the caller did): as before.
        let unchecked = try await store.append([NewMessage(conversationID: dm.id, senderID: cal, clientID: newClientID(),
                                                           text: "caller's check", serverTime: 4)])
        XCTAssertEqual(answers(unchecked), ["stored #2 caller's check"])
    }
}
