import Foundation
import MessageAIProtocol
import XCTest

/// Issue 26: the assistant's items are durable events, so a member connected to another node
/// than the one that stored or changed them is pushed them too (PostgreSQL v13, event kind 10).
/// Two `messageai-server` processes on one real PostgreSQL; node 2 extracts nothing itself
/// (`--assistant-extract off`), so whatever item reaches its connections came across the log.
final class ClusterItemsProcessTests: ClusterTestCase {
    func testAnItemExtractedAndMarkedDoneOnOneNodeIsPushedToAMemberOnTheOther() throws {
        let cluster = try XCTUnwrap(Self.cluster)
        let db = "items_\(UUID().uuidString.prefix(8).lowercased())"
        try cluster.createDatabase(db)
        let dirs = [try ServerTestDirectory(), try ServerTestDirectory()]
        let arguments = ["--database", cluster.url(database: db)]
        // Node 2 first: a node records at its start whether the database queues messages for
        // extraction, and node 1, extracting, must be the last to say (yes).
        let b = try ChildServer(dataDir: dirs[1].path, arguments: arguments + ["--assistant-extract", "off"])
        defer { _ = b.terminate() }
        let a = try ChildServer(dataDir: dirs[0].path, arguments: arguments)
        defer { _ = a.terminate() }
        let deadline = Date().addingTimeInterval(30)
        while try cluster.psql("SELECT enabled FROM extraction_queue", database: db) != "t" {
            guard Date() < deadline else { return XCTFail("node 1 did not turn queueing on") }
            usleep(50_000)
        }

        let caps: Capabilities = [.zlib, .assistant]
        let users = try TestUsers.register(["ann", "ben", "cat"], port: a.port, capabilities: caps)
        let (ann, benOnA) = (users[0], users[1])
        let group: Conversation = try ann.request(GroupCreate(name: "release", usernames: ["ben", "cat"]))
        // ben is on node 2 only: node 1 has no connection of his to push to.
        let ben = try TestUsers.secondSession(of: benOnA, port: b.port, capabilities: caps)
        benOnA.close()

        let sent = Date()
        let ack = try ann.sendText("Ben, could you tag the 2.4 hotfix branch by 5pm?", in: group.conversationID)
        let pushed = try ben.push(AssistItems.self, timeout: 30) { $0.items.contains { $0.seq == ack.seq } }
        print("item on node 2 \(Date().timeIntervalSince(sent)) s after the send on node 1")
        let item = try XCTUnwrap(pushed.items.first { $0.seq == ack.seq })
        XCTAssertEqual(item.kind, .action)
        XCTAssertEqual(item.who, "ben")
        XCTAssertEqual(item.from, "ann")
        XCTAssertTrue(item.text.contains("2.4"), item.text)
        XCTAssertFalse(item.done)

        // ann marks it done on node 1: ben's device on node 2 shows it done, by her.
        let marked = Date()
        let answer: AssistItems = try ann.request(AssistItemDone(itemID: item.itemID, done: true))
        XCTAssertEqual(answer.items.first?.done, true)
        let done = try ben.push(AssistItems.self, timeout: 30) { $0.items.contains { $0.itemID == item.itemID && $0.done } }
        print("done mark on node 2 \(Date().timeIntervalSince(marked)) s after node 1 answered")
        let shown = try XCTUnwrap(done.items.first { $0.itemID == item.itemID })
        XCTAssertEqual(shown.doneBy, "ann")
        XCTAssertEqual(shown.text, item.text)
        XCTAssertGreaterThanOrEqual(done.cursor, pushed.cursor, "the push's cursor moves on")

        // And what his next sync says agrees with what he was pushed.
        let listed: AssistItems = try ben.request(AssistItemsList(conversationID: group.conversationID, filter: .all))
        XCTAssertEqual(listed.items.map(\.itemID), [item.itemID])
        XCTAssertEqual(listed.items.first?.done, true)
    }
}
