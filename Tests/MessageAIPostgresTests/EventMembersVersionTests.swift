import Foundation
import MessageAIPostgres
import MessageAIStore
import MessageAIVocabulary
import XCTest

/// Schema v15: each message's event carries the members version its seq was taken under, so a
/// node that reads a message before a leave that committed ahead of it (the log sorts by
/// transaction id, not by commit) still knows its cached members are too old (issue 26).
final class EventMembersVersionTests: PostgresTestCase {
    /// The race made deterministic: the send takes its transaction id (writing its client id),
    /// then waits on a lock held on the sender's row (its client id's foreign key checks it);
    /// meanwhile a removal takes a later id and commits; then the send takes its seq.
    func testAMessageLoggedBeforeARemovalThatCommittedFirstCarriesTheRisenVersion() async throws {
        let cluster = try XCTUnwrap(PostgresTestCase.cluster)
        let database = try newDatabase()
        let store = try await openStore(database: database)
        let (group, users) = try await makeGroup(store, users: 3)
        let start = try await store.start()
        let before = try await store.memberList(conversationID: group)

        let hold = try OpenTransaction(cluster, database: database)
        defer { hold.end() }
        try hold.run("BEGIN; SELECT 1 FROM users WHERE id = \(users[0]) FOR UPDATE;")
        try hold.waitUntil("state = 'idle in transaction'")
        let sender = users[0]
        let sending = Task { try await store.append([NewMessage(conversationID: group, senderID: sender, clientID: newClientID(),
                                                                text: "sent as ben left", serverTime: now())]) }
        // The send waits with a transaction id of its own: it wrote its client id.
        try waitForCount(cluster, database, """
            SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'
              AND backend_xid IS NOT NULL
            """)
        try await store.removeMember(conversationID: group, userID: users[2])
        try hold.run("COMMIT;")
        guard case .stored(let message) = try await sending.value.first else { return XCTFail("not stored") }
        let after = try await store.memberList(conversationID: group)
        XCTAssertGreaterThan(after.version, before.version)
        XCTAssertEqual(message.membersVersion, after.version, "its seq was taken after the removal")

        let events = try await store.events(after: start.cursor, limit: 100)
        let sent = try XCTUnwrap(events.first { $0.kind == .message && $0.conversationID == group })
        let left = try XCTUnwrap(events.first { $0.kind == .membership && $0.userID == users[2] })
        XCTAssertLessThan(sent.position, left.position, "the race: the message is logged before the removal")
        XCTAssertEqual(sent.membersVersion, after.version)

        // Another node reads the same version with the message, both ways it reads messages.
        let other = try await openStore(database: database)
        let read = try await other.read(after: start.cursor, limit: 100)
        XCTAssertEqual(read.events.first { $0.position == sent.position }?.membersVersion, after.version)
        guard case .message(let joined, let own)? = read.entries.first(where: { $0.seq == message.seq }) else {
            return XCTFail("the message was not joined to its event")
        }
        XCTAssertFalse(own)
        XCTAssertEqual(joined.membersVersion, after.version)
        let entries = try await other.entries(conversationID: group, after: message.seq - 1, through: message.seq, known: [:])
        guard case .message(let fetched, _)? = entries.first else { return XCTFail("no entry") }
        XCTAssertEqual(fetched.membersVersion, after.version)
    }

    /// A change's event and an assistant item's carry the version too; a membership event has none.
    func testChangesAndItemsCarryTheVersionAndOtherEventsNone() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 3)
        let start = try await store.start()
        try await store.removeMember(conversationID: group, userID: users[2])
        let version = try await store.memberList(conversationID: group).version
        _ = try await store.append([NewMessage(conversationID: group, senderID: users[0], clientID: newClientID(),
                                               text: "hello", serverTime: now())])
        _ = try await store.apply(NewChange(conversationID: group, actorID: users[1], clientID: newClientID(),
                                            targetSeq: 1, action: .react, emoji: "👍", serverTime: now()))
        _ = try await store.insertItems([NewAssistItem(conversationID: group, seq: 1, kind: .action, ordinal: 0,
                                                       text: "tag the branch", who: "", senderID: users[0],
                                                       engine: "local", engineVersion: "t")], now: now())
        let events = try await store.events(after: start.cursor, limit: 100)
        XCTAssertEqual(events.filter { [.message, .change, .assistItem].contains($0.kind) }.map(\.membersVersion),
                       [version, version, version])
        XCTAssertEqual(events.filter { $0.kind == .membership }.map(\.membersVersion), [0])
    }
}
