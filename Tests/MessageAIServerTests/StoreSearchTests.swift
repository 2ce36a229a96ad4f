import Foundation
import XCTest
@testable import MessageAIServer
import MessageAIProtocol

final class StoreSearchTests: XCTestCase {
    func testSearchOfAUserInManyConversations() {
        forEachStore { store, kind in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben"), cal = try store.makeUser("cal")
            let count = SQLiteStore.searchScopeTokenLimit + 6
            var batch: [NewMessage] = []
            for i in 0..<count {
                let g = try store.createGroup(name: "g\(i)", creator: ann.id, members: [ben.id, cal.id], now: 1)
                batch.append(NewMessage(conversationID: g.id, senderID: ben.id, clientID: newClientID(),
                                        text: "report \(i)", serverTime: UInt64(10 + i)))
            }
            let outsider = try store.createGroup(name: "x", creator: ben.id, members: [cal.id, cal.id], now: 1)
            batch.append(NewMessage(conversationID: outsider.id, senderID: ben.id, clientID: newClientID(), text: "report x", serverTime: 999))
            _ = try store.append(batch)
            let hits = try store.search(userID: ann.id, query: "report", conversationID: nil, offset: 0, limit: 500)
            XCTAssertEqual(hits.map(\.text), (0..<count).reversed().map { "report \($0)" }, "\(kind)")
            XCTAssertEqual(try store.search(userID: cal.id, query: "report", conversationID: nil, offset: 0, limit: 500).count, count + 1)
        }
    }

    func testSearchWalksTheIndexNewestFirstWithoutSorting() {
        forEachStore { store, _ in
            let plan = try store.searchPlan().joined(separator: " | ")
            XCTAssertTrue(plan.contains("VIRTUAL TABLE"), plan)
            XCTAssertFalse(plan.contains("TEMP B-TREE"), "no sort of all matches: \(plan)")
        }
    }

    func testSearchIsCaseAndAccentInsensitive() {
        forEachStore { store, _ in
            let ann = try store.makeUser("ann"), ben = try store.makeUser("ben")
            let dm = try store.directConversation(ann.id, ben.id, now: 1).0
            _ = try store.send(ann, dm.id, "Café Übersee", time: 10)
            XCTAssertEqual(try store.search(userID: ben.id, query: "cafe", conversationID: nil, offset: 0, limit: 10).count, 1)
            XCTAssertEqual(try store.search(userID: ben.id, query: "UBERSEE", conversationID: nil, offset: 0, limit: 10).count, 1)
        }
    }

    /// 100,000 messages across 200 conversations; prints the search latency (no timed assertion:
    /// speed is for benchmarks, correctness is asserted).
    func testSearchLatencyWith100kMessages() throws {
        let dir = try TempDirectory()
        let store = try SQLiteStore(path: dir.databasePath)
        defer { store.close() }
        let users = try (0..<50).map { try store.makeUser("user\($0)") }
        var conversations: [(id: UInt64, members: [UserRecord])] = []
        for i in 0..<200 {
            let a = users[i % 50], b = users[(i * 7 + 1) % 50], c = users[(i * 13 + 2) % 50]
            if a.id == b.id || b.id == c.id || a.id == c.id { continue }
            let g = try store.createGroup(name: "g\(i)", creator: a.id, members: [b.id, c.id], now: 1)
            conversations.append((g.id, [a, b, c]))
        }
        let words = ["meeting", "lunch", "deploy", "release", "coffee", "weekend", "budget", "review", "holiday",
                     "server", "client", "database", "design", "planning", "birthday", "train", "weather", "music"]
        var rng = SystemRandomNumberGenerator()
        let insertStart = Date()
        var total = 0
        while total < 100_000 {
            let batch: [NewMessage] = (0..<500).map { i in
                let conv = conversations[Int.random(in: 0..<conversations.count, using: &rng)]
                let sender = conv.members[Int.random(in: 0..<3, using: &rng)]
                let text = (0..<8).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ") + " n\(total + i)"
                return NewMessage(conversationID: conv.id, senderID: sender.id, clientID: newClientID(), text: text,
                                  serverTime: UInt64(10_000 + total + i))
            }
            _ = try store.append(batch)
            total += batch.count
        }
        try store.indexPendingMessages()  // counted with the inserts, as the server pays it too
        let insertSeconds = Date().timeIntervalSince(insertStart)

        let searcher = users[3]
        let queries = ["lunch", "deploy release", "coffee wee", "budget review holiday", "n99999", "weather mus"]
        var latencies: [Double] = []
        for round in 0..<200 {
            let query = queries[round % queries.count]
            let start = DispatchTime.now().uptimeNanoseconds
            let hits = try store.search(userID: searcher.id, query: query, conversationID: nil, offset: 0, limit: 50)
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            if round < queries.count {
                let own = Set(try store.conversationList(userID: searcher.id).map(\.conversationID))
                XCTAssertTrue(hits.allSatisfy { own.contains($0.conversationID) }, query)
                XCTAssertEqual(hits.map(\.serverTime), hits.map(\.serverTime).sorted(by: >), "newest first: \(query)")
            }
        }
        print("store search, 100k messages (inserted in \(String(format: "%.1f", insertSeconds)) s), member of "
              + "\(try store.conversationList(userID: searcher.id).count) conversations: \(Self.summary(latencies))")

        // The hard case: a user in one small conversation searching a word found in ~40% of
        // all messages, none of them theirs.
        let loner = try store.makeUser("loner"), friend = try store.makeUser("friend")
        let dm = try store.directConversation(loner.id, friend.id, now: 1).0
        _ = try store.send(friend, dm.id, "lunch with me?", time: 1)
        var lonerLatencies: [Double] = []
        for _ in 0..<20 {
            let start = DispatchTime.now().uptimeNanoseconds
            let hits = try store.search(userID: loner.id, query: "lunch", conversationID: nil, offset: 0, limit: 50)
            lonerLatencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            XCTAssertEqual(hits.map(\.text), ["lunch with me?"])
        }
        print("store search, common word, searcher in 1 conversation: \(Self.summary(lonerLatencies))")
    }

    static func summary(_ values: [Double]) -> String {
        let sorted = values.sorted()
        func pct(_ p: Double) -> String { String(format: "%.2f", sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) }
        return "p50 \(pct(0.50)) ms, p99 \(pct(0.99)) ms, max \(pct(1.0)) ms over \(sorted.count) queries"
    }
}
