import Foundation
import MessageAIProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A hostile client on its own thread: connects, says HELLO (logs in when given a token), then
/// writes random and mutated frames as fast as the socket takes them, reading and dropping
/// whatever comes back so that it is never cut off for not reading. When the server closes it
/// (a frame that broke the framing), it connects again. Stops when `stop()` is called.
///
/// LOGIN and REGISTER are left out of the mix on purpose: each costs a password hash, whose
/// bound in flight is the throttle work of issue 15, not the read path tested here.
final class Flooder: @unchecked Sendable {
    private let port: Int
    private let token: [UInt8]?
    private let lock = NSLock()
    private var stopped = false
    private var finished = false
    private(set) var bytesSent = 0
    private(set) var reconnects = 0

    init(port: Int, token: [UInt8]? = nil) {
        self.port = port
        self.token = token
        Thread.detachNewThread { [self] in run() }
    }

    private var shouldStop: Bool { lock.lock(); defer { lock.unlock() }; return stopped }

    /// Stops and waits for the thread to close its socket.
    func stop() {
        lock.lock(); stopped = true; lock.unlock()
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            lock.lock(); let done = finished; lock.unlock()
            if done { return }
            usleep(5_000)
        }
    }

    private func run() {
        var rng = SystemRandomNumberGenerator()
        while !shouldStop {
            guard let fd = connect() else { usleep(10_000); continue }
            var opening = Hello(capabilities: [.zlib], client: "flooder").frame(requestID: 1).encoded()
            if let token { opening += Resume(token: token).frame(requestID: 2).encoded() }
            flood(fd, opening: opening, rng: &rng)
            close(fd)
            reconnects += 1
        }
        lock.lock(); finished = true; lock.unlock()
    }

    private func connect() -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { close(fd); return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Writes until the server closes the connection or `stop()`.
    private func flood(_ fd: Int32, opening: [UInt8], rng: inout SystemRandomNumberGenerator) {
        var pending = opening
        var sink = [UInt8](repeating: 0, count: 65536)
        while !shouldStop {
            if pending.isEmpty {
                for _ in 0..<64 { pending += Flooder.badFrame(&rng) }
            }
            let n = pending.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                pending.removeFirst(n)
                bytesSent += n
            } else if n < 0, errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR {
                return
            }
            while true {
                let r = recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT))
                if r == 0 { return }
                if r < 0 { if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }; return }
            }
            if n <= 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN | POLLOUT), revents: 0)
                _ = poll(&pfd, 1, 10)
            }
        }
    }

    /// Frame types the mutations start from: cheap requests of every kind, before and after login.
    private static let templates: [Frame] = [
        Ping().frame(requestID: 3),
        Hello(capabilities: [.zlib], client: "again").frame(requestID: 4),
        Send(conversationID: 1, clientID: Array(repeating: 7, count: 16), text: "flood").frame(requestID: 5),
        HistoryRequest(conversationID: 1, beforeSeq: 0, limit: 50).frame(requestID: 6),
        SyncRequest(positions: []).frame(requestID: 7),
        Resume(token: Array(repeating: 1, count: 32)).frame(requestID: 8),
        ContactsList().frame(requestID: 9),
        Frame(type: FrameType(rawValue: 0x7777), requestID: 10, payload: [1, 2, 3]),
    ]

    /// Mostly a template with a few bytes flipped (past the length field: the frame stays
    /// framed and reaches the handlers); one in 5,000 is raw noise that breaks the framing
    /// (so a connection floods for a while, then is closed and connects again).
    static func badFrame<R: RandomNumberGenerator>(_ rng: inout R) -> [UInt8] {
        if Int.random(in: 0..<5_000, using: &rng) == 0 {
            return (0..<Int.random(in: 1...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
        var bytes = templates.randomElement(using: &rng)!.encoded()
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            // Not the reserved flag bits: those close the connection, and most floods stay open.
            let i = Int.random(in: 4..<bytes.count, using: &rng)
            if i == 6 || i == 7 { continue }
            bytes[i] = UInt8.random(in: 0...255, using: &rng)
        }
        return bytes
    }
}
