import Foundation
import MessageAIProtocol
import XCTest
#if canImport(Glibc)
import Glibc
#endif

struct TestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// A small blocking client over a real socket: send frames, read frames with a deadline.
/// Answers (non-zero request id) and pushes (id 0) are read in order; whatever a wait skips
/// is kept in `inbox` for later waits.
final class TestClient {
    let fd: Int32
    // The default 1 MiB limit, as a real client has: an oversized answer fails the test.
    private var decoder = FrameDecoder()
    private var nextID: UInt32 = 1
    private(set) var inbox: [Frame] = []
    private(set) var closedByServer = false
    var user: UserInfo?
    var token: [UInt8] = []
    /// The server's WELCOME, once `hello` ran.
    var welcome: Welcome?

    /// `receiveBuffer` shrinks the kernel's receive buffer (set before connecting), so that a
    /// client that stops reading fills up the same way on any machine.
    /// `source` binds the client's end to another loopback address (127.0.0.2 ...), so that a
    /// test can play clients at different addresses.
    init(port: Int, host: String = "127.0.0.1", receiveBuffer: Int32? = nil, source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else { Glibc.close(fd); throw TestTimeout(what: "bind to \(source) (errno \(errno))") }
        }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &addr.sin_addr)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { Glibc.close(fd); throw TestTimeout(what: "connect to port \(port) (errno \(errno))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { Glibc.close(fd) }

    func close() { shutdown(fd, Int32(SHUT_RDWR)) }

    // MARK: Sending

    func sendRaw(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    func send(_ frame: Frame) { sendRaw(frame.encoded()) }

    /// Sends `message` with a fresh request id and returns the id.
    @discardableResult
    func send<M: WireMessage>(_ message: M) -> UInt32 {
        let id = nextID
        nextID += 1
        send(message.frame(requestID: id))
        return id
    }

    // MARK: Receiving

    /// The next frame from the socket (not the inbox), or nil at the deadline or on close.
    func readFrame(timeout: Double = 10) throws -> Frame? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let f = try decoder.next() { return f }
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let r = poll(&pfd, 1, Int32(min(left, 1) * 1000) + 1)
            if r <= 0 { continue }
            var buf = [UInt8](repeating: 0, count: 65536)
            let n = recv(fd, &buf, buf.count, 0)
            if n <= 0 { closedByServer = true; return nil }
            decoder.feed(buf[0..<n])
        }
    }

    /// Waits for the first frame (inbox first, then the socket) matching `match`.
    func wait(for what: String, timeout: Double = 10, _ match: (Frame) -> Bool) throws -> Frame {
        if let i = inbox.firstIndex(where: match) { return inbox.remove(at: i) }
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let f = try readFrame(timeout: deadline.timeIntervalSinceNow) else {
                if closedByServer { break }
                continue
            }
            if match(f) { return f }
            inbox.append(f)
        }
        throw TestTimeout(what: what + (closedByServer ? " (connection closed)" : ""))
    }

    /// The answer to request `id`, decoded as `M`; an ERROR answer is thrown.
    func answer<M: WireMessage>(_ id: UInt32, as type: M.Type = M.self, timeout: Double = 10) throws -> M {
        let f = try wait(for: "answer to request \(id)", timeout: timeout) { $0.requestID == id }
        if f.type == .error, M.self != ErrorFrame.self { throw try f.decode(ErrorFrame.self) }
        XCTAssertEqual(f.type, M.frameType, "answer to \(id)")
        return try f.decode(M.self)
    }

    /// Sends `message` and waits for its answer.
    func request<M: WireMessage, R: WireMessage>(_ message: M, expecting: R.Type = R.self, timeout: Double = 10) throws -> R {
        try answer(send(message), as: R.self, timeout: timeout)
    }

    /// Sends `message` and returns the ERROR it must get.
    func requestError<M: WireMessage>(_ message: M, timeout: Double = 10) throws -> ErrorFrame {
        let f = try wait(for: "error for \(M.frameType)", timeout: timeout) { [id = send(message)] in $0.requestID == id }
        XCTAssertEqual(f.type, .error, "expected ERROR for \(M.frameType), got \(f.type)")
        return try f.decode(ErrorFrame.self)
    }

    /// The next push (request id 0) of type `M`.
    func push<M: WireMessage>(_ type: M.Type, timeout: Double = 10, where match: (M) -> Bool = { _ in true }) throws -> M {
        let f = try wait(for: "push \(M.frameType)", timeout: timeout) {
            $0.requestID == 0 && $0.type == M.frameType && ((try? $0.decode(M.self)).map(match) ?? false)
        }
        return try f.decode(M.self)
    }

    /// True when the server closes the connection before the deadline (frames read meanwhile go to the inbox).
    func waitForClose(timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0, !closedByServer {
            if let f = try readFrame(timeout: deadline.timeIntervalSinceNow) { inbox.append(f) }
        }
        return closedByServer
    }

    /// Drops pushes of a type from the inbox (e.g. presence noise before an assertion).
    func discard(_ type: FrameType) { inbox.removeAll { $0.type == type } }

    /// Drops everything read and not yet waited for (a long fuzz run's pushes).
    func clearInbox() { inbox.removeAll() }

    // MARK: Conversation helpers

    @discardableResult
    func hello(capabilities: Capabilities = [.zlib]) throws -> Welcome {
        let w: Welcome = try request(Hello(capabilities: capabilities, client: "test/1"))
        welcome = w
        return w
    }
}
