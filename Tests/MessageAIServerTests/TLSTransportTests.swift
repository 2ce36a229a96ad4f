import Foundation
import MessageAIProtocol
@testable import MessageAIServer
import MessageAITLS
import XCTest

/// The server's TLS transport in this process: real handshakes over loopback with a generated
/// certificate, from a client built on the same OpenSSL session type the messageai client uses.
final class TLSTransportTests: XCTestCase {
    private var directory: ServerTestDirectory!

    override func setUpWithError() throws { directory = try ServerTestDirectory() }

    private func certificate(_ name: String) throws -> (TLSFiles, String) {
        let files = TLSFiles(certificatePath: directory.path + "/\(name).pem", keyPath: directory.path + "/\(name).key")
        let fp = try SelfSignedCertificate.generate(hosts: ["127.0.0.1", "localhost"], certificatePath: files.certificatePath,
                                                    keyPath: files.keyPath)
        return (files, fp)
    }

    func testHandshakeHelloAndTheNegotiatedParameters() throws {
        let (files, fp) = try certificate("one")
        let keyMode = try FileManager.default.attributesOfItem(atPath: files.keyPath)[.posixPermissions] as? NSNumber
        XCTAssertEqual(keyMode?.intValue, 0o600, "the private key is readable by its owner only")
        let server = try TestServer { $0.tls = files }
        XCTAssertEqual(server.server.tlsFingerprint, fp)
        let c = try TLSTestClient(port: server.port)
        XCTAssertEqual(c.session.version, "TLSv1.3")
        XCTAssertEqual(c.session.alpn, "messageai/1")
        XCTAssertEqual(c.session.peerFingerprint, fp)
        XCTAssertEqual(c.session.verificationFailure, "self-signed certificate", "no CA vouches for a generated certificate")
        XCTAssertEqual(try c.hello().type, .welcome)
    }

    func testPlaintextClientIsToldToUseTLSAndOthersAreServed() throws {
        let (files, _) = try certificate("one")
        let server = try TestServer { $0.tls = files }
        let plain = try TestClient(port: server.port)
        let id = plain.send(Hello(capabilities: [], client: "plain"))
        let error: ErrorFrame = try plain.answer(id)
        XCTAssertEqual(error.errorCode, .handshakeRequired)
        XCTAssertTrue(error.message.contains("speaks TLS"), error.message)
        XCTAssertTrue(try plain.waitForClose())
        XCTAssertEqual(try TLSTestClient(port: server.port).hello().type, .welcome)
    }

    func testStalledHandshakeIsCutByTheIdleTimeoutWhileOthersAreServed() throws {
        let (files, _) = try certificate("one")
        // 3 s, not less: each good client's handshake must finish inside it on a loaded machine
        // and under AddressSanitizer (Scripts/asan.sh), where 1.5 s cut a good client off.
        let server = try TestServer { $0.tls = files; $0.idleTimeoutMillis = 3_000; $0.pingIntervalMillis = 1_500 }
        let stalled = try TestClient(port: server.port)
        stalled.sendRaw([0x16, 0x03, 0x01, 0x00, 0x80, 0x01]) // the start of a ClientHello, then nothing
        for _ in 0..<3 { XCTAssertEqual(try TLSTestClient(port: server.port).hello().type, .welcome) }
        XCTAssertTrue(try stalled.waitForClose(timeout: 10), "the stalled handshake was closed")
        XCTAssertEqual(try TLSTestClient(port: server.port).hello().type, .welcome)
    }

    func testReloadKeepsOpenConnectionsAndServesTheNewCertificate() throws {
        let (files, fp1) = try certificate("current")
        let server = try TestServer { $0.tls = files }
        let old = try TLSTestClient(port: server.port)
        XCTAssertEqual(try old.hello().type, .welcome)
        let (renewed, fp2) = try certificate("renewed")
        for (from, to) in [(renewed.certificatePath, files.certificatePath), (renewed.keyPath, files.keyPath)] {
            XCTAssertEqual(rename(from, to), 0, "renewing \(to)")
        }
        let done = DispatchSemaphore(value: 0)
        var reloaded: Result<String, Error>?
        server.server.reloadTLS { reloaded = $0; done.signal() }
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(try reloaded?.get(), fp2)
        XCTAssertEqual(try old.request(Ping()).type, .pong, "the open connection still works")
        XCTAssertEqual(old.session.peerFingerprint, fp1)
        XCTAssertEqual(try TLSTestClient(port: server.port).session.peerFingerprint, fp2)
    }

