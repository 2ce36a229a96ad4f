import Foundation
import MessageAIProtocol
import XCTest

/// `messageai-server --database postgres://...` as a real process on a real PostgreSQL
/// (`TestCluster`, a throw-away cluster; skipped where PostgreSQL is not installed, failed
/// under CI): what two users notice, the start-up failures, and two servers on one database.
/// The restart of the database during a send load is in PostgresRestartTests.
final class PostgresProcessTests: ClusterTestCase {
    /// A new database on the cluster, and a server on it whose data directory holds only the
    /// blobs and the lock.
    private func server(database: String? = nil, dataDir: String, arguments: [String] = []) throws -> (ChildServer, String) {
        let cluster = try XCTUnwrap(Self.cluster)
        let name = database ?? "e2e_\(UUID().uuidString.prefix(8).lowercased())"
        if database == nil { try cluster.createDatabase(name) }
        let child = try ChildServer(dataDir: dataDir, arguments: ["--database", cluster.url(database: name)] + arguments)
        return (child, name)
    }

    func testTwoUsersSendReceiveSyncSearchAndDeleteOnPostgres() throws {
        let dir = try ServerTestDirectory()
        var (child, database) = try server(dataDir: dir.path)
        let users = try TestUsers.register(["alice", "bob"], port: child.port, capabilities: [.zlib, .messageChanges])
        let (alice, bob) = (users[0], users[1])
        let dm = try alice.openDM(with: "bob")
        let first = try alice.sendText("Café crème at nine?", in: dm.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self).text, "Café crème at nine?", "bob gets it live")
        let second = try bob.sendText("東京駅で会いましょう", in: dm.conversationID)
        XCTAssertEqual(try alice.push(ChatMessage.self).text, "東京駅で会いましょう")
        XCTAssertEqual([first.seq, second.seq], [1, 2])

        // Search: accents and case do not matter, the last word may be a prefix, CJK by its words.
        let byAccent: SearchResults = try bob.request(SearchRequest(query: "CAFE cre"))
        XCTAssertEqual(byAccent.messages.map(\.seq), [1])
        let byCJK: SearchResults = try alice.request(SearchRequest(query: "東京"))
        XCTAssertEqual(byCJK.messages.map(\.seq), [2])

        // Another device of bob's syncs from nothing.
        let phone = try TestUsers.secondSession(of: bob, port: child.port)
        let synced = try phone.sync()
        XCTAssertEqual(synced.batches.flatMap(\.messages).map(\.text), ["Café crème at nine?", "東京駅で会いましょう"])

