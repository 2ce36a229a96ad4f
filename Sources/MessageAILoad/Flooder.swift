import Dispatch
import Foundation
import Glibc
import MessageAIProtocol
import MessageAISocket

/// A hostile client on its own thread, shared by the flood test and the benchmark's W6: connects, says HELLO (and RESUMEs when given a
/// token), then writes random and mutated frames as fast as the socket takes them, reading and
/// dropping the answers so that it is never cut off for not reading. When the server closes it
/// (noise that broke the framing), it connects again.
///
/// LOGIN is in the mix only with `logins` (`--w6-logins`): each costs a password hash, whose
/// bound in flight is the throttle work of issue 15, not the read path measured here. The threads run at a
/// lower priority (nice 10) so that the measuring thread, on the same cores, is not the one
/// that waits for CPU.
public final class Flooder: @unchecked Sendable {
    private let host: String
    private let port: UInt16
    private let token: [UInt8]?
    private let logins: Bool
    private var lock = pthread_mutex_t()
    private var stopped = false
    private var finished = false
    private var sent = 0
    private var reconnects = 0

    public init(host: String = "127.0.0.1", port: UInt16, token: [UInt8]?, logins: Bool = false) {
        self.logins = logins
        self.host = host
        self.port = port
        self.token = token
        pthread_mutex_init(&lock, nil)
        Thread.detachNewThread { [self] in run() }
    }

    private func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        return body()
    }

    public var bytesSent: Int { locked { sent } }
    public var reconnectCount: Int { locked { reconnects } }

    /// Stops and waits (up to 10 s) for the thread to close its socket.
    public func stop() {
        locked { stopped = true }
        let deadline = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
        while DispatchTime.now().uptimeNanoseconds < deadline && !locked({ finished }) { usleep(2_000) }
    }

    private func run() {
        // Linux: who 0 with PRIO_PROCESS is the calling thread only.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        var rng = SplitMix64(seed: DispatchTime.now().uptimeNanoseconds)
        while !locked({ stopped }) {
            guard let fd = connect() else { usleep(10_000); continue }
            var opening = Hello(capabilities: [.zlib], client: "flooder").frame(requestID: 1).encoded()
            if let token { opening += Resume(token: token).frame(requestID: 2).encoded() }
            flood(fd, opening: opening, rng: &rng)
            Glibc.close(fd)
            locked { reconnects += 1 }
        }
        locked { finished = true }
    }

    private func connect() -> Int32? {
        guard case .success(let fd) = Sockets.open(host: host, port: port, nonBlocking: false) else { return nil }
        Sockets.setNonBlocking(fd)
        return fd
    }

    /// Writes until the server closes the connection or `stop()`.
    private func flood(_ fd: Int32, opening: [UInt8], rng: inout SplitMix64) {
        var pending = opening
        var start = 0
        var sink = [UInt8](repeating: 0, count: 65536)
        while !locked({ stopped }) {
            if start == pending.count {
                pending.removeAll(keepingCapacity: true); start = 0
                for _ in 0..<64 { pending += Flooder.badFrame(&rng, logins: logins) }
            }
            let n = pending.withUnsafeBytes { send(fd, $0.baseAddress! + start, $0.count - start, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                start += n
                locked { sent += n }
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

    /// Cheap requests of every kind, before and after login, that the mutations start from.
    private static let templates: [[UInt8]] = [
        Ping().frame(requestID: 3).encoded(),
        Hello(capabilities: [.zlib], client: "flooder").frame(requestID: 4).encoded(),
        Send(conversationID: 1, clientID: Array(repeating: 7, count: 16), text: "flood").frame(requestID: 5).encoded(),
        HistoryRequest(conversationID: 1, beforeSeq: 0, limit: 50).frame(requestID: 6).encoded(),
        SyncRequest(positions: []).frame(requestID: 7).encoded(),
        Resume(token: Array(repeating: 1, count: 32)).frame(requestID: 8).encoded(),
        ContactsList().frame(requestID: 9).encoded(),
        Frame(type: FrameType(rawValue: 0x7777), requestID: 10, payload: [1, 2, 3]).encoded(),
    ]

    private static let login = Login(login: "w6_nobody", password: "not the password").frame(requestID: 11).encoded()

    /// Mostly a template with a few bytes changed past the length field (still framed, so it
    /// reaches the decoders and handlers); one in 5,000 is raw noise that breaks the framing (so
    /// a connection floods for a while, then is closed and connects again).
    static func badFrame(_ rng: inout SplitMix64, logins: Bool) -> [UInt8] {
        if rng.next() % 5_000 == 0 {
            return (0..<(1 + Int(rng.next() % 64))).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        }
        var bytes = logins && rng.next() % 8 == 0 ? login : templates[Int(rng.next() % UInt64(templates.count))]
        for _ in 0..<Int(rng.next() % 4) {
            let i = 4 + Int(rng.next() % UInt64(bytes.count - 4))
            if i == 6 || i == 7 { continue }  // reserved header bits close the connection
            bytes[i] = UInt8(truncatingIfNeeded: rng.next())
        }
        return bytes
    }
}
