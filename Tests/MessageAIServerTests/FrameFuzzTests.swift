import Foundation
import MessageAILoad
import MessageAIProtocol
import XCTest

/// Issue 23: one ASSIST_SUMMARY with to_seq 2^64-1 from any logged-in user ended the server
/// (an overflow trap). Every frame type a client may send is sent by a logged-in client with
/// its integer fields at boundary values and its strings at boundary lengths, to a real server
/// process; each frame must be answered, and a second client must still be served at the end.
/// MESSAGEAI_FUZZ_COUNT sets the random rounds after the sweep (300 here; Scripts/asan.sh runs
/// many more), MESSAGEAI_FUZZ_SECONDS bounds them in time; MESSAGEAI_FUZZ_SEED replays another
/// sequence. The sweep takes about 30 s, most
/// of it password hashing (LOGOUT's re-logins, PASSWORD_CHANGE's checks).
final class ServerFrameFuzzTests: XCTestCase {
    func testTheOverflowFrameIsRefusedWithItsField() throws {
        let dir = try ServerTestDirectory()
        let server = try ChildServer(dataDir: dir.path)
        // ChildServer's stderr reader holds it until the process ends: stop it by hand.
        defer { _ = server.terminate() }
        let session = try FuzzSession(port: server.port, name: "crash")
        let answer = try session.exchange(AssistSummary.frameType,
                                          AssistSummary(conversationID: session.world.dm, toSeq: .max).payloadBytes)
        let error = try XCTUnwrap(answer).decode(ErrorFrame.self)
        XCTAssertEqual(error.errorCode, .invalidArgument)
        XCTAssertEqual(error.field, "to_seq")
        // 2^63 and 2^64-2 went through before and answered nonsense; they are out of range too.
        for bad: UInt64 in [1 << 63, .max - 1] {
            let e = try XCTUnwrap(try session.exchange(AssistSummary.frameType,
                                                       AssistSummary(conversationID: session.world.dm, toSeq: bad).payloadBytes))
            XCTAssertEqual(try e.decode(ErrorFrame.self).errorCode, .invalidArgument)
        }
        let ok = try XCTUnwrap(try session.exchange(AssistSummary.frameType,
                                                    AssistSummary(conversationID: session.world.dm, toSeq: 1 << 63 - 1).payloadBytes))
        XCTAssertEqual(ok.type, .assistSummaryResult, "the largest allowed value is a valid request")
        // PROTOCOL.md, ASSIST_SUMMARY: a to_seq past the end reads as the newest; a from_seq past it is empty.
        let newest = try ok.decode(AssistSummaryResult.self)
        XCTAssertEqual([newest.fromSeq, newest.toSeq, newest.messageCount], [1, session.world.lastSeq, session.world.lastSeq])
        let past = try XCTUnwrap(try session.exchange(AssistSummary.frameType,
                                                      AssistSummary(conversationID: session.world.dm, fromSeq: 1 << 62).payloadBytes))
        XCTAssertEqual(try past.decode(AssistSummaryResult.self).messageCount, 0)
        XCTAssertTrue(server.process.isRunning, server.stderr)
    }

    func testEveryClientFrameWithBoundaryValues() throws {
        let dir = try ServerTestDirectory()
        let server = try ChildServer(dataDir: dir.path, arguments: ["--rate-limit", "1000000", "--register-limit", "0"])
        defer { _ = server.terminate() }
        let session = try FuzzSession(port: server.port, name: "fz")
        let clientTypes = Set(MessageRegistry.entries.filter { $0.sentBy != .server }.map { $0.type.frameType })
        XCTAssertEqual(Set(FuzzSamples.all(session.world).map { type(of: $0).frameType }), clientTypes,
                       "every frame type a client may send has a sample in FuzzSamples")
        let sampleCount = FuzzSamples.all(session.world).count
        var sent = 0
        for index in 0..<sampleCount {
            // Rebuilt each time: a re-login after LOGOUT gives new ids.
            let sample = FuzzSamples.all(session.world)[index]
            for payload in FrameMutator.boundaryVariants(of: sample.payloadBytes) {
                try session.exchange(type(of: sample).frameType, payload, server: server)
                sent += 1
            }
        }
        let env = ProcessInfo.processInfo.environment
        let limit = Int(env["MESSAGEAI_FUZZ_COUNT"] ?? "") ?? 300
        // A time bound for long runs (Scripts/asan.sh): under ASan one mutated LOGIN or
        // PASSWORD_CHANGE costs seconds of hashing, so a count alone cannot say how long it takes.
        let stopAt = Double(env["MESSAGEAI_FUZZ_SECONDS"] ?? "").map { Date().addingTimeInterval($0) }
        var rng = SplitMix64(seed: UInt64(env["MESSAGEAI_FUZZ_SEED"] ?? "") ?? 0xF0_22)
        var rounds = 0
        while rounds < limit, stopAt.map({ Date() < $0 }) ?? true {
            rounds += 1
            let samples = FuzzSamples.all(session.world)
            let sample = samples[Int(rng.next() % UInt64(samples.count))]
            try session.exchange(type(of: sample).frameType, FrameMutator.randomVariant(of: sample.payloadBytes, &rng), server: server)
        }
        XCTAssertTrue(server.process.isRunning, "the server stopped: \(server.stderr.suffix(2000))")
        // Someone else is still served: a new pair of users exchange a message.
        let other = try FuzzSession(port: server.port, name: "after")
        let peer = try TestClient(port: server.port)
        try peer.hello()
        _ = try FuzzSession.login(peer, other.world.peer)
        let ack: SendAck = try other.client.request(Send(conversationID: other.world.dm, clientID: TestClient.newClientID(), text: "still here?"))
        let got = try peer.push(ChatMessage.self) { $0.seq == ack.seq }
        XCTAssertEqual(got.text, "still here?")
        print("fuzz: \(sent) boundary frames and \(rounds) random frames over \(clientTypes.count) frame types, "
              + "\(session.relogins) re-logins, every frame answered")
        XCTAssertEqual(session.internalErrors, [], "internal_error answers")
    }
}
