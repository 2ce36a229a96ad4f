import Foundation
import MessageAIPostgres
import MessageAIStore
import XCTest

/// Schema v14: a conversation's members version rises with every membership change, in its
/// transaction, and each send and change answers the version its seq was taken under: what a
/// node compares with its cached audience before pushing (issue 26).
final class MembersVersionTests: PostgresTestCase {
    func testEveryMembershipChangeRaisesTheVersionThatSendsAndChangesAnswer() async throws {
        let store = try await openStore()
        let (group, users) = try await makeGroup(store, users: 3)
        let (other, _) = try await makeGroup(store, users: 2)
        let otherBefore = try await store.memberList(conversationID: other)
        let created = try await store.memberList(conversationID: group)
        XCTAssertEqual(Set(created.ids), Set(users))
        XCTAssertGreaterThan(created.version, 0, "creating the group added its members")
        let first = try await sendOne(store, group, from: users[0])
        XCTAssertEqual(first, created.version)

        try await store.removeMember(conversationID: group, userID: users[2])
        let left = try await store.memberList(conversationID: group)
        XCTAssertEqual(Set(left.ids), Set(users[0..<2]))
        XCTAssertGreaterThan(left.version, created.version)
        let second = try await sendOne(store, group, from: users[0])
        XCTAssertEqual(second, left.version, "taken after the removal")
        // Adding someone who is a member already inserts nothing and moves nothing.
        try await store.addMembers(conversationID: group, userIDs: [users[1]], now: now())
        let again = try await store.memberList(conversationID: group)
        XCTAssertEqual(again.version, left.version)
        let change = try await store.apply(NewChange(conversationID: group, actorID: users[1], clientID: newClientID(),
                                                     targetSeq: 1, action: .react, emoji: "👍", serverTime: now()))
        guard case .stored(let record) = change else { return XCTFail("\(change)") }
        XCTAssertEqual(record.membersVersion, left.version)

        try await store.addMembers(conversationID: group, userIDs: [users[2]], now: now())
        let back = try await store.memberList(conversationID: group)
        XCTAssertEqual(Set(back.ids), Set(users))
        XCTAssertGreaterThan(back.version, left.version)
        let otherAfter = try await store.memberList(conversationID: other)
        XCTAssertEqual(otherAfter, otherBefore, "another conversation's stays")
        let none = try await store.memberList(conversationID: 999_999)
        XCTAssertEqual(none, MemberList(ids: [], version: 0))
    }

    /// A send that waits for the conversation's row behind a removal (another node's, still
    /// open) takes its seq after the removal commits, and answers the risen version: the node
    /// that committed it knows its cached members predate it.
    func testASendWaitingBehindARemovalAnswersTheRisenVersion() async throws {
        let cluster = try XCTUnwrap(PostgresTestCase.cluster)
        let database = try newDatabase()
        let store = try await openStore(database: database)
        let (group, users) = try await makeGroup(store, users: 3)
        let before = try await store.memberList(conversationID: group)

        let removal = try OpenTransaction(cluster, database: database)
        defer { removal.end() }
        try removal.run("BEGIN; DELETE FROM members WHERE conversation_id = \(group) AND user_id = \(users[2]);")
        try removal.waitUntil("state = 'idle in transaction'")
        let sender = users[0]
        let sending = Task { try await sendOne(store, group, from: sender) }
        // The send is queued behind the removal's lock on the conversation's row.
        try waitForCount(cluster, database, "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event_type = 'Lock'")
        try removal.run("COMMIT;")
        let version = try await sending.value
        let after = try await store.memberList(conversationID: group)
        XCTAssertGreaterThan(after.version, before.version)
        XCTAssertEqual(version, after.version, "the send's seq was taken after the removal")
        XCTAssertFalse(after.ids.contains(users[2]))
    }
}

/// One message; its members version.
private func sendOne(_ store: PostgresStore, _ conversation: UInt64, from sender: UInt64) async throws -> UInt64 {
    let outcome = try await store.append([NewMessage(conversationID: conversation, senderID: sender, clientID: newClientID(),
                                                     text: "hello", serverTime: now())])
    guard case .stored(let m) = outcome.first else { throw StoreError.conflict("not stored: \(outcome)") }
    return m.membersVersion
}

/// Waits until `count` (a `SELECT count(*)`) answers at least 1, with a deadline.
func waitForCount(_ cluster: TestCluster, _ database: String, _ count: String) throws {
    let deadline = Date().addingTimeInterval(30)
    while try cluster.psql(count, database: database) == "0" {
        guard deadline.timeIntervalSinceNow > 0 else { throw ClusterError("never: \(count)", log: "") }
        usleep(20_000)
    }
}

/// A psql session fed on its standard input: a transaction the test opens, holds and ends.
final class OpenTransaction {
    private static let application = "messageai-test-open"
    private let cluster: TestCluster
    private let database: String
    private let process = Process()
    private let input = Pipe()

    init(_ cluster: TestCluster, database: String) throws {
        self.cluster = cluster
        self.database = database
        let bin = try XCTUnwrap(TestCluster.binaries())
        process.executableURL = URL(fileURLWithPath: bin + "/psql")
        process.arguments = ["-h", cluster.directory, "-p", "\(cluster.port)", "-U", "postgres", "-d", database, "-X", "-q",
                             "-v", "ON_ERROR_STOP=1"]
        process.environment = ["PGAPPNAME": Self.application]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func run(_ sql: String) throws { input.fileHandleForWriting.write(Data((sql + "\n").utf8)) }

    /// Until the session's row in pg_stat_activity meets `condition`.
    func waitUntil(_ condition: String) throws {
        try waitForCount(cluster, database, """
            SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(Self.application)' AND \(condition)
            """)
    }

    func end() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
