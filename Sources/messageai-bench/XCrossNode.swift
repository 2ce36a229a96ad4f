import MessageAIProtocol

/// Issue 26's benchmark: the workloads of one node, on two nodes sharing one PostgreSQL
/// database (and `idle` more that only read the event log). Needs `--postgres`.
///
/// - X1: W1 with the sender on node 1 and the receiver on node 2: each message crosses the
///   database (node 1 commits it, node 2 is woken by NOTIFY, reads the log and the message,
///   and pushes it). Compare with W1 on one PostgreSQL node and on SQLite in the same run.
/// - X2: W2 with the group's members (senders included) spread over the two nodes.
///
/// Server CPU is the busy nodes' together (what W1's and W2's one node does alone);
/// `nodeN_cpu_us_per_msg` is each node's share per message, `idleN_...` an idle node's: the
/// cost of reading the log per committed event on a node with nobody to tell.
struct XCrossNode {
    let config: Configuration
    let cluster: ClusterNodes

    func x1() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "X1", title: "cross-node 1:1 latency")
        let setup = Deadline(seconds: config.timeLimit)
        let (_, senders) = try Setup.register(cluster.targets[0], names: ["x1_a"], deadline: setup)
        let (receivers, readers) = try Setup.register(cluster.targets[1], names: ["x1_b"], deadline: setup)
        let (a, b) = (senders[0], readers[0])
        defer { a.close("done"); b.close("done") }
        let dm = try a.request(DMOpen(username: receivers[0].username), expect: Conversation.self, deadline: setup)
        var start: [Double] = [], m: Measurement?
        W1Latency.measure(config, from: a, to: b, conversationID: dm.conversationID, into: &r) {
            start = cluster.cpuSeconds()
            m = Measurement(serverPID: nil)
        }
        let end = cluster.cpuSeconds()
        (m ?? Measurement(serverPID: nil)).finish(into: &r)
        finish(&r, start: start, end: end, messages: r.count)
        return r
    }

    func x2() throws -> WorkloadResult {
        var start: [Double] = [], end: [Double] = []
        let busy = Array(cluster.targets.prefix(cluster.busy))
        // No pid: the busy nodes' CPU is summed below, not the first node's alone.
        let first = Target(host: busy[0].host, port: busy[0].port, pid: nil, runTag: busy[0].runTag)
        var w2 = W2FanOut(config: config, target: first, nodes: busy)
        w2.measuring = { start = cluster.cpuSeconds() }
        w2.measured = { end = cluster.cpuSeconds() }
        var r = try w2.run()
        r.workload = "X2"
        r.title = "fan-out over \(cluster.busy) nodes"
        let messages = r.extra.first { $0.0 == "msgs_complete" }.flatMap { Int($0.1) } ?? 0
        if !start.isEmpty && !end.isEmpty { finish(&r, start: start, end: end, messages: messages) }
        return r
    }

    private func finish(_ r: inout WorkloadResult, start: [Double], end: [Double], messages: Int) {
        guard start.count == end.count, !start.isEmpty else { return }
        r.serverCPUSeconds = zip(start, end).prefix(cluster.busy).reduce(0) { $0 + $1.1 - $1.0 }
        r.extra += [("nodes", "\(cluster.busy)"), ("idle_nodes", "\(cluster.servers.count - cluster.busy)")]
            + cluster.extras(from: start, to: end, per: messages, unit: "msg")
    }
}
