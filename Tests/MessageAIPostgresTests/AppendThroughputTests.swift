import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Sends per second through `appendMessage`, printed as figures for BENCHMARKS.md, never
/// asserted; what is asserted is that every run stored gap-free seqs. The counts are small
/// for CI; `MESSAGEAI_PG_BENCH_SENDS` (per run) makes them larger for a measurement.
final class AppendThroughputTests: PostgresTestCase {
    private var sends: Int {
        Int(ProcessInfo.processInfo.environment["MESSAGEAI_PG_BENCH_SENDS"] ?? "") ?? 800
    }

    func testSendsPerSecondOnOneAndEightConnections() async throws {
        let one = try await openStore(maximumConnections: 1)
        let (group, users) = try await makeGroup(one, users: 1)
        let single = try await measure(one, senders: [(group, users[0])])
        print("figure: postgres appendMessage, 1 connection: \(single) sends/s")

        let eight = try await openStore(maximumConnections: 8)
        let (shared, members) = try await makeGroup(eight, users: 8)
        let contended = try await measure(eight, senders: members.map { (shared, $0) })
        print("figure: postgres appendMessage, 8 connections, 1 conversation: \(contended) sends/s")

        var apart: [(UInt64, UInt64)] = []
        for _ in 0..<8 {
            let (group, users) = try await makeGroup(eight, users: 1)
            apart.append((group, users[0]))
        }
        let spread = try await measure(eight, senders: apart)
        print("figure: postgres appendMessage, 8 connections, 8 conversations: \(spread) sends/s")
    }

    /// Runs `sends` appends split across the senders at once; returns sends per second.
    private func measure(_ store: PostgresStore, senders: [(conversation: UInt64, sender: UInt64)]) async throws -> Int {
        let each = sends / senders.count
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            for (conversation, sender) in senders {
                tasks.addTask {
                    for i in 0..<each {
                        _ = try await store.appendMessage(conversationID: conversation, senderID: sender,
                                                          clientID: newClientID(), text: "bench \(i)", serverTime: now())
                    }
                }
            }
            try await tasks.waitForAll()
        }
        let elapsed = ContinuousClock.now - start
        var stored = 0
        for conversation in Set(senders.map(\.conversation)) {
            let seqs = try await store.messageSeqs(conversationID: conversation)
            XCTAssertEqual(seqs, Array(1...UInt64(seqs.count)))
            stored += seqs.count
        }
        XCTAssertEqual(stored, each * senders.count)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Int(Double(each * senders.count) / seconds)
    }
}
