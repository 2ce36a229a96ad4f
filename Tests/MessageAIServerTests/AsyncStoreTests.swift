import CSQLite
import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The asynchronous store interface meets the hub (issue 25 stage B): SQLite answers inline on
/// the hub with no hop, and handlers that really await (a store with network-like latency)
/// keep each connection's answers in request order and the pushes in sequence order.
final class AsyncStoreTests: XCTestCase {
    /// Every SQLite statement that SEND, MARK, READERS, HISTORY, SEARCH and SYNC run through the
    /// asynchronous interface executes on the hub queue, and none of them cost the hub's
    /// executor a job: the handler and the store ran inline, in the read event's own turn.
    func testSQLiteAnswersInlineOnTheHubThroughTheAsyncInterface() throws {
        let (server, jobs, probe) = try exerciseConvertedHandlers(storeLatencyMillis: 0)
        defer { server.stop() }
        XCTAssertGreaterThan(probe.counts.onHub, 20, "the statements of the requests were seen")
        XCTAssertEqual(probe.counts.offHub, 0, "a statement ran off the hub queue")
        XCTAssertEqual(jobs, 0, "awaiting SQLite enqueued jobs on the hub executor: a hop per call")
    }

    /// The same requests on a store that suspends: the statements still run on the hub (the
    /// handlers resume there), and now the executor does get jobs, so the count above means
    /// something.
    func testAStoreThatSuspendsResumesTheHandlersOnTheHub() throws {
        let (server, jobs, probe) = try exerciseConvertedHandlers(storeLatencyMillis: 2)
        defer { server.stop() }
        XCTAssertGreaterThan(probe.counts.onHub, 20)
        XCTAssertEqual(probe.counts.offHub, 0, "a handler resumed off the hub queue")
        XCTAssertGreaterThan(jobs, 20, "each awaited call resumed through the hub executor")
    }

