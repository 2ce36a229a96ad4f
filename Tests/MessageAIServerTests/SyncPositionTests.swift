import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// SYNC answers from the positions the client gives, whatever its connection saw before.
final class SyncPositionTests: TwoUserTestCase {
    func testSyncFromZeroHoldsWhatTheConnectionSawLiveOrSent() throws {
        let dm = try alice.openDM(with: "bob")
        for text in ["café ☕️", "deploy friday", "👩🏽‍💻 done"] { _ = try alice.sendText(text, in: dm.conversationID) }
        for seq in 1...3 { XCTAssertEqual(try bob.push(ChatMessage.self).seq, UInt64(seq)) }

        // The receiver, on the connection that got the pushes: unlisted, and listed at 0.
        XCTAssertEqual(try bob.sync().batches.flatMap(\.messages).map(\.seq), [1, 2, 3])
        XCTAssertEqual(try bob.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: 0)]).batches.flatMap(\.messages).map(\.text),
                       ["café ☕️", "deploy friday", "👩🏽‍💻 done"])
        // The sender, on the connection that sent them (it only had SEND_ACKs).
        let (batches, done) = try alice.sync()
        XCTAssertEqual(batches.flatMap(\.messages).map(\.seq), [1, 2, 3])
        XCTAssertEqual(done.messageCount, 3)
        XCTAssertEqual(try alice.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: 2)]).batches.flatMap(\.messages).map(\.seq), [3])
    }

    /// After live pushes, a sync from 0 racing more live messages: the sync plus what is pushed
    /// after the SYNC request hold every message exactly once.
    func testResyncOfALiveConnectionRacingNewMessagesHasNoGapAndNoDuplicate() throws {
        let dm = try alice.openDM(with: "bob")
        let token = bob.token
        bob.close()
        let live = try TestClient(port: server.port, receiveBuffer: 16 * 1024)
        try live.hello(capabilities: [])
        let _: SessionGranted = try live.request(Resume(token: token))
        let long = String(repeating: "old ", count: 1_000)
        for chunk in 0..<4 {
            let ids = (0..<200).map { alice.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "\(long) \(chunk) \($0)")) }
            for id in ids { let _: SendAck = try alice.answer(id) }
            for _ in 0..<200 { _ = try live.push(ChatMessage.self) } // read live, as a client does
        }
        XCTAssertTrue(live.inbox.isEmpty)
        let syncID = live.send(SyncRequest(positions: []))
        let ids = (0..<100).map { alice.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "new \($0)")) }
        for id in ids { let _: SendAck = try alice.answer(id) }
        var synced: [UInt64] = []
        while true {
            let f = try live.wait(for: "sync answer") { $0.requestID == syncID }
            if f.type == .syncDone { break }
            synced += try f.decode(SyncBatch.self).messages.map(\.seq)
        }
        let _: Pong = try live.request(Ping())
        let pushed = live.inbox.filter { $0.type == .message }.map { try! $0.decode(ChatMessage.self).seq }
        XCTAssertEqual(synced, synced.sorted())
        XCTAssertEqual(Array(synced.prefix(800)), Array(1...800), "the sync holds what was already seen live")
        let all = synced + pushed
        XCTAssertEqual(all.count, Set(all).count, "no duplicate")
        XCTAssertEqual(Set(all), Set(1...900), "no gap")
    }
}
