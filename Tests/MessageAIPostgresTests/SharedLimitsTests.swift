import MessageAIPostgres
import MessageAIStore
import XCTest

/// The limits several nodes share on PostgreSQL (schema v10), at the store level: the send
/// limit applied inside the append's own call, and the same bucket reached from two stores
/// (two pools standing for two nodes).
final class SharedLimitsTests: PostgresTestCase {
    /// A batch of two senders, one with 2 tokens left: that sender's last messages are refused
    /// with a wait, every other message is stored in the batch's order with gap-free seqs, and
    /// a resend of a stored message passes without a token.
    /// The limit and the membership checks folded into the same call (`messageai_send_limited`):
    /// an outsider's message is refused as a non-member, the member's message past the limit as
    /// over it, each with its own answer, and only the others take seqs.
    func testTheLimitAndTheMembershipCheckAnswerApartInOneBatch() async throws {
        let store = try await openStore()
        store.setSendLimit(SendLimit(limit: 2, windowMillis: 3_600_000))
        let (group, users) = try await makeGroup(store, users: 1)
        let ann = users[0]
        let cal = try await store.createUser(username: "cal_\(UInt32.random(in: 0...UInt32.max))", email: "cal\(UInt32.random(in: 0...UInt32.max))@example.org",
                                             displayName: "Cal", passwordHash: "x", now: now())
        let batch = ["a1", "c1", "a2", "a3"].map { text in
            NewMessage(conversationID: group, senderID: text.hasPrefix("a") ? ann : cal, clientID: newClientID(), text: text,
                       serverTime: 2, confirmMembership: true)
        }
        let answers = try await store.append(batch).map { outcome -> String in
            switch outcome {
            case .stored(let m): "#\(m.seq) \(m.text)"
            case .refused: "refused"
            case .rateLimited: "limited"
            case .duplicate, .clientIDReused: "other"
            }
        }
        XCTAssertEqual(answers, ["#1 a1", "refused", "#2 a2", "limited"])
        let history = try await store.messages(conversationID: group, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(history, ["a1", "a2"])
    }

    func testABatchOverOneSendersLimitRefusesOnlyItsLastMessages() async throws {
        let store = try await openStore()
        store.setSendLimit(SendLimit(limit: 3, windowMillis: 3_600_000))
        let (group, users) = try await makeGroup(store, users: 2)
        let (ann, ben) = (users[0], users[1])
        let first = newClientID()
        _ = try await store.appendMessage(conversationID: group, senderID: ann, clientID: first, text: "first", serverTime: 1)
        let batch = [
            NewMessage(conversationID: group, senderID: ann, clientID: newClientID(), text: "a1", serverTime: 2),
            NewMessage(conversationID: group, senderID: ben, clientID: newClientID(), text: "b1", serverTime: 2),
            NewMessage(conversationID: group, senderID: ann, clientID: newClientID(), text: "a2", serverTime: 2),
            NewMessage(conversationID: group, senderID: ann, clientID: first, text: "first", serverTime: 2),
            NewMessage(conversationID: group, senderID: ann, clientID: newClientID(), text: "a3", serverTime: 2),
            NewMessage(conversationID: group, senderID: ben, clientID: newClientID(), text: "b2", serverTime: 2),
            NewMessage(conversationID: group, senderID: ann, clientID: newClientID(), text: "a4", serverTime: 2),
        ]
        let answers = try await store.append(batch).map { outcome -> String in
            switch outcome {
            case .stored(let m): "#\(m.seq) \(m.text)"
            case .duplicate(let m): "duplicate #\(m.seq)"
            case .clientIDReused: "reused"
            case .refused: "refused"
            case .rateLimited(let wait): wait > 0 && wait <= 1_200_000 ? "limited" : "limited after \(wait) ms?"
            }
        }
        XCTAssertEqual(answers, ["#2 a1", "#3 b1", "#4 a2", "duplicate #1", "limited", "#5 b2", "limited"])
        let history = try await store.messages(conversationID: group, afterSeq: 0, limit: 10).map(\.text)
        XCTAssertEqual(history, ["first", "a1", "b1", "a2", "b2"])
    }

    /// Two stores on one database, six senders each sending 10 messages through each store in
    /// mixed batches at once: each sender gets exactly the limit (8) stored, seqs stay gap-free,
    /// and no batch deadlocks.
    func testTwoStoresShareEachSendersBucket() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 4)
        let second = try await openStore(database: database, maximumConnections: 4)
        let limit = SendLimit(limit: 8, windowMillis: 3_600_000)
        first.setSendLimit(limit)
        second.setSendLimit(limit)
        let (group, users) = try await makeGroup(first, users: 6)
        let stored = try await withThrowingTaskGroup(of: [UInt64].self) { tasks in
            for (n, store) in [first, second, first, second].enumerated() {
                tasks.addTask {
                    var senders: [UInt64] = []
                    for round in 0..<5 {
                        let batch = users.flatMap { user in
                            [NewMessage(conversationID: group, senderID: user, clientID: newClientID(), text: "\(n).\(round)", serverTime: 1)]
                        }
                        for case .stored(let m) in try await store.append(batch) { senders.append(m.senderID) }
                    }
                    return senders
                }
            }
            var all: [UInt64] = []
            for try await senders in tasks { all += senders }
            return all
        }
        for user in users {
            XCTAssertEqual(stored.filter { $0 == user }.count, 8, "user \(user): the limit once, over both stores")
        }
        let seqs = try await first.messages(conversationID: group, afterSeq: 0, limit: 100).map(\.seq)
        XCTAssertEqual(seqs, Array(1...UInt64(users.count * 8)))
    }
}
