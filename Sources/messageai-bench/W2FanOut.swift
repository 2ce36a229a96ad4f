import MessageAIProtocol

/// W2: one group of `members`; the first `senders` members send `messages` in total, each
/// keeping at most `window` messages not yet delivered to every other member (closed loop, as
/// chatbench). Every MESSAGE push counts as one delivery; its latency is receive - send time.
///
/// With several `nodes` (X2, issue 26), member i connects to node i mod the number of nodes,
/// senders included; the group is created on the first.
struct W2FanOut {
    let config: Configuration
    let target: Target
    var nodes: [Target] = []
    /// Called when the measured phase starts and when it ends (X2 samples each node's CPU).
    var measuring: () -> Void = {}
    var measured: () -> Void = {}

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W2", title: "group fan-out")
        r.unit = "deliveries"
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let n = config.w2Members, senderCount = min(config.w2Senders, config.w2Members)
        let names = (0..<n).map { "w2_\($0)" }
        let (users, conns) = try register(names, deadline: setupDeadline)
        let group = try conns[0].request(GroupCreate(name: target.runTag + "w2", usernames: users.dropFirst().map(\.username)),
                                         expect: Conversation.self, deadline: setupDeadline)
        // Let the CONVERSATION pushes of the group's creation drain before measuring.
        let poller = Poller(conns)
        let settle = Deadline(seconds: 0.3)
        while !settle.expired { poller.pollOnce(timeoutMillis: settle.remainingMillis(cap: 50)) }

        let total = config.w2Messages, window = config.w2Window
        let expected = n - 1  // the sending session gets SEND_ACK, not the MESSAGE
        var received = [UInt16](repeating: 0, count: total)
        var senderOf = [UInt8](repeating: 0, count: total)
        var inFlight = [Int](repeating: 0, count: senderCount)
        var next = 0, completed = 0, deliveries = 0, errors = 0
        var firstError: String?
        var lastCompletion: UInt64 = 0
        for c in conns {
            c.onFrame = { [unowned c] v in
                if v.type == .message {
                    guard let (s, sent) = BenchText.parseTimed(messagePayload: v.payload), s < next else { return }
                    r.latency.record(c.lastReadNanos &- sent)
                    deliveries += 1
                    received[s] &+= 1
                    if Int(received[s]) == expected {
                        inFlight[Int(senderOf[s])] -= 1
                        completed += 1
                        lastCompletion = c.lastReadNanos
                    }
                } else if v.type == .error {
                    errors += 1
                    firstError = firstError ?? Setup.describeError(v)
                }
            }
        }
        let deadline = Deadline(seconds: config.timeLimit)
        measuring()
        let m = Measurement(serverPID: target.pid)
        while completed < total && !deadline.expired && firstError == nil {
            for s in 0..<senderCount where !conns[s].closed {
                let c = conns[s]
                while inFlight[s] < window && next < total {
                    senderOf[next] = UInt8(s)
                    let text = BenchText.timed(seq: next, sentNanos: nowNanos(), bytes: config.textBytes)
                    c.queue(Send(conversationID: group.conversationID, clientID: clientID(sender: s, seq: next), text: text))
                    inFlight[s] += 1; next += 1
                }
                c.flush()
            }
            poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
            if poller.connections.count < n { break }
        }
        measured()
        m.finish(into: &r, endNanos: completed == total ? lastCompletion : nowNanos())
        r.count = deliveries
        r.complete = completed == total
        r.extra = [("members", "\(n)"), ("senders", "\(senderCount)"), ("window", "\(window)"),
                   ("msgs_sent", "\(next)"), ("msgs_complete", "\(completed)"), ("expected_deliveries", "\(total * expected)"),
                   ("msgs_per_s", fmt(r.seconds > 0 ? Double(completed) / r.seconds : 0, 0)), ("errors", "\(errors)")]
        let dead = conns.first { $0.closed }
        r.error = firstError ?? dead.map { "connection \($0.index) closed: \($0.closedReason ?? "")" }
            ?? (r.complete ? nil : "time limit: \(completed) of \(total) messages fully delivered")
        for c in conns { c.close("done") }
        return r
    }

    /// Member i on node i mod the number of nodes, returned in the members' order.
    private func register(_ names: [String], deadline: Deadline) throws -> ([BenchUser], [Connection]) {
        let nodes = self.nodes.isEmpty ? [target] : self.nodes
        guard nodes.count > 1 else { return try Setup.register(target, names: names, deadline: deadline) }
        var users = [BenchUser?](repeating: nil, count: names.count)
        var conns = [Connection?](repeating: nil, count: names.count)
        for (k, node) in nodes.enumerated() {
            let mine = Array(stride(from: k, to: names.count, by: nodes.count))
            let (u, c) = try Setup.register(node, names: mine.map { names[$0] }, deadline: deadline)
            for (j, i) in mine.enumerated() { users[i] = u[j]; conns[i] = c[j] }
        }
        return (users.map { $0! }, conns.map { $0! })
    }
}
