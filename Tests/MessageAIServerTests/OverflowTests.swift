import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// A client that stops reading is cut off with ERROR output_overflow, and gets that ERROR
/// when it reads again, after the frames it had started, never a bare EOF.
final class OverflowTests: XCTestCase {
    func testReaderThatStoppedGetsOutputOverflowBeforeTheEnd() throws {
        let server = try TestServer { $0.rateLimit = 100_000; $0.maxOutputBytes = 512 * 1024 }
        defer { server.stop() }
        let alice = try TestUsers.register(["alice"], port: server.port)[0]
        let carol = try TestUsers.register(["carol"], port: server.port, receiveBuffer: 16 * 1024)[0]
        let dm = try alice.openDM(with: "carol")
        let carolID = carol.user!.userID
        func carolCutOff() -> Bool {
            server.server.queue.sync { server.server.peers.values.contains { $0.userID == carolID && $0.connection.isClosing } }
        }
        // carol stops reading; alice writes until the server gives up on carol.
        let big = String(repeating: "é", count: 9_000)
        var sent = 0
        let cut = try waitUntil(timeout: 60) {
            let ids = (0..<20).map { alice.send(Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "\(big) \(sent + $0)")) }
            for id in ids { let _: SendAck = try alice.answer(id) }
            sent += 20
            return carolCutOff() || sent >= 2_000
        }
        XCTAssertTrue(cut, "the server cut carol off after \(sent) messages")

        // carol comes back 1.5 s later (the old code closed after 1 s and the ERROR was lost);
        // meanwhile the server serves alice as usual.
        let back = Date().addingTimeInterval(1.5)
        while Date() < back { let _: Pong = try alice.request(Ping()) }
        XCTAssertTrue(try carol.waitForClose(timeout: 30), "closed once the ERROR is out")
        let frames = carol.inbox
        XCTAssertEqual(frames.last?.type, .error, "the last frame is the ERROR, after \(frames.count) frames")
        let error = try frames.last.map { try $0.decode(ErrorFrame.self) }
        XCTAssertEqual(error?.errorCode, .outputOverflow)
        XCTAssertEqual(error?.closes, true)
        let seqs = frames.filter { $0.type == .message }.map { try! $0.decode(ChatMessage.self).seq }
        XCTAssertFalse(seqs.isEmpty)
        XCTAssertEqual(seqs, Array(1...UInt64(seqs.count)), "what arrived is whole and in order")
        XCTAssertLessThan(seqs.count, sent, "the rest waits for a SYNC")

        // Nothing is lost: a new connection syncs the rest.
        let again = try TestUsers.secondSession(of: carol, port: server.port)
        let synced = try again.sync([SyncPosition(conversationID: dm.conversationID, lastSeq: UInt64(seqs.count))]).batches.flatMap(\.messages)
        XCTAssertEqual(synced.map(\.seq), Array(UInt64(seqs.count + 1)...UInt64(sent)))
    }
}
