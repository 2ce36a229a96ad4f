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
        let server = try TestServer { $0.tls = files; $0.idleTimeoutMillis = 400; $0.pingIntervalMillis = 200 }
        let stalled = try TestClient(port: server.port)
        stalled.sendRaw([0x16, 0x03, 0x01, 0x00, 0x80, 0x01]) // the start of a ClientHello, then nothing
        for _ in 0..<3 { XCTAssertEqual(try TLSTestClient(port: server.port).hello().type, .welcome) }
        XCTAssertTrue(try stalled.waitForClose(timeout: 5), "the stalled handshake was closed")
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
}

/// A blocking TLS client: handshake in init, then frames.
final class TLSTestClient {
    let fd: Int32
    let session: TLSSession
    private var decoder = FrameDecoder()
    private var nextID: UInt32 = 1

    init(port: Int) throws {
        let raw = try TestClient(port: port)
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

    func request<M: WireMessage>(_ message: M) throws -> Frame {
        let id = nextID
        nextID += 1
        let bytes = message.frame(requestID: id).encoded()
        guard case .done(bytes.count) = bytes.withUnsafeBytes({ session.write($0) }) else { throw TLSError("write failed") }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let deadline = Date() + 10
        while Date() < deadline {
            while let frame = try decoder.next() { if frame.requestID == id { return frame } }
            switch buffer.withUnsafeMutableBytes({ session.read(into: $0) }) {
            case .done(let n): decoder.feed(buffer[0..<n])
            case .wantRead:
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&p, 1, 100)
            default: throw TLSError("the server closed the connection")
            }
        }
        throw TLSError("no answer in 10 s")
    }
}
