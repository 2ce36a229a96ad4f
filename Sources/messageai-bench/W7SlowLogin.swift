import MessageAISocket
import Glibc
import MessageAIProtocol

/// W7 (issue 15): slow pre-login connections (slowloris). `connections` sockets each declare a
/// frame and then send one byte every `pace` seconds, never finishing it:
/// - "1 MiB declared": a 1 MiB LOGIN, far above what is legitimate before login;
/// - "cap trickle": a HELLO of the largest size accepted before login (8 KiB), sent but for
///   its last 64 bytes, which only the frame deadline can end (the most a slow client can
///   make the server hold).
/// Reports the server's RSS growth per connection while they are held, and how long after its
/// first byte each connection was closed (the latency columns). Target: under 64 KiB each, all
/// closed within their deadline.
struct W7SlowLogin {
    let config: Configuration
    let target: Target

    func run() throws -> [WorkloadResult] {
        let fileLimit = raiseFileLimit()
        if config.w7Connections + 64 > fileLimit {
            throw BenchError("open-file limit \(fileLimit) is below \(config.w7Connections) connections")
        }
        return [try measure("W7-1MiB", "1 MiB declared", declared: 1 << 20, type: .login),
                try measure("W7-cap", "cap trickle", declared: maxLegal, type: .hello)]
    }

    /// The largest frame the server accepts before login (its default `--max-prelogin-frame`).
    private let maxLegal = 8 * 1024

    private func header(length: Int, type: FrameType) -> [UInt8] {
        let l = UInt32(length)
        return [UInt8(l >> 24), UInt8((l >> 16) & 0xFF), UInt8((l >> 8) & 0xFF), UInt8(l & 0xFF),
                UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), 0, 0, 0, 0, 0, 1]
    }

    private func measure(_ workload: String, _ title: String, declared: Int, type: FrameType) throws -> WorkloadResult {
        var r = WorkloadResult(workload: workload, title: "slow pre-login, \(title)")
        r.unit = "conns"
        let n = config.w7Connections
        let rss0 = target.pid.flatMap(ProcessStats.rssKiB(pid:))
        let m = Measurement(serverPID: target.pid)
        var fds: [Int32] = []
        var started: [UInt64] = []
        var closedAt: [UInt64?] = []
        defer { for fd in fds { Glibc.close(fd) } }
        let head = header(length: declared, type: type)
        for _ in 0..<n {
            let fd: Int32
            switch Sockets.open(host: target.host, port: target.port, nonBlocking: false) {
            case .success(let opened): fd = opened
            case .failure(let e): throw BenchError("connect: \(e.message)")
            }
            Sockets.setNonBlocking(fd)
            // The header and all of the payload but its last 64 bytes (or 16 bytes of a frame
            // too large to be legal), then one byte per pace.
            let first = head + [UInt8](repeating: 0x41, count: declared > maxLegal ? 16 : declared - 8 - 64)
            _ = first.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            fds.append(fd)
            started.append(nowNanos())
            closedAt.append(nil)
        }
        // Every connection has declared its frame: what the server holds for them now.
        let rssOpened = target.pid.flatMap(ProcessStats.rssKiB(pid:))
        // Trickle, and note when the server closes each one.
        var rssHeld: Int?
        let deadline = Deadline(seconds: config.timeLimit)
        var nextByte = nowNanos()
        var sink = [UInt8](repeating: 0, count: 4096)
        var rounds = 0
        while closedAt.contains(where: { $0 == nil }) && !deadline.expired {
            if nowNanos() >= nextByte {
                for (i, fd) in fds.enumerated() where closedAt[i] == nil {
                    var byte: UInt8 = 0x41
                    _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL))
                }
                nextByte = nowNanos() + UInt64(config.w7Pace * 1e9)
                rounds += 1
                // Held: the most the server's RSS reached while the connections trickled.
                if let now = target.pid.flatMap(ProcessStats.rssKiB(pid:)) { rssHeld = max(rssHeld ?? 0, now) }
            }
            var pfds = fds.enumerated().map { i, fd in pollfd(fd: closedAt[i] == nil ? fd : -1, events: Int16(POLLIN), revents: 0) }
            _ = poll(&pfds, nfds_t(pfds.count), 50)
            for (i, p) in pfds.enumerated() where p.fd >= 0 && p.revents != 0 {
                // ERROR frames are read and dropped; EOF or a reset is the close.
                while true {
                    let got = recv(fds[i], &sink, sink.count, Int32(MSG_DONTWAIT))
                    if got > 0 { continue }
                    if got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        closedAt[i] = nowNanos()
                        r.latency.record(closedAt[i]! &- started[i])
                    }
                    break
                }
            }
        }
        m.finish(into: &r)
        r.count = closedAt.filter { $0 != nil }.count
        r.complete = r.count == n
        r.error = r.complete ? nil : "\(n - r.count) of \(n) connections still open at the time limit"
        let held = [rssOpened, rssHeld].compactMap { $0 }.max()
        if let a = rss0, let b = held {
            r.extra.append(("rss_per_conn_B", fmt(Double(b - a) * 1024 / Double(n), 0)))
            r.extra.append(("rss0_kb", "\(a)")); r.extra.append(("rss_held_kb", "\(b)"))
        }
        // After they were closed (the ERROR frames and closing cost a little too; malloc keeps it).
        if let a = rss0, let c = r.serverRSSKiB {
            r.extra.append(("rss_end_per_conn_B", fmt(Double(c - a) * 1024 / Double(n), 0)))
        }
        r.extra += [("declared_B", "\(declared)"), ("pace_s", fmt(config.w7Pace, 1)), ("trickle_rounds", "\(rounds)")]
        return r
    }
}
