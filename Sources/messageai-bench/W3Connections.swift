import Glibc
import MessageAIProtocol

/// W3: `connections` idle, authenticated connections. A few users are registered (each
/// registration hashes a password on purpose slowly); every connection then logs in with
/// RESUME and one of their tokens. Reports logins per second, login latency (connect to
/// SESSION) and the server's RSS growth per connection after a settle time.
struct W3Connections {
    let config: Configuration
    let target: Target

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W3", title: "idle connections")
        r.unit = "logins"
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let userCount = max(1, min(config.w3Users, config.w3Connections))
        let (users, owners) = try Setup.register(target, names: (0..<userCount).map { "w3_\($0)" }, deadline: setupDeadline)
        let fileLimit = raiseFileLimit()
        if config.w3Connections + owners.count + 32 > fileLimit {
            throw BenchError("open-file limit \(fileLimit) is below \(config.w3Connections) connections")
        }
        let settleFirst = Deadline(seconds: 0.5)
        let p = Poller(owners)
        while !settleFirst.expired { p.pollOnce(timeoutMillis: settleFirst.remainingMillis(cap: 50)) }

        let rss0 = target.pid.flatMap(ProcessStats.rssKiB(pid:))
        var started = [UInt64](repeating: 0, count: config.w3Connections)
        let deadline = Deadline(seconds: config.timeLimit)
        let m = Measurement(serverPID: target.pid)
        var opened: [Connection] = []
        do {
            opened = try Setup.openSessions(target, count: config.w3Connections, pending: config.w3Pending, deadline: deadline,
                auth: { i, c in
                    started[i] = nowNanos()
                    return c.queue(Resume(token: users[i % users.count].token))
                },
                ready: { i, c, _ in r.latency.record(c.lastReadNanos &- started[i]) })
        } catch {
            r.error = "\(error)"
        }
        m.finish(into: &r)
        r.count = Int(r.latency.totalCount)
        r.complete = r.error == nil && r.count == config.w3Connections

        // Idle: nothing is sent; then the server's memory is read.
        usleep(UInt32(config.w3Settle * 1e6))
        let stillOpen = opened.filter { c in
            var pfd = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
            return !c.closed && (poll(&pfd, 1, 0) == 0 || pfd.revents & Int16(POLLHUP | POLLERR) == 0)
        }.count
        let rss1 = target.pid.flatMap(ProcessStats.rssKiB(pid:))
        r.serverRSSKiB = rss1
        if let a = rss0, let b = rss1, r.count > 0 {
            r.extra.append(("rss_per_conn_B", fmt(Double(b - a) * 1024 / Double(r.count), 0)))
            r.extra.append(("rss0_kb", "\(a)")); r.extra.append(("rss1_kb", "\(b)"))
        }
        r.extra += [("conns", "\(r.count)"), ("still_open", "\(stillOpen)"), ("users", "\(userCount)"), ("pending", "\(config.w3Pending)")]
        for c in opened { c.close("done") }
        for c in owners { c.close("done") }
        return r
    }
}