        // Delete for everyone: bob is told, the text is gone from history and search.
        let _: SendAck = try alice.request(ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(),
                                                         targetSeq: 1, action: .delete))
        let change = try bob.push(MessageChange.self)
        XCTAssertEqual([change.targetSeq, change.action], [1, ChangeAction.delete.rawValue])
        let gone: SearchResults = try bob.request(SearchRequest(query: "cafe"))
        XCTAssertEqual(gone.messages.count, 0)

        // The conversation lives in PostgreSQL: a new server process on the same database has it.
        XCTAssertEqual(child.terminate(), 0)
        (child, database) = try server(database: database, dataDir: dir.path)
        let again = try TestUsers.secondSession(of: bob, port: child.port)
        let page: HistoryPage = try again.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.deleted), [true, false])
        XCTAssertEqual(page.messages.last?.text, "東京駅で会いましょう")
        XCTAssertFalse(page.messages[0].text.contains("Café"), "the deleted text is not served")
        XCTAssertEqual(child.terminate(), 0)
    }

    /// Nothing listens on the port: one line naming the cause, a non-zero exit, in seconds.
    func testUnreachableDatabaseAtStartIsOneLineAndAnExit() throws {
        let dir = try ServerTestDirectory()
        let port = try freePort()
        let started = Date()
        let (status, out) = try ChildServer.run(["--port", "0", "--data-dir", dir.path, "--plaintext", "--log-level", "warning",
                                                 "--database", "postgres://x@127.0.0.1:\(port)/db?sslmode=disable"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "no hang")
        XCTAssertNotEqual(status, 0)
        XCTAssertEqual(out.split(separator: "\n"), ["messageai-server: database unreachable at 127.0.0.1:\(port): connection refused"])
    }

    /// The database refuses the login (here: no such role): one line with PostgreSQL's words.
    func testRefusedLoginAtStartIsOneLineAndAnExit() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let dir = try ServerTestDirectory()
        let (status, out) = try ChildServer.run(["--port", "0", "--data-dir", dir.path, "--plaintext", "--log-level", "warning",
                                                 "--database", cluster.url(database: "postgres", user: "nobody")])
        XCTAssertNotEqual(status, 0)
        XCTAssertEqual(out.split(separator: "\n"),
                       ["messageai-server: database at 127.0.0.1:\(cluster.port) refused the login: role \"nobody\" does not exist"])
    }

    /// A password file others may read is refused before anything starts: one line naming the
    /// file and what to do, never the password.
    func testAPasswordFileOthersMayReadIsRefused() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let dir = try ServerTestDirectory()
        let file = dir.path + "/db-password"
        FileManager.default.createFile(atPath: file, contents: Data("hunter2-secret\n".utf8), attributes: [.posixPermissions: 0o644])
        let (status, out) = try ChildServer.run(["--port", "0", "--data-dir", dir.path + "/data", "--plaintext", "--log-level", "warning",
                                                 "--database", cluster.url(database: "postgres"), "--database-password-file", file])
        XCTAssertNotEqual(status, 0)
        XCTAssertEqual(out.split(separator: "\n").count, 1, out)
        XCTAssertTrue(out.contains("\(file) has mode 644") && out.contains("chmod 600"), out)
        XCTAssertFalse(out.contains("hunter2"), "the password is never printed")
    }

    /// Two server processes on one database, a sender on each pipelining into one group at full
    /// speed: the acks' seqs are 1...2N, each once, and the history holds every message once,
    /// each sender's in the order sent. The transactions alone decide (no cross-node delivery).
    func testTwoServersOnOneDatabaseGiveGapFreeSeqs() throws {
        let (dirA, dirB) = (try ServerTestDirectory(), try ServerTestDirectory())
        let limits = ["--rate-limit", "1000000"]
        let (a, database) = try server(dataDir: dirA.path, arguments: limits)
        let (b, _) = try server(database: database, dataDir: dirB.path, arguments: limits)
        defer { _ = a.terminate(); _ = b.terminate() }
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port)
        let group: Conversation = try users[0].request(GroupCreate(name: "race", usernames: ["ben", "cat"]))
        let ben = try TestClient(port: b.port)
        try ben.hello()
        let _: SessionGranted = try ben.request(Login(login: "ben", password: TestUsers.password))
        let perSender = 200  // 400 in all: one history page (500 at most)
        let senders = [(users[0], "ann"), (ben, "ben")]
        let acks = UnsafeSendableBox<[[UInt64]]>([[], []])
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let (client, name) = senders[i]
            acks.set(i, client.sendPipelined((0..<perSender).map { "\(name) \($0)" }, in: group.conversationID))
        }
        let all = acks.value.flatMap { $0 }
        XCTAssertEqual(all.count, 2 * perSender, "every send acknowledged")
        XCTAssertEqual(all.sorted(), Array(1...UInt64(2 * perSender)), "gap-free, duplicate-free")
        for seqs in acks.value { XCTAssertEqual(seqs, seqs.sorted(), "one sender's messages in the order sent") }
        let page: HistoryPage = try users[0].request(HistoryRequest(conversationID: group.conversationID, limit: 500))
        XCTAssertEqual(page.messages.count, 2 * perSender)
        for name in ["ann", "ben"] {
            let mine = page.messages.filter { $0.senderUsername == name }.map(\.text)
            XCTAssertEqual(mine, (0..<perSender).map { "\(name) \($0)" })
        }
    }
}

/// Results written by the threads of `concurrentPerform`, one slot each, read after it returns.
final class UnsafeSendableBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.lock(); defer { lock.unlock() }; return stored }
    func set<E>(_ index: Int, _ element: E) where T == [E] { lock.lock(); stored[index] = element; lock.unlock() }
}
