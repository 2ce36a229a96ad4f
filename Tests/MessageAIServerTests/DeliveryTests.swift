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
        // ~5 MB: more than the socket buffers hold, so the sync stays in progress until bob reads.
        try burst(alice, 1_200, in: dm.conversationID, prefix: String(repeating: "old ", count: 1_000))

        let back = try TestClient(port: server.port, receiveBuffer: 16 * 1024)
        try back.hello(capabilities: [])
        let _: SessionGranted = try back.request(Resume(token: token))
        let syncID = back.send(SyncRequest(positions: []))
        // The sync has begun once its first batch arrives. (A message pushed live before that
        // is in the answer too, since SYNC answers from the positions alone; the client dedupes
        // by seq. The promise tested here is about pushes that race a running sync.)
        let first = try back.wait(for: "the first sync batch") { $0.requestID == syncID }
        XCTAssertEqual(first.type, .syncBatch)
        var synced = try first.decode(SyncBatch.self).messages.map(\.seq)
        var batches = 1
        // 100 live messages are committed (acked) while bob's sync is still streaming.
        try burst(alice, 100, in: dm.conversationID, prefix: "new")
        while true {
            let f = try back.wait(for: "sync answer") { $0.requestID == syncID }
            if f.type == .syncDone { break }
            synced += try f.decode(SyncBatch.self).messages.map(\.seq)
            batches += 1
        }
        XCTAssertGreaterThanOrEqual(batches, 3, "1,200+ messages come in several batches")
        let _: Pong = try back.request(Ping()) // everything pushed before this PONG is in the inbox now
        let pushed = back.inbox.filter { $0.type == .message }.map { try! $0.decode(ChatMessage.self).seq }
        let seqs = synced + pushed
        XCTAssertEqual(seqs.count, Set(seqs).count, "no duplicate")
        XCTAssertEqual(Set(seqs), Set(1...1_300), "no gap")
        XCTAssertEqual(synced, synced.sorted(), "the sync is in order")
        XCTAssertEqual(pushed, pushed.sorted(), "live pushes are in order")
    }

    func testLogoutDuringAnUnfinishedSyncEndsItCleanly() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        try burst(alice, 600, in: dm.conversationID, prefix: String(repeating: "old ", count: 1_000))
        let slow = try TestClient(port: server.port, receiveBuffer: 16 * 1024)
        try slow.hello(capabilities: [])
        let _: SessionGranted = try slow.request(Login(login: "bob", password: TestUsers.password), timeout: 30)
        slow.send(SyncRequest(positions: []))
        let logout = slow.send(Logout())
        let ok = try slow.wait(for: "logout answer") { $0.requestID == logout }
        XCTAssertEqual(ok.type, .ok)
        // The server is fine and the rest of bob's sessions are untouched.
        _ = try alice.sendText("after", in: dm.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self) { $0.text == "after" }.seq, 601)
        XCTAssertEqual(try slow.requestError(ContactsList()).errorCode, .notAuthenticated)
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
        // bob and carol send nothing: under ASan the test outran the 45 s idle timeout, which
        // closed bob and would close carol for the wrong reason. Only the output limit may here.
        try start { $0.rateLimit = 100_000; $0.maxOutputBytes = 512 * 1024; $0.idleTimeoutMillis = 600_000 }
        let carol = try TestUsers.register(["carol"], port: server.port, receiveBuffer: 16 * 1024)[0]
        let group: Conversation = try alice.request(GroupCreate(name: "firehose", usernames: ["bob", "carol"]))
        // carol stops reading: her pushes pile up in the server until it cuts her off.
        let big = String(repeating: "x", count: 9_000)
        var sent = 0
        var bobSeqs: [UInt64] = []
        // Rounds of 20 (180 KB): bob reads only between rounds, so a round must stay well under
        // the 512 KB output limit even when this process is slow (a sanitizer build cut bob
        // off with rounds of 50), while carol's unread pushes pass it within a few rounds.
        let carolGone = try waitUntil(timeout: 60) {
            try burst(alice, 20, in: group.conversationID, prefix: big)
            sent += 20
            // bob reads as a live client does.
            for _ in 0..<20 { bobSeqs.append(try bob.push(ChatMessage.self).seq) }
            return server.server.connectionCount == 2 || sent >= 2_000
        }
        XCTAssertTrue(carolGone, "the non-reading client was disconnected")
        XCTAssertEqual(bobSeqs, Array(1...UInt64(sent)), "the reading member got every message, in order")
        _ = try alice.sendText("still here", in: group.conversationID)
        XCTAssertEqual(try bob.push(ChatMessage.self).text, "still here")
        _ = carol
    }

    func testLongMessagesAreSplitToFitFrames() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        let long = "needle " + String(repeating: "ü🙂x", count: 3_000) // 9,007 scalars, ~21,000 bytes
        try burst(alice, 120, in: dm.conversationID, prefix: long)
        // 120 x 21 KB is 2.5 MB: more than one frame may carry. Pages and batches split it.
        var seqs: [UInt64] = []
        var before: UInt64 = 0
        var pages = 0
        repeat {
            let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID, beforeSeq: before, limit: 500))
            XCTAssertFalse(page.messages.isEmpty)
            XCTAssertTrue(page.messages.allSatisfy { $0.text.hasPrefix(long) })
            seqs = page.messages.map(\.seq) + seqs
            before = page.messages.first!.seq
            pages += 1
            if !page.hasMore { break }
        } while pages < 100
        XCTAssertEqual(seqs, Array(1...120))
        XCTAssertGreaterThan(pages, 1)
        let plain = try server.client(capabilities: [])
        let _: SessionGranted = try plain.request(Resume(token: bob.token))
        let synced = try plain.sync().batches.flatMap(\.messages)
        XCTAssertEqual(synced.map(\.seq), Array(1...120))
        let found: SearchResults = try plain.request(SearchRequest(query: "needle", limit: 100))
        XCTAssertTrue(found.hasMore)
        XCTAssertFalse(found.messages.isEmpty)
    }

    func testFullStorageRefusesWithStorageFullAndLosesNothing() throws {
        try start()
        let dm = try alice.openDM(with: "bob")
        _ = try alice.sendText("fits", in: dm.conversationID)
        // The database may not grow: the next commit fails as on a full disk.
        let pages = try server.server.queue.sync { try server.store.db.queryOne("PRAGMA page_count") { $0.int64(0) } ?? 0 }
        try server.server.queue.sync { try server.store.db.execute("PRAGMA max_page_count = \(pages)") }
        var clientID = TestClient.newClientID()
        let big = String(repeating: "z", count: 10_000)
        var refused: ErrorFrame?
        for _ in 0..<50 where refused == nil {
            clientID = TestClient.newClientID()
            let f = try alice.wait(for: "send answer") { [id = alice.send(Send(conversationID: dm.conversationID, clientID: clientID, text: big))] in $0.requestID == id }
            if f.type == .error { refused = try f.decode(ErrorFrame.self) }
        }
        XCTAssertEqual(refused?.errorCode, .storageFull)
        XCTAssertEqual(refused?.closes, false)
        // Room again: the same message (same client id) goes through once.
        try server.server.queue.sync { try server.store.db.execute("PRAGMA max_page_count = 1073741823") }
        let ack = try alice.sendText(big, in: dm.conversationID, clientID: clientID)
        let page: HistoryPage = try bob.request(HistoryRequest(conversationID: dm.conversationID))
        XCTAssertEqual(page.messages.filter { $0.clientID == clientID }.map(\.seq), [ack.seq])
        XCTAssertEqual(page.messages.first?.text, "fits")
        XCTAssertEqual(page.messages.last?.clientID, clientID, "the refused message was not stored until its resend")
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
