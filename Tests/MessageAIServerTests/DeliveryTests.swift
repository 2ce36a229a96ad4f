import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// The harder delivery cases: syncs racing live traffic, slow readers, rate limits, paging.
final class DeliveryTests: XCTestCase {
    var server: TestServer!
    var alice: TestClient!, bob: TestClient!

    func start(_ configure: (inout ServerConfiguration) -> Void = { $0.rateLimit = 100_000 }) throws {
        server = try TestServer(configure)
        let users = try TestUsers.register(["alice", "bob"], port: server.port)
        (alice, bob) = (users[0], users[1])
    }
    override func tearDown() { server?.stop() }

    /// Pipelines `count` SENDs and waits for all their acks.
    @discardableResult
    func burst(_ client: TestClient, _ count: Int, in conversation: UInt64, prefix: String) throws -> [SendAck] {
        var acks: [SendAck] = []
        for chunk in stride(from: 0, to: count, by: 200) {
            let ids = (chunk..<min(chunk + 200, count)).map {
                client.send(Send(conversationID: conversation, clientID: TestClient.newClientID(), text: "\(prefix) \($0)"))
            }
            acks += try ids.map { try client.answer($0, as: SendAck.self) }
        }
        return acks
    }

    func testSyncRacingLiveMessagesHasNoGapAndNoDuplicate() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        let token = bob.token
        bob.close()
        try burst(alice, 1_200, in: dm.conversationID, prefix: "old")

        let back = try server.client()
        let _: SessionGranted = try back.request(Resume(token: token))
        // Live messages start before the sync request and continue while it streams.
        let liveIDs = (0..<100).map { alice.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "new \($0)")) }
        let (batches, _) = try back.sync()
        XCTAssertGreaterThanOrEqual(batches.count, 3, "1,200+ messages come in several batches")
        for id in liveIDs { let _: SendAck = try alice.answer(id) }
        var seqs = batches.flatMap(\.messages).map(\.seq)
        let _: Pong = try back.request(Ping()) // everything pushed before this PONG is in the inbox now
        seqs += back.inbox.filter { $0.type == .message }.map { try! $0.decode(ChatMessage.self).seq }
        XCTAssertEqual(seqs.count, Set(seqs).count, "no duplicate")
        XCTAssertEqual(Set(seqs), Set(1...1_300), "no gap")
        XCTAssertEqual(seqs, seqs.sorted(), "in order on this connection")
    }

    func testCompressedSyncBatchesWhenNegotiated() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        try burst(alice, 50, in: dm.conversationID, prefix: "compress me please, compress me please")
        let z = try TestUsers.secondSession(of: bob, port: server.port)
        let id = z.send(SyncRequest(positions: []))
        var compressed = 0
        var count = 0
        while true {
            let f = try z.wait(for: "sync") { $0.requestID == id }
            if f.type == .syncDone { break }
            if f.flags.contains(.compressed) { compressed += 1 }
            count += try f.decode(SyncBatch.self).messages.count
        }
        XCTAssertEqual(count, 50)
        XCTAssertGreaterThan(compressed, 0)
        let plain = try server.client(capabilities: [])
        let _: SessionGranted = try plain.request(Resume(token: bob.token))
        let pid = plain.send(SyncRequest(positions: []))
        let f = try plain.wait(for: "sync") { $0.requestID == pid && $0.type == .syncBatch }
        XCTAssertFalse(f.flags.contains(.compressed))
    }

    func testClientThatNeverReadsIsDisconnectedAndOthersAreFine() throws {
        try start { $0.rateLimit = 100_000; $0.maxOutputBytes = 512 * 1024 }
        let carol = try TestUsers.register(["carol"], port: server.port)[0]
        let group: Conversation = try alice.request(GroupCreate(name: "firehose", usernames: ["bob", "carol"]))
        // carol stops reading: her pushes pile up in the server until it cuts her off.
        let big = String(repeating: "x", count: 9_000)
        var sent = 0
        var bobSeqs: [UInt64] = []
        let carolGone = try waitUntil(timeout: 60) {
            try burst(alice, 50, in: group.conversationID, prefix: big)
            sent += 50
            // bob reads as a live client does.
            for _ in 0..<50 { bobSeqs.append(try bob.push(ChatMessage.self).seq) }
            return server.server.connectionCount == 2 || sent >= 2_000
        }
        XCTAssertTrue(carolGone, "the non-reading client was disconnected")
        XCTAssertEqual(bobSeqs, Array(1...UInt64(sent)), "the reading member got every message, in order")
        _ = try alice.sendText("still here", in: group.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self).text, "still here")
        _ = carol
    }

    func testRateLimitRefusesWithRetryAfterAndStoresNothing() throws {
        try start { $0.rateLimit = 5; $0.rateWindowSeconds = 60 }
        let dm = try alice.openDM(with: "bob")
        try burst(alice, 5, in: dm.conversationID, prefix: "ok")
        let e = try alice.requestError(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "too many"))
        XCTAssertEqual(e.errorCode, .rateLimited)
        XCTAssertGreaterThan(e.retryAfter, 0)
        XCTAssertLessThanOrEqual(e.retryAfter, 12_000)
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.count, 5)
        // Per user: bob still has his own budget.
        _ = try bob.sendText("bob's turn", in: dm.conversationID)
    }

    func testHistoryPagesBackwardAndConversationListAndSearch() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        try burst(alice, 120, in: dm.conversationID, prefix: "note")
        let _: Sessions = try bob.request(SessionsList())
        let first: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(first.messages.map(\.seq), Array(71...120))
        XCTAssertTrue(first.hasMore)
        let second: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID, beforeSeq: 71))
        XCTAssertEqual(second.messages.map(\.seq), Array(21...70))
        let last: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID, beforeSeq: 21))
        XCTAssertEqual(last.messages.map(\.seq), Array(1...20))
        XCTAssertFalse(last.hasMore)

        let carol = try TestUsers.register(["carol"], port: server.port)[0]
        let group: Conversation = try carol.request(GroupCreate(name: "later", usernames: ["alice", "bob"]))
        _ = try carol.sendText("unicorn sighting", in: group.conversationID)
        let list: Conversations = try bob.request(ConversationsList())
        XCTAssertEqual(list.conversations.map(\.conversationID), [group.conversationID, dm.conversationID], "most recent first")
        XCTAssertEqual(list.conversations[1].unread, 120)
        XCTAssertEqual(list.conversations[0].lastMessage?.text, "unicorn sighting")

        let found: SearchResults = try bob.request(SearchRequest(query: "unicorn"))
        XCTAssertEqual(found.messages.map(\.text), ["unicorn sighting"])
        let notes: SearchResults = try bob.request(SearchRequest(query: "note", conversationID: dm.conversationID, limit: 10))
        XCTAssertEqual(notes.messages.count, 10)
        XCTAssertTrue(notes.hasMore)
        XCTAssertEqual(notes.messages.map(\.seq), Array((111...120).reversed()), "newest first")
        let eve = try TestUsers.register(["eve"], port: server.port)[0]
        let nothing: SearchResults = try eve.request(SearchRequest(query: "unicorn"))
        XCTAssertTrue(nothing.messages.isEmpty, "search covers only the user's conversations")
    }
}
