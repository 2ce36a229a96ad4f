import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import XCTest

/// Handshake, framing errors and connection lifetime, against a real server on a real socket.
final class ConnectionTests: XCTestCase {
    var server: TestServer!

    override func setUpWithError() throws { server = try TestServer { $0.idleTimeoutMillis = 1_500 } }
    override func tearDown() { server.stop() }

    func testHandshakeNegotiatesVersionCapabilitiesAndLimits() throws {
        let c = try TestClient(port: server.port)
        let w: Welcome = try c.request(Hello(maxVersion: 7, minVersion: 1, capabilities: [.zlib], client: "test"))
        XCTAssertEqual(w.version, ProtocolVersion.current)
        XCTAssertEqual(w.capabilities, [.zlib])
        XCTAssertEqual(w.maxFrameLength, UInt64(Frame.defaultMaxLength))
        XCTAssertEqual(w.idleTimeout, 1_500)
        XCTAssertEqual(w.maxMessageLength, 10_000)
        let plain = try TestClient(port: server.port)
        XCTAssertEqual(try plain.hello(capabilities: []).capabilities, [])
    }

    func testVersionMismatchIsRefusedAndClosed() throws {
        let c = try TestClient(port: server.port)
        let e = try c.requestError(Hello(maxVersion: 9, minVersion: 5, capabilities: [], client: "future"))
        XCTAssertEqual(e.errorCode, .unsupportedVersion)
        XCTAssertTrue(e.closes)
        XCTAssertTrue(try c.waitForClose())
    }

    func testFirstFrameMustBeHello() throws {
        let c = try TestClient(port: server.port)
        let e = try c.requestError(Login(login: "x", password: "y"))
        XCTAssertEqual(e.errorCode, .handshakeRequired)
        XCTAssertTrue(try c.waitForClose())
    }

    func testPingIsAnsweredWithPongOfSameID() throws {
        let c = try server.client()
        let id = c.send(Ping())
        let f = try c.wait(for: "pong") { $0.requestID == id }
        XCTAssertEqual(f.type, .pong)
    }

    func testUnauthenticatedRequestIsRefusedAndConnectionStaysOpen() throws {
        let c = try server.client()
        XCTAssertEqual(try c.requestError(ContactsList()).errorCode, .notAuthenticated)
        XCTAssertEqual(try c.requestError(Send(conversationID: 1, clientID: TestClient.newClientID(), text: "hi")).errorCode, .notAuthenticated)
        let _: Pong = try c.request(Ping())
    }

    func testUnknownFrameTypeKeepsConnectionOpen() throws {
        let c = try server.client()
        c.send(Frame(type: FrameType(rawValue: 0x0777), requestID: 42, payload: []))
        let f = try c.wait(for: "error") { $0.requestID == 42 }
        XCTAssertEqual(try f.decode(ErrorFrame.self).errorCode, .unknownFrameType)
        let _: Pong = try c.request(Ping())
    }

    func testMalformedPayloadAndInvalidUTF8KeepConnectionOpen() throws {
        let c = try server.client()
        // A field whose declared length runs past the payload.
        c.send(Frame(type: .login, requestID: 5, payload: [1, 50, 0x61]))
        let bad = try c.wait(for: "bad_request") { $0.requestID == 5 }
        XCTAssertEqual(try bad.decode(ErrorFrame.self).errorCode, .badRequest)
        // A string field that is not UTF-8.
        var w = FieldWriter()
        w.bytes(1, [0xFF, 0xFE, 0x41])
        w.string(2, "password123")
        c.send(Frame(type: .login, requestID: 6, payload: w.bytes))
        let utf = try c.wait(for: "invalid_utf8") { $0.requestID == 6 }
        let e = try utf.decode(ErrorFrame.self)
        XCTAssertEqual(e.errorCode, .invalidUTF8)
        XCTAssertEqual(e.field, "login")
        XCTAssertFalse(e.closes)
        let _: Pong = try c.request(Ping())
    }

