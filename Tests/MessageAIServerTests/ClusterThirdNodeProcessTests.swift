import Foundation
import MessageAIProtocol
import XCTest

/// Three `messageai-server` processes on one PostgreSQL database (issue 26): a message sent
/// through node 3 at the moment ben leaves through node 2 took its seq after the leave
/// committed, yet its event sorts before the leave's (the log is ordered by transaction id).
/// Node 1, where ben has another device, reads the message first and must not push it to him.
/// Real processes, real sockets, a real PostgreSQL (`TestCluster`).
final class ClusterThirdNodeProcessTests: ClusterTestCase {
    func testAMessageSentThroughAThirdNodeAsALeaveCommitsIsNotPushedToTheLeaver() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = "third_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(name)
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: name), "--rate-limit", "1000000"]
        let one = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        let two = try ChildServer(dataDir: dirs[1].path, arguments: arguments)
        let three = try ChildServer(dataDir: dirs[2].path, arguments: arguments)
        defer { _ = one.terminate(); _ = two.terminate(); _ = three.terminate() }

        // ben and cat read through node 1; ben leaves through node 2; ann sends through node 3.
        let users = try TestUsers.register(["ann", "ben", "cat"], port: one.port, capabilities: [.zlib, .messageChanges])
        let (annHere, ben, cat) = (users[0], users[1], users[2])
        let group: Conversation = try annHere.request(GroupCreate(name: "crew", usernames: ["ben", "cat"]))
        let g = group.conversationID
        let benThere = try loggedIn("ben", port: two.port), ann = try loggedIn("ann", port: three.port)
        // Node 1's cached audience of the group holds ben.
        let before = try annHere.sendText("before", in: g)
        for (who, client) in [("ben", ben), ("cat", cat)] {
            XCTAssertEqual(try client.push(ChatMessage.self, where: { $0.conversationID == g }).text, "before", who)
        }

        // The race, made deterministic with a lock on ann's row: her SEND's transaction takes
        // its id (it writes her client id), then waits for that row (the client id's foreign
        // key checks it) before it takes a seq. ben's leave takes a later id and commits; the
        // lock goes, and the SEND takes its seq under the leave's members version.
        let annID = try XCTUnwrap(ann.user?.userID)
        let hold = try ReaderHold(cluster, database: name, holding: "SELECT 1 FROM users WHERE id = \(annID) FOR UPDATE")
        defer { hold.release() }
        let sending = ann.send(Send(conversationID: g, clientID: TestClient.newClientID(), text: "as ben left"))
        try waitFor(cluster, name, """
            SELECT count(*) FROM pg_stat_activity WHERE datname = '\(name)' AND wait_event_type = 'Lock'
              AND backend_xid IS NOT NULL
            """)
        let _: OK = try benThere.request(GroupLeave(conversationID: g))
        hold.release()
        let sent: SendAck = try ann.answer(sending)
        XCTAssertEqual(sent.seq, before.seq + 1)
        XCTAssertEqual(try cluster.psql("""
            SELECT (SELECT xid FROM events WHERE kind = 1 AND conversation_id = \(g) AND seq = \(sent.seq))
                 < (SELECT max(xid) FROM events WHERE kind = 3 AND conversation_id = \(g))
            """, database: name), "t", "the race: the message is logged before the leave that committed first")

        XCTAssertEqual(try cat.push(ChatMessage.self, where: { $0.conversationID == g }).text, "as ben left")
        // A round trip on ben's connection: a push written before its answer is read before it.
        let _: Conversations = try ben.request(ConversationsList())
        XCTAssertNil(try? ben.push(ChatMessage.self, timeout: 0, where: { $0.conversationID == g }),
                     "ben left before the message took its seq: his device on node 1 is not pushed it")

        // Afterwards too, and cat was pushed each message once.
        try annHere.sendText("later", in: g)
        XCTAssertEqual(try cat.push(ChatMessage.self, where: { $0.conversationID == g }).text, "later")
        let _: Conversations = try ben.request(ConversationsList())
        XCTAssertNil(try? ben.push(ChatMessage.self, timeout: 0.5, where: { $0.conversationID == g }))
        XCTAssertNil(try? cat.push(ChatMessage.self, timeout: 0, where: { $0.conversationID == g }))
    }

    /// Until `count` (a `SELECT count(*)`) answers at least 1, with a deadline.
    private func waitFor(_ cluster: TestCluster, _ database: String, _ count: String) throws {
        let deadline = Date().addingTimeInterval(30)
        while try cluster.psql(count, database: database) == "0" {
            guard deadline.timeIntervalSinceNow > 0 else { throw ClusterError("never: \(count)", log: "") }
            usleep(20_000)
        }
    }
}
