import Foundation
import MessageAIProtocol
import XCTest

/// PostgreSQL stopped and started again under a server sending at full speed (a cluster of
/// its own: the restart would cut every other test's connections). While the database is down
/// a SEND is answered 77 `database_unavailable`, never acknowledged; the sender keeps the
/// message and sends it again with the same client id after the server's hint, as the client's
/// outbox does (Client+Sending.swift); afterwards every acknowledged message is in the
/// conversation exactly once, in the order sent.
final class PostgresRestartTests: XCTestCase {
    func testDatabaseRestartDuringASendLoadLosesAndDoublesNothing() throws {
        let cluster = try TestCluster.start()
        defer { cluster.stop() }
        try cluster.createDatabase("restart")
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, arguments: ["--database", cluster.url(database: "restart"),
                                                                   "--rate-limit", "1000000"])
        defer { _ = child.terminate() }
        let users = try TestUsers.register(["ann", "ben"], port: child.port)
        let ann = users[0]
        let dm = try ann.openDM(with: "ben")
        let load = SendLoad(client: ann, conversation: dm.conversationID, count: 400)
        let sender = Thread { load.run() }
        sender.start()

        try waitUntil("100 sends acknowledged before the stop", timeout: 60) { load.acked >= 100 }
        let stopped = Date()
        cluster.pause()
        // Down long enough for the sender to be refused and to retry a few times.
        try waitUntil("three sends answered database_unavailable", timeout: 60) { load.unavailable >= 3 }
        try cluster.resume()
        let down = Date().timeIntervalSince(stopped)
        try waitUntil("the load finished after the restart", timeout: 120) { load.finished }

        print("figure: database down \(String(format: "%.1f", down)) s during the load: \(load.unavailable) SENDs answered database_unavailable, all resent")
        XCTAssertEqual(load.failures, [], "no other answer than an ack or database_unavailable")
        XCTAssertGreaterThanOrEqual(load.unavailable, 3)
        XCTAssertEqual(load.acked, 400, "every message acknowledged in the end")
        XCTAssertEqual(load.seqs, Array(1...400), "acked seqs in order, none twice, none skipped")
        var texts: [String] = []
        var before: UInt64 = 0
        while texts.count < 400 {
            let page: HistoryPage = try ann.request(HistoryRequest(conversationID: dm.conversationID, beforeSeq: before, limit: 500))
            guard let oldest = page.messages.first else { break }
            texts = page.messages.map(\.text) + texts
            before = oldest.seq
            if before == 1 { break }
        }
        XCTAssertEqual(texts, (0..<400).map { "load \($0)" }, "each acknowledged message once, in order")
    }

    private func waitUntil(_ what: String, timeout: TimeInterval, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw TestTimeout(what: what) }
            usleep(10_000)
        }
    }
}

/// One message in flight at a time, each sent again under the same client id until it is
/// acknowledged: the outbox's rule. Its counters are read from the test's thread.
private final class SendLoad: @unchecked Sendable {
    let client: TestClient
    let conversation: UInt64
    let count: Int
    private let lock = NSLock()
    private var state = (acked: 0, unavailable: 0, seqs: [UInt64](), failures: [String](), finished: false)

    init(client: TestClient, conversation: UInt64, count: Int) {
        self.client = client; self.conversation = conversation; self.count = count
    }

    var acked: Int { lock.withLock { state.acked } }
    var unavailable: Int { lock.withLock { state.unavailable } }
    var seqs: [UInt64] { lock.withLock { state.seqs } }
    var failures: [String] { lock.withLock { state.failures } }
    var finished: Bool { lock.withLock { state.finished } }

    func run() {
        defer { lock.withLock { state.finished = true } }
        for n in 0..<count {
            let clientID = TestClient.newClientID()
            var attempts = 0
            while true {
                attempts += 1
                guard attempts < 200 else { lock.withLock { state.failures.append("message \(n): no ack after 200 tries") }; return }
                let id = client.send(Send(conversationID: conversation, clientID: clientID, text: "load \(n)"))
                guard let frame = try? client.wait(for: "the answer to SEND", timeout: 30, { $0.requestID == id }) else {
                    lock.withLock { state.failures.append("message \(n): no answer") }
                    return
                }
                if frame.type == .sendAck, let ack = try? frame.decode(SendAck.self) {
                    lock.withLock { state.acked += 1; state.seqs.append(ack.seq) }
                    break
                }
                guard let error = try? frame.decode(ErrorFrame.self), error.errorCode == .databaseUnavailable else {
                    let code = (try? frame.decode(ErrorFrame.self)).map { "\($0.code) \($0.message)" } ?? "\(frame.type)"
                    lock.withLock { state.failures.append("message \(n): \(code)") }
                    return
                }
                lock.withLock { state.unavailable += 1 }
                // The server's hint, as the client's outbox waits (its backoff starts there).
                usleep(useconds_t(min(max(error.retryAfter, 100), 2_000)) * 1_000)
            }
        }
    }
}