    func testOversizedFrameLengthClosesConnection() throws {
        let c = try server.client()
        // Only the header: the server must refuse the declared length before reading a payload.
        c.sendRaw([0x7F, 0xFF, 0xFF, 0xFF, 0x00, 0x03, 0x00, 0x00, 0, 0, 0, 9])
        let f = try c.wait(for: "frame_too_large") { $0.type == .error }
        XCTAssertEqual(try f.decode(ErrorFrame.self).errorCode, .frameTooLarge)
        // Before login the small limit applies (SlowClientTests covers the one after login).
        XCTAssertEqual(try f.decode(ErrorFrame.self).limit, UInt64(server.server.configuration.preLoginMaxFrameLength))
        XCTAssertTrue(try c.waitForClose())
        let other = try server.client()
        let _: Pong = try other.request(Ping())
    }

    func testClientVanishingMidFrameLeavesOthersUnaffected() throws {
        let bystander = try server.client()
        let c = try server.client()
        XCTAssertTrue(try waitUntil { self.server.server.connectionCount == 2 })
        let full = Ping().frame(requestID: 3).encoded() + Hello(capabilities: [], client: String(repeating: "x", count: 500)).frame(requestID: 4).encoded()
        c.sendRaw(Array(full.prefix(full.count - 100)))
        c.close()
        XCTAssertTrue(try waitUntil { self.server.server.connectionCount == 1 }, "the half-sent connection is dropped")
        let _: Pong = try bystander.request(Ping())
    }

    func testHalfClosedClientStillGetsItsAnswers() throws {
        let c = try server.client()
        let id = c.send(Ping())
        shutdown(c.fd, Int32(SHUT_WR))
        let f = try c.wait(for: "pong after half-close") { $0.requestID == id }
        XCTAssertEqual(f.type, .pong)
        XCTAssertTrue(try c.waitForClose())
        XCTAssertTrue(try waitUntil { self.server.server.connectionCount == 0 })
    }

    func testCompressedFrameWithoutAgreementClosesConnection() throws {
        let c = try server.client(capabilities: [])
        let f = Login(login: String(repeating: "a", count: 400), password: "x").frame(requestID: 8, compress: true)
        XCTAssertTrue(f.flags.contains(.compressed))
        c.send(f)
        let e = try c.wait(for: "malformed_frame") { $0.requestID == 8 }
        XCTAssertEqual(try e.decode(ErrorFrame.self).errorCode, .malformedFrame)
        XCTAssertTrue(try c.waitForClose())
        // With zlib agreed, the same frame is read normally.
        let z = try server.client(capabilities: [.zlib])
        z.send(f)
        let answer = try z.wait(for: "login answer", timeout: 30) { $0.requestID == 8 }
        XCTAssertEqual(try answer.decode(ErrorFrame.self).errorCode, .invalidCredentials)
    }

    func testIdleConnectionIsClosedWithIdleTimeout() throws {
        let c = try server.client()
        let f = try c.wait(for: "idle_timeout", timeout: 10) { $0.type == .error }
        XCTAssertEqual(try f.decode(ErrorFrame.self).errorCode, .idleTimeout)
        XCTAssertTrue(try c.waitForClose())
    }

    func testConnectionThatNeverSaysHelloIsClosed() throws {
        let c = try TestClient(port: server.port)
        XCTAssertTrue(try c.waitForClose(timeout: 10))
    }

    func testPingsKeepAConnectionAlivePastTheIdleTimeout() throws {
        let c = try server.client()
        let end = Date().addingTimeInterval(3)
        while Date() < end {
            let _: Pong = try c.request(Ping())
            _ = try c.readFrame(timeout: 0.3)
        }
        XCTAssertFalse(c.closedByServer)
        XCTAssertFalse(c.inbox.contains { $0.type == .error })
    }
}

/// Polls `condition` until it holds or the deadline passes.
func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return try condition()
}
