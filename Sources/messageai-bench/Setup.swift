import Glibc
import MessageAIProtocol

/// Where the workloads send their traffic.
struct Target {
    let host: String
    let port: UInt16
    /// For CPU and RSS figures; nil when the bench does not know the server's process.
    let pid: pid_t?
    /// Prefix of every username this run creates, so runs against one server never collide.
    let runTag: String
}

/// A logged-in bench user.
struct BenchUser {
    let username: String
    let userID: UInt64
    let token: [UInt8]
}

/// Account and conversation set-up through the real protocol. Not measured, but bounded.
enum Setup {
    static let password = "bench-password-1"

    static func hello(zlib: Bool = false) -> Hello {
        Hello(capabilities: zlib ? .zlib : [], client: "messageai-bench/0.1")
    }

    /// Connects, then sends HELLO and the frame `auth` queues (REGISTER, LOGIN or RESUME) on
    /// up to `pending` connections at once, until `count` are logged in. `ready` gets each new
    /// session; the connections stay open and are returned in order.
    static func openSessions(_ target: Target, count: Int, pending: Int, deadline: Deadline,
                             auth: @escaping (Int, Connection) -> UInt32,
                             ready: @escaping (Int, Connection, FrameView) -> Void = { _, _, _ in }) throws -> [Connection] {
        var conns: [Connection?] = Array(repeating: nil, count: count)
        var authID = [UInt32](repeating: 0, count: count)
        var started = 0, done = 0, inFlight = 0
        var failure: String?
        let poller = Poller()
        poller.onConnected = { c in
            c.queue(hello())
            authID[c.index] = auth(c.index, c)
            c.flush()
        }
        func onFrame(_ c: Connection) -> (FrameView) -> Void {
            return { [unowned c] v in
                if v.type == .error { failure = failure ?? describeError(v) }
                guard v.requestID == authID[c.index], v.requestID != 0 else { return }
                if v.type == .session {
                    done += 1; inFlight -= 1
                    ready(c.index, c, v)
                    poller.remove(c)
                }
            }
        }
        while done < count {
            if let failure { throw BenchError("login failed: \(failure)") }
            if deadline.expired { throw BenchError("timed out with \(done) of \(count) sessions open") }
            while started < count && inFlight < pending {
                let c = try Connection(host: target.host, port: target.port, index: started)
                c.onFrame = onFrame(c)
                conns[started] = c
                poller.add(c)
                started += 1; inFlight += 1
            }
            poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 50))
            if let dead = conns.lazy.compactMap({ $0 }).first(where: { $0.closed }) {
                throw BenchError("connection \(dead.index) closed during login: \(dead.closedReason ?? "")")
            }
        }
        for c in conns { c?.onFrame = { _ in } }
        return conns.map { $0! }
    }

    /// Registers `names` (the run tag is prepended), concurrently. Password hashing makes each
    /// registration slow on purpose, so workloads register as few users as they can.
    static func register(_ target: Target, names: [String], deadline: Deadline) throws -> ([BenchUser], [Connection]) {
        var users = [BenchUser?](repeating: nil, count: names.count)
        var failure: String?
        let conns = try openSessions(target, count: names.count, pending: 16, deadline: deadline, auth: { i, c in
            let name = target.runTag + names[i]
            return c.queue(Register(email: "\(name)@bench.invalid", username: name, password: password, displayName: name, device: "bench"))
        }, ready: { i, _, v in
            do {
                let s = try v.frame.decode(SessionGranted.self)
                users[i] = BenchUser(username: s.user.username, userID: s.user.userID, token: s.token)
            } catch { failure = "SESSION undecodable: \(error)" }
        })
        if let failure { throw BenchError(failure) }
        return (users.map { $0! }, conns)
    }

    /// Opens a new connection and resumes `user`'s session on it.
    static func resume(_ target: Target, _ user: BenchUser, zlib: Bool = false, deadline: Deadline) throws -> Connection {
        let c = try Connection(host: target.host, port: target.port)
        try c.waitConnected(deadline: deadline)
        _ = try c.request(hello(zlib: zlib), expect: Welcome.self, deadline: deadline)
        _ = try c.request(Resume(token: user.token), expect: SessionGranted.self, deadline: deadline)
        return c
    }

    static func describeError(_ v: FrameView) -> String {
        guard let e = try? v.frame.decode(ErrorFrame.self) else { return "undecodable ERROR" }
        return "\(e.errorCode.map { "\($0)" } ?? "code \(e.code)"): \(e.message)"
    }
}
