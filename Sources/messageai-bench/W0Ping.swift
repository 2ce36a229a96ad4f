import MessageAIProtocol

/// W0 (a diagnostic, not in issue 7): PING → PONG round trips, one at a time, on a logged-in
/// connection. No store and no fan-out: the server's floor for one request through its event
/// loop, to read W1 against (W1 = this floor + the commit + one more send).
struct W0Ping {
    let config: Configuration
    let target: Target

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W0", title: "ping round trip")
        r.unit = "pings"
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let (_, conns) = try Setup.register(target, names: ["w0_a"], deadline: setupDeadline)
        let c = conns[0]
        var awaiting: UInt32 = 0, answered = false
        c.onFrame = { v in if v.requestID == awaiting && v.type == .pong { answered = true } }
        let poller = Poller([c])
        let deadline = Deadline(seconds: config.timeLimit)
        let total = config.w1Messages + config.w1Warmup
        var done = 0
        var m: Measurement?
        while done < total && !c.closed && !deadline.expired {
            if done == config.w1Warmup { m = Measurement(serverPID: target.pid) }
            answered = false
            let sent = nowNanos()
            awaiting = c.queue(Ping())
            c.flush()
            while !answered && !c.closed && !deadline.expired { poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100)) }
            guard answered else { break }
            if done >= config.w1Warmup { r.latency.record(c.lastReadNanos &- sent) }
            done += 1
        }
        (m ?? Measurement(serverPID: target.pid)).finish(into: &r)
        r.count = Int(r.latency.totalCount)
        r.complete = done == total
        r.error = c.closedReason ?? (r.complete ? nil : "time limit after \(done) pings")
        c.close("done")
        return r
    }
}
