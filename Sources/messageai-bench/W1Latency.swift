import MessageAIProtocol

/// W1: two users in a DM; one sends a message, waits until the other has the MESSAGE push,
/// then sends the next. Latency = receive time (right after read) - send time (in the text).
struct W1Latency {
    let config: Configuration
    let target: Target

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W1", title: "1:1 latency")
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let (users, conns) = try Setup.register(target, names: ["w1_a", "w1_b"], deadline: setupDeadline)
        let (a, b) = (conns[0], conns[1])
        let dm = try a.request(DMOpen(username: users[1].username), expect: Conversation.self, deadline: setupDeadline)
        var m: Measurement?
        Self.measure(config, from: a, to: b, conversationID: dm.conversationID, into: &r) {
            m = Measurement(serverPID: target.pid)
        }
        (m ?? Measurement(serverPID: target.pid)).finish(into: &r)
        for c in conns { c.close("done") }
        return r
    }

    /// The loop itself, from `a` to `b` (on one server, or on two nodes: X1). `measuring` is
    /// called once, when the warm-up messages have arrived and the measured ones start.
    static func measure(_ config: Configuration, from a: Connection, to b: Connection, conversationID: UInt64,
                        into r: inout WorkloadResult, measuring: () -> Void) {
        let warmup = config.w1Warmup, total = config.w1Messages + config.w1Warmup
        var seq = 0
        var arrived = false
        var failure: String?
        var latency = makeLatencyHistogram()
        b.onFrame = { [unowned b] v in
            guard v.type == .message, let (s, sent) = BenchText.parseTimed(messagePayload: v.payload), s == seq else { return }
            if s >= warmup { latency.record(b.lastReadNanos &- sent) }
            arrived = true
        }
        a.onFrame = { v in if v.type == .error { failure = failure ?? Setup.describeError(v) } }
        let poller = Poller([a, b])
        let deadline = Deadline(seconds: config.timeLimit)
        var started = false
        while seq < total && !deadline.expired && failure == nil && !a.closed && !b.closed {
            if seq == warmup && !started { measuring(); started = true }
            arrived = false
            let text = BenchText.timed(seq: seq, sentNanos: nowNanos(), bytes: config.textBytes)
            a.queue(Send(conversationID: conversationID, clientID: clientID(sender: 0, seq: seq), text: text))
            a.flush()
            while !arrived && !deadline.expired && failure == nil && !a.closed && !b.closed {
                poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
            }
            if arrived { seq += 1 }
        }
        if !started { measuring() }
        r.latency = latency
        r.count = Int(r.latency.totalCount)
        r.complete = seq == total
        r.error = failure ?? a.closedReason ?? b.closedReason ?? (r.complete ? nil : "time limit after \(seq) messages")
    }
}