    /// The server reads TLS with read-ahead: one `recv` takes many records into OpenSSL, and
    /// records left there after a turn are announced by no socket event. A burst larger than
    /// the server's read buffer (64 KiB), one record per frame, must still be answered whole.
    func testBurstOfRecordsLargerThanTheReadBufferIsAnsweredWhole() throws {
        let (files, _) = try certificate("one")
        let server = try TestServer { $0.tls = files; $0.rateLimit = 100_000 }
        let c = try TLSTestClient(port: server.port)
        XCTAssertEqual(try c.hello().type, .welcome)
        let granted = try c.request(Register(email: "ann@example.org", username: "ann", password: TestUsers.password,
                                             displayName: "Ann", device: "tls-test"))
        XCTAssertEqual(granted.type, .session)
        // ~3 KB each (accents, CJK, emoji), 60 of them: ~180 KB in 60 records, written at once.
        let text = String(repeating: "naïve 漢字 👩🏽‍💻 ", count: 150)
        let frames = (0..<60).map { _ in
            Send(conversationID: 999_999, clientID: TestClient.newClientID(), text: text).frame(requestID: c.newRequestID())
        }
        let answers = try c.burst(frames)
        XCTAssertEqual(answers.count, frames.count, "every SEND answered")
        XCTAssertEqual(Set(answers.map(\.requestID)), Set(frames.map(\.requestID)))
        XCTAssertTrue(answers.allSatisfy { (try? $0.decode(ErrorFrame.self).errorCode) == .notAMember })
        XCTAssertEqual(try c.request(Ping()).type, .pong, "and the connection carries on")
    }
}

/// A blocking TLS client: handshake in init, then frames.
final class TLSTestClient {
    let fd: Int32
    let session: TLSSession
    private var decoder = FrameDecoder()
    private var nextID: UInt32 = 1

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        let raw = try TestClient(port: port, receiveBuffer: receiveBuffer)
        fd = dup(raw.fd)
        var tv = timeval(tv_sec: 10, tv_usec: 0) // bounds the blocking handshake
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        session = try TLSSession(context: try TLSContext.client(caFile: nil), fileDescriptor: fd, isServer: false)
        session.prepareClient(host: "127.0.0.1")
        guard case .done = session.handshake() else { throw TLSError("handshake failed") }
        // Then non-blocking, as the real client: a read stops when the socket has nothing more.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { session.shutdown(); Glibc.close(fd) }

    func hello() throws -> Frame { try request(Hello(capabilities: [], client: "tls-test")) }

    func newRequestID() -> UInt32 {
        defer { nextID += 1 }
        return nextID
    }

    func request<M: WireMessage>(_ message: M) throws -> Frame {
        let id = newRequestID()
        return try burst([message.frame(requestID: id)])[0]
    }

    /// Writes each frame as its own TLS record, all at once, then reads until every one has its
    /// answer (in arrival order).
    func burst(_ frames: [Frame]) throws -> [Frame] {
        for frame in frames {
            let bytes = frame.encoded()
            var written = 0
            let deadline = Date() + 10
            while written < bytes.count {
                switch bytes.withUnsafeBytes({ session.write(UnsafeRawBufferPointer(rebasing: $0[written...])) }) {
                case .done(let n): written += n
                case .wantWrite, .wantRead:
                    // The server answers while we write: read meanwhile so neither side stalls.
                    try readAvailable()
                    guard Date() < deadline else { throw TLSError("could not write in 10 s") }
                    var p = pollfd(fd: fd, events: Int16(POLLOUT | POLLIN), revents: 0)
                    _ = poll(&p, 1, 100)
                default: throw TLSError("write failed")
                }
            }
        }
        var waiting = Set(frames.map(\.requestID))
        var answers: [Frame] = []
        let deadline = Date() + 10
        while Date() < deadline {
            while let frame = try decoder.next() {
                if waiting.remove(frame.requestID) != nil { answers.append(frame) }
            }
            if waiting.isEmpty { return answers }
            if try !readAvailable() {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
            }
        }
        throw TLSError("\(waiting.count) of \(frames.count) answers missing after 10 s")
    }

    /// Every frame until the server closes the connection (or `timeout` passes).
    func readUntilClosed(timeout: Double = 60) throws -> [Frame] {
        var frames: [Frame] = []
        let deadline = Date() + timeout
        while Date() < deadline {
            do {
                if try !readAvailable() {
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    _ = poll(&p, 1, 100)
                }
            } catch {
                while let frame = try decoder.next() { frames.append(frame) }
                return frames
            }
            while let frame = try decoder.next() { frames.append(frame) }
        }
        throw TLSError("still open after \(timeout) s")
    }

    /// Feeds what the socket has to the decoder; false when there was nothing.
    @discardableResult
    private func readAvailable() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        switch buffer.withUnsafeMutableBytes({ session.read(into: $0) }) {
        case .done(let n): decoder.feed(buffer[0..<n]); return true
        case .wantRead, .wantWrite: return false
        default: throw TLSError("the server closed the connection")
        }
    }
}
