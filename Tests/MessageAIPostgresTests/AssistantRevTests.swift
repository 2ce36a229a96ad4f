import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Assistant revs under concurrency: what a device following ASSIST_SYNC would notice. Its
/// cursor is the highest rev it holds; if rev N+1 were ever visible before rev N (two writers
/// committing out of order, as MAX(rev)+1 allows), the device would move past N and never
/// get that item. Eight writers on two stores (two pools: two nodes) on one database, a reader
/// following the cursor while they write.
final class AssistantRevTests: PostgresTestCase {
    func testRevsAreGapFreeAndNeverSeenOutOfCommitOrderUnderEightWriters() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 5)
        let second = try await openStore(database: database, maximumConnections: 5)
        let (group, users) = try await makeGroup(first, users: 8)
        let rounds = 25, perRound = 3
        let expected = UInt64(users.count * rounds * perRound)

        // The reader: a device of users[0] syncing as fast as it can.
        let reader = Task { () throws -> [AssistItemRecord] in
            var cursor: UInt64 = 0
            var seen: [AssistItemRecord] = []
            let deadline = ContinuousClock.now + .seconds(60)
            while cursor < expected, ContinuousClock.now < deadline {
                let page = try await first.itemsChanged(userID: users[0], sinceRev: cursor, limit: 50)
                seen += page
                cursor = page.last?.rev ?? cursor
            }
            return seen
        }
        try await withThrowingTaskGroup(of: Void.self) { writers in
            for (w, sender) in users.enumerated() {
                let store = w.isMultiple(of: 2) ? first : second
                writers.addTask {
                    for round in 0..<rounds {
                        let items = (0..<perRound).map { ordinal in
                            NewAssistItem(conversationID: group, seq: UInt64(w * 1_000 + round), kind: .decision,
                                                        ordinal: ordinal, text: "writer \(w) round \(round) item \(ordinal)",
                                                        senderID: sender, engine: "local", engineVersion: "t")
                        }
                        let stored = try await store.insertItems(items, now: now())
                        XCTAssertEqual(stored.count, perRound)
                        // One transaction's revs are consecutive: nobody else numbered in between.
                        let revs = stored.map(\.rev).sorted()
                        XCTAssertEqual(revs, Array(revs[0]...(revs[0] + UInt64(perRound) - 1)))
                    }
                }
            }
            try await writers.waitForAll()
        }
        let seen = try await reader.value
        XCTAssertEqual(seen.map(\.rev), Array(1...expected),
                       "the reader saw every rev once, in order: none became visible before a lower one")
        XCTAssertEqual(Set(seen.map(\.itemID)).count, Int(expected))
        let cursor = try await second.assistantCursor()
        XCTAssertEqual(cursor, expected, "no gap: the counter stands at the number of items")
    }

    /// Done marks racing new items and on two nodes: every change still takes the next rev,
    /// and a device that syncs at the end holds each item in its final state.
    func testDoneMarksRacingInsertsKeepOneRevPerChange() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 4)
        let second = try await openStore(database: database, maximumConnections: 4)
        let (group, users) = try await makeGroup(first, users: 4)
        let base = try await first.insertItems((0..<20).map {
            NewAssistItem(conversationID: group, seq: 1, kind: .decision, ordinal: $0, text: "decision \($0)",
                                        senderID: users[0], engine: "local", engineVersion: "t")
        }, now: 1)
        try await withThrowingTaskGroup(of: Int.self) { tasks in
            for (i, item) in base.enumerated() {
                let store = i.isMultiple(of: 2) ? first : second
                // Two nodes mark the same item done at once: one change, one rev.
                tasks.addTask { try await store.setItemDone(id: item.itemID, by: users[1], done: true, now: 2).changed ? 1 : 0 }
                tasks.addTask { try await (i.isMultiple(of: 2) ? second : first).setItemDone(id: item.itemID, by: users[2], done: true, now: 2).changed ? 1 : 0 }
                tasks.addTask {
                    _ = try await store.insertItems([NewAssistItem(
                        conversationID: group, seq: 2, kind: .decision, ordinal: i, text: "more \(i)",
                        senderID: users[3], engine: "local", engineVersion: "t")], now: 3)
                    return 0
                }
            }
            var changes = 0
            for try await n in tasks { changes += n }
            XCTAssertEqual(changes, base.count, "each item is marked done once, whichever node came first")
        }
        let cursor = try await first.assistantCursor()
        XCTAssertEqual(cursor, 20 + 20 + 20, "20 inserts, 20 done marks, 20 more inserts: one rev each, no gap")
        let all = try await second.itemsChanged(userID: users[0], sinceRev: 0, limit: 500)
        XCTAssertEqual(all.count, 40)
        XCTAssertEqual(Set(all.map(\.rev)).count, 40)
        XCTAssertTrue(all.filter { $0.seq == 1 }.allSatisfy(\.done))
    }
}
