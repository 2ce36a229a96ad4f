import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// What two server nodes on one database rely on, with two `PostgresStore`s (two pools) in
/// one process standing for the two nodes: the transactions are what is tested, not the wire.
final class MultiNodeTests: PostgresTestCase {
    /// Several nodes starting at once on a fresh database: each opens, the schema is migrated
    /// once (the others wait on the advisory lock, then find nothing to do). Without the lock
    /// the second `CREATE TABLE users` fails. Three rounds, four nodes each.
    func testNodesStartingAtOnceMigrateOnce() async throws {
        for _ in 0..<3 {
            let database = try newDatabase()
            let socket = try XCTUnwrap(PostgresTestCase.cluster).socketPath
            let stores = try await withThrowingTaskGroup(of: PostgresStore.self) { tasks in
                for _ in 0..<4 {
                    tasks.addTask { try await Self.open(socket: socket, database: database) }
                }
                var stores: [PostgresStore] = []
                for try await store in tasks { stores.append(store) }
                return stores
            }
            stores.forEach(track)
            XCTAssertEqual(stores.count, 4)
            for store in stores {
                let applied = try await store.appliedMigrations()
                // As a set: the store lists them by name, and "v10_..." sorts before "v1_...".
                XCTAssertEqual(Set(applied), ["v1_initial", "v2_search_purge", "v3_files", "v4_people_privacy", "v5_assistant", "v6_attachments",
                                              "v7_event_log", "v8_append_function", "v9_nodes", "v10_shared_limits",
                                              "v11_extraction_jobs", "v12_send_function", "v13_item_events", "v14_members_version",
                                              "v15_event_members_version"])
            }
            // And every node works on the one schema.
            let (group, users) = try await makeGroup(stores[0], users: 1)
            let sent = try await stores[3].appendMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                                         text: "after the race", serverTime: now())
            XCTAssertEqual(sent.seq, 1)
        }
    }

    /// Issue 25's concurrency test at the store level: two stores (two pools, 4 connections
    /// each) appending into one conversation at full speed give gap-free, duplicate-free seqs,
    /// each sender's in its own order, and what a reader pages through is exactly 1...N.
    func testTwoStoresAppendingIntoOneConversationGiveGapFreeSeqs() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database, maximumConnections: 4)
        let second = try await openStore(database: database, maximumConnections: 4)
        let (group, users) = try await makeGroup(first, users: 8)
        let perSender = 150
        let start = ContinuousClock.now
        let seqs = try await withThrowingTaskGroup(of: [UInt64].self) { tasks in
            for (i, sender) in users.enumerated() {
                let store = i.isMultiple(of: 2) ? first : second
                tasks.addTask {
                    var mine: [UInt64] = []
                    for n in 0..<perSender {
                        let sent = try await store.appendMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                                 text: "node \(i % 2) message \(n)", serverTime: now())
                        mine.append(sent.seq)
                    }
                    return mine
                }
            }
            var all: [[UInt64]] = []
            for try await mine in tasks { all.append(mine) }
            return all
        }
        let elapsed = ContinuousClock.now - start
        let total = users.count * perSender
        for mine in seqs { XCTAssertEqual(mine, mine.sorted(), "one sender's messages keep their order") }
        XCTAssertEqual(seqs.flatMap { $0 }.sorted(), Array(1...UInt64(total)))
        let storedByFirst = try await first.messageSeqs(conversationID: group)
        let storedBySecond = try await second.messageSeqs(conversationID: group)
        XCTAssertEqual(storedByFirst, Array(1...UInt64(total)))
        XCTAssertEqual(storedBySecond, storedByFirst)
        let conversation = try await second.conversation(id: group)
        XCTAssertEqual(conversation?.lastSeq, UInt64(total))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("figure: postgres two stores x 4 connections, 8 senders, 1 conversation: \(Int(Double(total) / seconds)) sends/s")
    }

    /// Both users opening their direct conversation at once, on both nodes: one conversation,
    /// made by exactly one call; every other call finds it.
    func testDirectConversationOpenedAtOnceOnTwoNodesIsOne() async throws {
        let database = try newDatabase()
        let first = try await openStore(database: database)
        let second = try await openStore(database: database)
        for round in 0..<5 {
            let a = try await first.createUser(username: "a\(round)", email: "a\(round)@x.org", displayName: "A", passwordHash: "x", now: now())
            let b = try await first.createUser(username: "b\(round)", email: "b\(round)@x.org", displayName: "B", passwordHash: "x", now: now())
            let opened = try await withThrowingTaskGroup(of: (UInt64, Bool).self) { tasks in
                for i in 0..<8 {
                    let store = i.isMultiple(of: 2) ? first : second
                    let (me, them) = i % 4 < 2 ? (a, b) : (b, a)
                    tasks.addTask {
                        let (conversation, created) = try await store.directConversation(me, them, now: now())
                        return (conversation.id, created)
                    }
                }
                var all: [(UInt64, Bool)] = []
                for try await result in tasks { all.append(result) }
                return all
            }
            XCTAssertEqual(Set(opened.map(\.0)).count, 1, "one conversation for the pair")
            XCTAssertEqual(opened.filter(\.1).count, 1, "made by exactly one call")
            let members = try await second.memberIDs(conversationID: opened[0].0)
            XCTAssertEqual(Set(members), [a, b])
        }
    }

    private static func open(socket: String, database: String) async throws -> PostgresStore {
        var configuration = PostgresStore.Configuration(username: "postgres", database: database)
        configuration.unixSocketPath = socket
        configuration.maximumConnections = 2
        return try await PostgresStore.open(configuration, now: now())
    }
}
