import Foundation
import MessageAIProtocol
import XCTest

/// Two `messageai-server` processes on one PostgreSQL database (issue 26): a member who leaves
/// through one node is never pushed, on a device connected to the other node, what that other
/// node commits after the leave, even before that node has read the leave from the log.
/// Real processes, real sockets, a real PostgreSQL (`TestCluster`).
final class ClusterMembershipProcessTests: ClusterTestCase {
    func testAMemberWhoLeftThroughTheOtherNodeIsNotPushedWhatIsCommittedAfter() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "members_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: name), "--rate-limit", "1000000"]
        let a = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        let b = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        defer { _ = a.terminate(); _ = b.terminate() }

        // ann sends and cat reads through node 1; ben and dan each have a device on node 1 and
        // leave through their other device, on node 2.
        let users = try TestUsers.register(["ann", "ben", "cat", "dan"], port: a.port, capabilities: [.zlib, .messageChanges])
        let (ann, ben, cat, dan) = (users[0], users[1], users[2], users[3])
        let group: Conversation = try ann.request(GroupCreate(name: "crew", usernames: ["ben", "cat", "dan"]))
        let g = group.conversationID
        let benThere = try loggedIn("ben", port: b.port), danThere = try loggedIn("dan", port: b.port)
        // Node 1 pushes to ben and dan: its cached audience of the group holds them.
        let before = try ann.sendText("before", in: g)
        for (who, client) in [("ben", ben), ("dan", dan), ("cat", cat)] {
            XCTAssertEqual(try client.push(ChatMessage.self, where: { $0.conversationID == g }).text, "before", who)
        }

        // From here node 1's reader reads nothing new: the log is read only below the oldest
        // running transaction, and this one stays open.
        let hold = try ReaderHold(cluster, database: name)
        defer { hold.release() }

        // ben leaves through node 2; ann's next message through node 1 reaches cat, not ben.
        let _: OK = try benThere.request(GroupLeave(conversationID: g))
        XCTAssertEqual(try ann.sendText("after ben left", in: g).seq, before.seq + 1)
        XCTAssertEqual(try cat.push(ChatMessage.self, where: { $0.conversationID == g }).text, "after ben left")
        XCTAssertTrue(try hold.pendingEvents(), "node 1 could not have read the leave from the log")
        // A round trip on ben's connection: a push written before its answer is read before it.
        let _: Conversations = try ben.request(ConversationsList())
        XCTAssertNil(try? ben.push(ChatMessage.self, timeout: 0, where: { $0.conversationID == g }),
                     "ben left before the message was committed: his device on node 1 is not pushed it")

        // The same for a change: dan leaves through node 2, ann reacts through node 1.
        let _: OK = try danThere.request(GroupLeave(conversationID: g))
        let _: SendAck = try ann.request(ChangeRequest(conversationID: g, clientID: TestClient.newClientID(),
                                                       targetSeq: before.seq, action: .react, emoji: "👍"))
        XCTAssertEqual(try cat.push(MessageChange.self, where: { $0.conversationID == g }).emoji, "👍")
        let _: Conversations = try dan.request(ConversationsList())
        XCTAssertNil(try? dan.push(MessageChange.self, timeout: 0, where: { $0.conversationID == g }),
                     "dan left before the reaction was committed: his device on node 1 is not pushed it")

        // Once the reader goes on, nothing of it reaches them late either, and cat was pushed each once.
        hold.release()
        try ann.sendText("later", in: g)
        XCTAssertEqual(try cat.push(ChatMessage.self, where: { $0.conversationID == g }).text, "later")
        let _: Conversations = try ben.request(ConversationsList())
        let _: Conversations = try dan.request(ConversationsList())
        XCTAssertNil(try? ben.push(ChatMessage.self, timeout: 0.5, where: { $0.conversationID == g }))
        XCTAssertNil(try? dan.push(MessageChange.self, timeout: 0, where: { $0.conversationID == g }))
    }

}

/// A transaction left open with a transaction id, so that every node's reader of the event log
/// stops below it (as a long transaction of any client of the database would hold them):
/// `psql` sleeping inside it, ended by terminating its backend. `holding`: what it does first
/// (by default only takes an id; a row lock holds back the writers that need that row too).
final class ReaderHold {
    private static let application = "messageai-test-hold"
    private let cluster: TestCluster
    private let database: String
    private let process = Process()
    private var released = false

    init(_ cluster: TestCluster, database: String, holding statement: String = "SELECT pg_current_xact_id()") throws {
        self.cluster = cluster
        self.database = database
        let bin = try XCTUnwrap(TestCluster.binaries())
        process.executableURL = URL(fileURLWithPath: bin + "/psql")
        process.arguments = ["-h", cluster.directory, "-p", "\(cluster.port)", "-U", "postgres", "-d", database, "-X", "-q",
                             "-c", "\(statement); SELECT pg_sleep(300)"]
        process.environment = ["PGAPPNAME": Self.application]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while try cluster.psql("""
            SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(Self.application)' AND backend_xid IS NOT NULL
            """, database: database) != "1" {
            guard deadline.timeIntervalSinceNow > 0 else { throw ClusterError("the holding transaction did not start", log: "") }
            usleep(20_000)
        }
    }

    /// Whether the log holds events that every reader is kept from now (as the reader asks:
    /// at or above the oldest running transaction, which is this one or older).
    func pendingEvents() throws -> Bool {
        try cluster.psql("SELECT count(*) > 0 FROM events WHERE xid >= pg_snapshot_xmin(pg_current_snapshot())",
                         database: database) == "t"
    }

    func release() {
        guard !released else { return }
        released = true
        _ = try? cluster.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(Self.application)'",
                              database: database)
        process.waitUntilExit()
    }
}
