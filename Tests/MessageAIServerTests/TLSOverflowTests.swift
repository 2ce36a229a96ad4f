import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import MessageAITLS
import XCTest

/// Issue 23: over TLS a client that stopped reading got whole MESSAGEs and then EOF, never the
/// ERROR output_overflow the spec promises. OpenSSL had a record of the dropped frames waiting
/// for room; the shorter retry failed and the connection ended on the error.
final class TLSOverflowTests: XCTestCase {
    func testReaderThatStoppedGetsOutputOverflowOverTLS() throws {
        let directory = try ServerTestDirectory()
        let files = TLSFiles(certificatePath: directory.path + "/c.pem", keyPath: directory.path + "/c.key")
        _ = try SelfSignedCertificate.generate(hosts: ["127.0.0.1"], certificatePath: files.certificatePath, keyPath: files.keyPath)
        let server = try TestServer { $0.tls = files; $0.rateLimit = 100_000; $0.maxOutputBytes = 512 * 1024 }
        defer { server.stop() }
        let alice = try TLSTestClient(port: server.port)
        let carol = try TLSTestClient(port: server.port, receiveBuffer: 16 * 1024)
        for (c, name) in [(alice, "alice"), (carol, "carol")] {
            XCTAssertEqual(try c.hello().type, .welcome)
            let granted = try c.request(Register(email: "\(name)@example.org", username: name, password: TestUsers.password,
                                                 displayName: name, device: "t"))
            XCTAssertEqual(granted.type, .session)
        }
        let dm = try alice.request(DMOpen(username: "carol")).decode(Conversation.self)
        func carolCutOff() -> Bool {
            server.server.queue.sync { server.server.peers.values.contains { $0.user?.username == "carol" && $0.connection.isClosing } }
        }
        // carol reads nothing; alice writes 9 KB messages until the server gives up on carol.
        let big = String(repeating: "é", count: 4_500)
        var sent = 0
        while !carolCutOff() && sent < 2_000 {
            let frames = (0..<20).map {
                Send(conversationID: dm.conversationID, clientID: TestClient.newClientID(), text: "\(big) \(sent + $0)")
                    .frame(requestID: alice.newRequestID())
            }
            let acks = try alice.burst(frames)
            XCTAssertTrue(acks.allSatisfy { $0.type == SendAck.frameType })
            sent += 20
        }
        XCTAssertTrue(carolCutOff(), "the server cut carol off after \(sent) messages")

        // carol reads again: whole MESSAGEs, then the ERROR, then the end.
        let frames = try carol.readUntilClosed()
        XCTAssertEqual(frames.last?.type, .error, "the last of \(frames.count) frames is the ERROR")
        let error = try frames.last.map { try $0.decode(ErrorFrame.self) }
        XCTAssertEqual(error?.errorCode, .outputOverflow)
        XCTAssertEqual(error?.closes, true)
        let seqs = frames.filter { $0.type == .message }.map { try! $0.decode(ChatMessage.self).seq }
        XCTAssertFalse(seqs.isEmpty)
        XCTAssertEqual(seqs, Array(1...UInt64(seqs.count)), "what arrived is whole and in order")
        XCTAssertEqual(try alice.request(Ping()).type, .pong, "alice is served throughout")
    }
}
