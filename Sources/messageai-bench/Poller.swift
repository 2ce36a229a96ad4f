import Glibc
import MessageAIProtocol

/// poll() over a small set of connections on the calling thread. Workloads keep only the
/// connections that have work in the set (W3 drops a connection once it is logged in), so
/// poll's cost per call stays small without epoll, which Swift's Glibc module does not expose.
final class Poller {
    private(set) var connections: [Connection] = []
    private var fds: [pollfd] = []
    /// Called once when a non-blocking connect completes.
    var onConnected: (Connection) -> Void = { _ in }

    init(_ connections: [Connection] = []) {
        for c in connections { add(c) }
    }

    func add(_ c: Connection) {
        connections.append(c)
        fds.append(pollfd(fd: c.fd, events: 0, revents: 0))
    }

    func remove(_ c: Connection) {
        guard let i = connections.firstIndex(where: { $0 === c }) else { return }
        connections.remove(at: i)
        fds.remove(at: i)
    }

    /// One poll() round; handles every ready connection. Closed connections are dropped.
    func pollOnce(timeoutMillis: Int32) {
        for i in fds.indices {
            let c = connections[i]
            fds[i].events = Int16(POLLIN) | (c.wantsWritable ? Int16(POLLOUT) : 0)
            fds[i].revents = 0
        }
        let n = fds.withUnsafeMutableBufferPointer { Glibc.poll($0.baseAddress, nfds_t($0.count), timeoutMillis) }
        guard n > 0 else { return }
        var i = 0
        while i < fds.count {
            let re = fds[i].revents
            let c = connections[i]
            if re != 0 {
                if c.connecting {
                    if c.finishConnect() { onConnected(c) }
                }
                if !c.closed && re & Int16(POLLIN | POLLHUP | POLLERR) != 0 { c.readAvailable() }
                if !c.closed && c.hasPendingOutput { c.flush() }
            }
            if c.closed {
                connections.remove(at: i); fds.remove(at: i)
                continue
            }
            i += 1
        }
    }

    /// Polls until `done()` holds; throws when the deadline passes first.
    func run(until done: () -> Bool, deadline: Deadline, what: String) throws {
        while !done() {
            if deadline.expired { throw BenchError("timed out waiting for \(what)") }
            for c in connections where c.hasPendingOutput { c.flush() }
            pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
        }
    }
}

extension Connection {
    /// Sends one request and waits for its answer (same request id); pushes that arrive in the
    /// meantime go to `onFrame` as usual. An ERROR answer is thrown.
    func request<T: WireMessage>(_ message: T, deadline: Deadline) throws -> Frame {
        let id = queue(message)
        var answer: Frame?
        let previous = onFrame
        onFrame = { v in
            if v.requestID == id || (T.self == Hello.self && v.type == .welcome) { answer = v.frame } else { previous(v) }
        }
        defer { onFrame = previous }
        try Poller([self]).run(until: { answer != nil || closed }, deadline: deadline, what: "the answer to \(T.frameType)")
        guard let frame = answer else { throw BenchError("connection closed while waiting for \(T.frameType): \(closedReason ?? "")") }
        if frame.type == .error {
            let e = try? frame.decode(ErrorFrame.self)
            throw BenchError("\(T.frameType) failed: \(e.map { "\($0.errorCode.map { "\($0)" } ?? "code \($0.code)"): \($0.message)" } ?? "undecodable ERROR")")
        }
        return frame
    }

    func request<T: WireMessage, R: WireMessage>(_ message: T, expect: R.Type, deadline: Deadline) throws -> R {
        let frame = try request(message, deadline: deadline)
        guard frame.type == R.frameType else { throw BenchError("\(T.frameType) answered with \(frame.type), expected \(R.frameType)") }
        return try frame.decode(R.self)
    }

    /// Waits for the non-blocking connect to finish.
    func waitConnected(deadline: Deadline) throws {
        let p = Poller([self])
        try p.run(until: { !connecting || closed }, deadline: deadline, what: "connect")
        if closed { throw BenchError(closedReason ?? "connect failed") }
    }
}
