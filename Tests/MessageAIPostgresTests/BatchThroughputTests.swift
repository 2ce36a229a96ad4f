import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Figures for BENCHMARKS.md, printed, never asserted: sends per second one transaction per
/// send against batches of 16 (the server's group commit), and assistant items per second with
/// the rev counter's lock taken by one writer against eight. What is asserted is what a user
/// would notice: every message and item stored once, seqs and revs without a gap.
/// `MESSAGEAI_PG_BENCH_SENDS` makes the runs larger for a measurement.
final class BatchThroughputTests: PostgresTestCase {
    private var sends: Int {
        Int(ProcessInfo.processInfo.environment["MESSAGEAI_PG_BENCH_SENDS"] ?? "") ?? 640
    }

    func testSendsPerSecondSingleAgainstBatches() async throws {
        let store = try await openStore(maximumConnections: 8)
        for batchSize in [1, 16] {
            let (group, users) = try await makeGroup(store, users: 8)
            let each = sends / users.count
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for sender in users {
                    tasks.addTask {
                        for first in stride(from: 0, to: each, by: batchSize) {
                            let batch = (first..<min(first + batchSize, each)).map {
                                NewMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                         text: "bench \($0)", serverTime: now())
                            }
                            _ = try await store.append(batch)
                        }
                    }
                }
                try await tasks.waitForAll()
            }
            let rate = Self.perSecond(each * users.count, since: start)
            let seqs = try await store.messageSeqs(conversationID: group)
            XCTAssertEqual(seqs, Array(1...UInt64(each * users.count)))
            print("figure: postgres append(batch:), 8 connections, 1 conversation, batches of \(batchSize): \(rate) sends/s")
        }
    }

    func testAssistantItemsPerSecondOneAgainstEightWriters() async throws {
        let store = try await openStore(maximumConnections: 8)
        let (group, users) = try await makeGroup(store, users: 8)
        var expected: UInt64 = 0
        for writers in [1, 8] {
            let each = sends / writers
            let start = ContinuousClock.now
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for w in 0..<writers {
                    tasks.addTask {
                        for n in 0..<each {
                            _ = try await store.insertItems([NewAssistItem(
                                conversationID: group, seq: UInt64(writers * 100_000 + w * 10_000 + n), kind: .decision, ordinal: 0,
                                text: "decision \(n)", senderID: users[w], engine: "local", engineVersion: "t")], now: now())
                        }
                    }
                }
                try await tasks.waitForAll()
            }
            let rate = Self.perSecond(each * writers, since: start)
            expected += UInt64(each * writers)
            let cursor = try await store.assistantCursor()
            XCTAssertEqual(cursor, expected, "one rev per item, no gap")
            print("figure: postgres insertItems (1 item each), \(writers) writer(s) on the rev counter: \(rate) items/s")
        }
    }

    static func perSecond(_ count: Int, since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18))
    }
}
