import MessageAIProtocol
import MessageAILoad

/// W6 (issue 15): flooding connections against everyone else. For 0, 4 and 8 flooders (half of
/// them logged in), a fresh client's connect → HELLO → WELCOME, and a message round trip
/// between two other users (alice sends, bob's client answers as soon as the push arrives,
/// alice reads the answer). One result row per flooder count; the latency columns are the
/// newcomer's WELCOME, `msg_rtt_*` the round trip. Target: p99 under 100 ms with 8 flooders.
struct W6Flood {
    let config: Configuration
    let target: Target

    func run() throws -> [WorkloadResult] {
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let (users, conns) = try Setup.register(target, names: ["w6_a", "w6_b", "w6_m"], deadline: setupDeadline)
        let (a, b) = (conns[0], conns[1])
        let dm = try a.request(DMOpen(username: users[1].username), expect: Conversation.self, deadline: setupDeadline)
        var results: [WorkloadResult] = []
        for count in config.w6Flooders {
            results.append(measure(flooders: count, a: a, b: b, dm: dm.conversationID, mallory: users[2]))
        }
        for c in conns { c.close("done") }
        return results
    }

    private func measure(flooders count: Int, a: Connection, b: Connection, dm: UInt64, mallory: BenchUser) -> WorkloadResult {
        var r = WorkloadResult(workload: "W6-\(count)", title: "flood, \(count) flooders")
        r.unit = "hellos"
        var rtt = makeLatencyHistogram()
        let flooders = (0..<count).map { i in Flooder(host: target.host, port: target.port, token: i % 2 == 0 ? mallory.token : nil,
                                                      logins: config.w6Logins) }
        defer { for f in flooders { f.stop() } }
        // Let the flood get going before measuring.
        let warm = Deadline(seconds: count > 0 ? 1 : 0)
        let poller = Poller([a, b])
        while !warm.expired { poller.pollOnce(timeoutMillis: warm.remainingMillis(cap: 50)) }

        var seq = 0, echoed = -1
        var failure: String?
        // bob's client answers each message at once; alice waits for the answer.
        b.onFrame = { [unowned b] v in
            guard v.type == .message, let (s, _) = BenchText.parseTimed(messagePayload: v.payload) else { return }
            b.queue(Send(conversationID: dm, clientID: clientID(sender: 1, seq: s + count * 1_000_000), text: BenchText.timed(seq: s, sentNanos: 0, bytes: 16)))
            b.flush()
        }
        a.onFrame = { v in
            if v.type == .error { failure = failure ?? Setup.describeError(v) }
            if v.type == .message, let (s, _) = BenchText.parseTimed(messagePayload: v.payload) { echoed = s }
        }
        let deadline = Deadline(seconds: config.timeLimit)
        let m = Measurement(serverPID: target.pid)
        var done = 0
        while done < config.w6Samples && !deadline.expired && failure == nil && !a.closed && !b.closed {
            // A fresh client: connect, HELLO, WELCOME.
            let t0 = nowNanos()
            do {
                let c = try Connection(host: target.host, port: target.port)
                try c.waitConnected(deadline: deadline)
                _ = try c.request(Setup.hello(), expect: Welcome.self, deadline: deadline)
                r.latency.record(c.lastReadNanos &- t0)
                c.close("done")
            } catch {
                failure = "newcomer: \(error)"
                break
            }
            // A round trip between alice and bob.
            let sent = nowNanos()
            a.queue(Send(conversationID: dm, clientID: clientID(sender: 0, seq: seq + count * 1_000_000),
                         text: BenchText.timed(seq: seq, sentNanos: sent, bytes: config.textBytes)))
            a.flush()
            while echoed != seq && !deadline.expired && failure == nil && !a.closed && !b.closed {
                poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
            }
            guard echoed == seq else { break }
            rtt.record(a.lastReadNanos &- sent)
            seq += 1
            done += 1
        }
        m.finish(into: &r)
        let bytes = flooders.reduce(0) { $0 + $1.bytesSent }
        r.count = done
        r.complete = done == config.w6Samples
        r.error = failure ?? a.closedReason ?? b.closedReason ?? (r.complete ? nil : "time limit after \(done) samples")
        if rtt.totalCount > 0 {
            r.extra.append(("msg_rtt_p50_us", fmt(Double(rtt.valueAtPercentile(50)) / 1000, 1)))
            r.extra.append(("msg_rtt_p99_us", fmt(Double(rtt.valueAtPercentile(99)) / 1000, 1)))
            r.extra.append(("msg_rtt_max_us", fmt(Double(rtt.max) / 1000, 1)))
        }
        r.extra += [("flooders", "\(count)"), ("logins", config.w6Logins ? "1" : "0"), ("flood_MiB", fmt(Double(bytes) / 1_048_576, 1)),
                    ("flood_reconnects", "\(flooders.reduce(0) { $0 + $1.reconnectCount })")]
        a.onFrame = { _ in }
        b.onFrame = { _ in }
        return r
    }
}