    /// Runs the converted handlers once with a probe on SQLite's statements; returns the hub
    /// executor's jobs counted meanwhile.
    private func exerciseConvertedHandlers(storeLatencyMillis: UInt64) throws -> (TestServer, Int, StatementProbe) {
        let server = try TestServer { $0.storeLatencyMillis = storeLatencyMillis }
        let clients = try TestUsers.register(["alice", "bob"], port: server.port)
        let (alice, bob) = (clients[0], clients[1])
        let dm = try alice.openDM(with: "bob")
        let probe = StatementProbe()
        let hub = server.server.queue
        hub.sync {
            hub.setSpecific(key: StatementProbe.hubKey, value: true)
            sqlite3_trace_v2(server.store.db.handle, UInt32(SQLITE_TRACE_STMT), StatementProbe.callback,
                             Unmanaged.passUnretained(probe).toOpaque())
        }
        let jobsBefore = server.server.hub.jobsEnqueued
        for i in 1...3 { try alice.sendText("inline \(i)", in: dm.conversationID) }
        _ = try bob.push(ChatMessage.self) { $0.seq == 3 }
        let _: OK = try bob.request(Mark(conversationID: dm.conversationID, deliveredSeq: 3, readSeq: 3))
        let readers: ReadersResult = try alice.request(ReadersRequest(conversationID: dm.conversationID, seq: 2))
        XCTAssertEqual(readers.deliveredTo.map(\.username), ["bob"], "bob holds a message request: delivered, not read")
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["inline 1", "inline 2", "inline 3"])
        let found: SearchResults = try bob.request(SearchRequest(query: "inline"))
        XCTAssertEqual(found.messages.count, 3)
        XCTAssertEqual(try bob.sync().batches.flatMap(\.messages).count, 3)
        let jobs = server.server.hub.jobsEnqueued - jobsBefore
        hub.sync { _ = sqlite3_trace_v2(server.store.db.handle, 0, nil, nil) }
        return (server, jobs, probe)
    }

    /// A real server process whose store waits 20 ms per call: one connection pipelines SENDs
    /// between other requests in one write, and a reaction to the first of them. Every non-SEND
    /// answer comes in request order, the acks in request order with rising seqs (the reaction
    /// waited for its message's commit), and the other member gets the messages gap-free in seq
    /// order. The time taken shows that the handlers did await, one after another.
    func testPipelinedRequestsKeepTheirOrderWhileTheHandlersAwait() throws {
        let dir = try ServerTestDirectory()
        let latency = 20
        let child = try ChildServer(dataDir: dir.path, arguments: ["--rate-limit", "100000"],
                                    environment: ["MESSAGEAI_STORE_LATENCY_MS": String(latency)])
        defer { _ = child.terminate() }
        let clients = try TestUsers.register(["alice", "bob"], port: child.port, capabilities: [.zlib, .messageChanges])
        let (alice, bob) = (clients[0], clients[1])
        let dm = try alice.openDM(with: "bob")
        try alice.sendText("first", in: dm.conversationID)
        _ = try bob.push(ChatMessage.self)

        let requests: [(UInt32, any WireMessage)] = [
            (1000, HistoryRequest(conversationID: dm.conversationID)),
            (1001, Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "p1")),
            (1002, ChangeRequest(conversationID: dm.conversationID, clientID: TestClient.newClientID(), targetSeq: 2,
                                 action: .react, emoji: "👍")),
            (1003, Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "p2")),
            (1004, ReadersRequest(conversationID: dm.conversationID, seq: 1)),
            (1005, Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "p3")),
            (1006, SearchRequest(query: "first")),
            (1007, ConversationsList()),
            (1008, Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "p4")),
            (1009, HistoryRequest(conversationID: dm.conversationID)),
            (1010, Mark(conversationID: dm.conversationID, deliveredSeq: 1, readSeq: 1)),
        ]
        let started = Date()
        alice.sendRaw(requests.flatMap { id, m in m.frame(requestID: id).encoded() })
        var answers: [Frame] = []
        while answers.count < requests.count {
            // A CHANGE behind a SEND once never answered here (a lost wake-up in
            // `commitQueuedSends`, under load); the answers so far say where a hang stops.
            let got = answers.map(\.requestID)
            answers.append(try alice.wait(for: "answers to the pipelined requests (answered so far: \(got))", timeout: 30) {
                (1000...1010).contains($0.requestID)
            })
        }
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertEqual(answers.filter { $0.type == .error }.count, 0, "\(answers.map(\.type))")
        let sends: Set<UInt32> = [1001, 1003, 1005, 1008]
        let others = answers.map(\.requestID).filter { !sends.contains($0) }
        XCTAssertEqual(others, [1000, 1002, 1004, 1006, 1007, 1009, 1010], "answers in request order")
        let reaction = try XCTUnwrap(answers.first { $0.requestID == 1002 }).decode(SendAck.self)
        XCTAssertEqual(reaction.seq, 3, "the reaction to p1 (seq 2) came after p1's commit")
        let acks = try answers.filter { sends.contains($0.requestID) }.map { ($0.requestID, try $0.decode(SendAck.self).seq) }
        XCTAssertEqual(acks.map(\.0), [1001, 1003, 1005, 1008], "acks in request order")
        XCTAssertEqual(acks.map(\.1), [2, 4, 5, 6], "seqs in request order")
        // (A HISTORY pipelined behind a SEND may answer before that SEND's commit, as on 0.4:
        // SEND is answered by its commit. Once acknowledged, every message is there.)
        let page: HistoryPage = try alice.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.map(\.text), ["first", "p1", "p2", "p3", "p4"])
        var pushed: [ChatMessage] = []
        while pushed.count < 4 { pushed.append(try bob.push(ChatMessage.self)) }
        XCTAssertEqual(pushed.map(\.seq), [2, 4, 5, 6], "pushes in seq order, once each")
        XCTAssertEqual(try bob.push(MessageChange.self).seq, 3)
        XCTAssertEqual(pushed.map(\.text), ["p1", "p2", "p3", "p4"])
        // At least one awaited store call per request, run one after another: eleven latencies.
        XCTAssertGreaterThanOrEqual(elapsed, Double(11 * latency) / 1_000, "the handlers did not await the store")
    }

    /// The offline catch-up scenario (SYNC's lazy reads, live pushes held until SYNC_DONE) on a
    /// real server process whose store suspends at every call.
    func testSyncCatchUpWhileTheStoreAwaits() throws {
        let dir = try ServerTestDirectory()
        let child = try ChildServer(dataDir: dir.path, environment: ["MESSAGEAI_STORE_LATENCY_MS": "5"])
        defer { _ = child.terminate() }
        let clients = try TestUsers.register(["alice", "bob"], port: child.port)
        try Scenario.offlineRecipientCatchesUpBySync(port: child.port, alice: clients[0], bob: clients[1])
    }
}

/// Counts the SQLite statements started on the hub queue and elsewhere (`sqlite3_trace_v2`).
private final class StatementProbe: @unchecked Sendable {
    static let hubKey = DispatchSpecificKey<Bool>()
    private let lock = NSLock()
    private var onHub = 0
    private var offHub = 0

    var counts: (onHub: Int, offHub: Int) { lock.lock(); defer { lock.unlock() }; return (onHub, offHub) }

    func record(onHub hub: Bool) {
        lock.lock(); defer { lock.unlock() }
        if hub { onHub += 1 } else { offHub += 1 }
    }

    static let callback: @convention(c) (UInt32, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Int32 = {
        _, context, _, _ in
        guard let context else { return 0 }
        Unmanaged<StatementProbe>.fromOpaque(context).takeUnretainedValue()
            .record(onHub: DispatchQueue.getSpecific(key: StatementProbe.hubKey) == true)
        return 0
    }
}
