import Foundation
import MessageAIProtocol
import XCTest

/// Scenarios that run the same way against the in-process server and the real executable
/// (the body only needs a port and two logged-in clients).
enum Scenario {
    /// bob goes away, alice writes, bob comes back with a new connection and syncs:
    /// he gets exactly what he lacks, once, then live messages again.
    static func offlineRecipientCatchesUpBySync(port: Int, alice: TestClient, bob: TestClient) throws {
        let dm = try alice.openDM(with: "bob")
        _ = try alice.sendText("before", in: dm.conversationID)
        let bobToken = bob.token
        bob.close()
        for i in 1...5 { _ = try alice.sendText("while away \(i)", in: dm.conversationID) }

        let back = try TestClient(port: port)
        try back.hello()
        let _: SessionGranted = try back.request(Resume(token: bobToken))
        let (batches, done) = try back.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: 1)])
        let messages = batches.flatMap(\.messages)
        XCTAssertEqual(messages.map(\.seq), [2, 3, 4, 5, 6])
        XCTAssertEqual(messages.last?.text, "while away 5")
        XCTAssertEqual(done.messageCount, 5)
        XCTAssertEqual(batches.flatMap(\.conversations).map(\.conversationID), [dm.conversationID])
        XCTAssertTrue(batches.flatMap(\.receipts).contains { $0.username == "alice" })

        // A fresh device (no positions) gets everything; a caught-up one gets nothing.
        XCTAssertEqual(try back.sync().batches.flatMap(\.messages).count, 6)
        XCTAssertEqual(try back.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: 6)]).batches.flatMap(\.messages).count, 0)
        // After the sync, new messages arrive live.
        _ = try alice.sendText("live", in: dm.conversationID)
        XCTAssertEqual(try back.push(ChatMessage.self).seq, 7)
    }
}
