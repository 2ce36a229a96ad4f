import Foundation
import Logging
import MessageAIPostgres
import MessageAIStore
import PostgresNIO
import XCTest

/// The event log's reader (issue 26): read by (xid, position) below the oldest running
/// transaction, so that a transaction that took its xid early and commits late is never
/// skipped by a cursor that moved past later commits. The reader's joined read (`read`)
/// brings another node's messages with their events, under the same horizon.
final class EventLogTests: PostgresTestCase {
    func testARunningTransactionHoldsBackLaterCommitsUntilItEnds() async throws {
        let database = try newDatabase()
        let node1 = try await openStore(database: database)
        let node2 = try await openStore(database: database)
        let (group, users) = try await makeGroup(node1, users: 2)
        let (other, _) = try await makeGroup(node1, users: 1)
        let before = try await node1.appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                   text: "before the start", serverTime: now())
        let start = try await node1.start()
        XCTAssertEqual(start.lastSeqs[group], before.seq, "the start counts what was committed")

        // A slow writer takes its xid, then node 2 commits a message (a later xid).
        let cluster = try XCTUnwrap(PostgresTestCase.cluster)
        let slow = try await PostgresConnection.connect(
            configuration: .init(unixSocketPath: cluster.socketPath, username: "postgres", password: nil, database: database),
            id: 99, logger: Logger(label: "test"))
        defer { Task { try? await slow.close() } }
        let logger = Logger(label: "test")
        try await slow.query("BEGIN", logger: logger)
        try await slow.query("SELECT pg_current_xact_id()", logger: logger)
        let later = try await node2.appendMessage(conversationID: group, senderID: users[1], clientID: newClientID(),
                                                  text: "committed while the slow one runs", serverTime: now())
        let held = try await node1.events(after: start.cursor, limit: 100)
        XCTAssertEqual(held, [], "nothing is read past a transaction that may still commit below it")
        let heldRead = try await node1.read(after: start.cursor, limit: 100)
        XCTAssertEqual(heldRead.events, [], "the joined read keeps the same horizon")
        XCTAssertTrue(heldRead.entries.isEmpty, "and brings no message past it")
        XCTAssertTrue(heldRead.heldBack, "but says a committed event waits behind it (the reader reads again soon)")

        // The slow writer renames the other group and commits: both are read, its first.
        try await slow.query("UPDATE conversations SET name = 'renamed' WHERE id = \(other)", logger: logger)
        try await slow.query("COMMIT", logger: logger)
        let read = try await node1.events(after: start.cursor, limit: 100)
        XCTAssertEqual(read.map(\.kind), [.membership, .message])
        XCTAssertEqual(read.map(\.conversationID), [other, group])
        XCTAssertEqual(read.last?.seq, later.seq)
        XCTAssertEqual(read.map(\.own), [false, false], "node 1 wrote neither")
        let theirs = try await node2.events(after: start.cursor, limit: 100)
        XCTAssertEqual(theirs.map(\.own), [false, true], "node 2 knows its own commit")
        XCTAssertEqual(read.map(\.position), read.map(\.position).sorted())
        // The joined read: the same events, and the message of the one node 2 wrote, whole.
        let joined = try await node1.read(after: start.cursor, limit: 100)
        XCTAssertEqual(joined.events, read)
        XCTAssertFalse(joined.heldBack)
        guard case .message(let m, let own)? = joined.entries.first, joined.entries.count == 1 else {
            return XCTFail("one message joined, not \(joined.entries.map(\.seq))")
        }
        XCTAssertEqual([m.conversationID, m.seq, m.senderID], [group, later.seq, users[1]])
        XCTAssertEqual(m.text, "committed while the slow one runs")
        XCTAssertFalse(own)
        let ownRead = try await node2.read(after: start.cursor, limit: 100)
        XCTAssertEqual(ownRead.events, theirs)
        XCTAssertTrue(ownRead.entries.isEmpty, "a node's own message is not fetched again: it pushed it at commit")
        let end = try XCTUnwrap(read.last?.position)
        let none = try await node1.events(after: end, limit: 100)
        XCTAssertEqual(none, [], "a cursor at the end reads nothing twice")

        // What a reader fetches for the range: the message, marked by whom it was written.
        let entries = try await node2.entries(conversationID: group, after: 0, through: later.seq)
        XCTAssertEqual(entries.map(\.seq), [before.seq, later.seq])
        XCTAssertEqual(entries.map(\.own), [false, true])

        // The purge deletes by age.
        let kept = try await node1.purgeEvents(olderThan: now() - 3_600_000)
        XCTAssertEqual(kept, 0)
        let purged = try await node1.purgeEvents(olderThan: now() + 1)
        XCTAssertGreaterThanOrEqual(purged, 2)
        let afterPurge = try await node1.events(after: start.cursor, limit: 100)
        XCTAssertEqual(afterPurge, [])
    }

    /// Many writers on two nodes at once: the reader's view, read while they write, ends up
    /// with every seq of the conversation exactly once (no event skipped by a moving cursor).
    func testAReaderFollowingConcurrentWritersMissesNoEvent() async throws {
        let database = try newDatabase()
        let node1 = try await openStore(database: database, maximumConnections: 4)
        let node2 = try await openStore(database: database, maximumConnections: 4)
        let (group, users) = try await makeGroup(node1, users: 6)
        let start = try await node1.start()
        let perSender = 60
        let total = users.count * perSender
        let writers = Task {
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for (i, sender) in users.enumerated() {
                    let store = i.isMultiple(of: 2) ? node1 : node2
                    tasks.addTask {
                        for n in 0..<perSender {
                            _ = try await store.appendMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                              text: "m \(n)", serverTime: now())
                        }
                    }
                }
                try await tasks.waitForAll()
            }
        }
        var cursor = start.cursor
        var seqs: [UInt64] = [], fetched: [UInt64] = [], theirs: [UInt64] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while seqs.count < total, ContinuousClock.now < deadline {
            let read = try await node1.read(after: cursor, limit: 50)
            let events = read.events
            seqs += events.filter { $0.kind == .message && $0.conversationID == group }.map(\.seq)
            // Each message of node 2's writers comes with its event, and only those.
            fetched += read.entries.map(\.seq)
            theirs += events.filter { !$0.own && $0.kind == .message }.map(\.seq)
            if Set(seqs).count != seqs.count { break }  // read twice: the assertions below say so
            if let last = events.last { cursor = last.position }
        }
        try await writers.value
        XCTAssertEqual(seqs.count, total)
        XCTAssertEqual(seqs.sorted(), Array(1...UInt64(total)), "every seq once")
        XCTAssertEqual(fetched, theirs, "the messages node 2 wrote, in log order, joined to their events")
        XCTAssertEqual(theirs.count, total / 2)
    }
}
