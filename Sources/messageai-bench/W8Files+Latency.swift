import Crypto
import MessageAIProtocol

func sha256(_ bytes: [UInt8]) -> [UInt8] { Array(SHA256.hash(data: bytes)) }

/// W8's second half: W1 (one message at a time, a → b) alone, then the same while `a` uploads
/// the file on the same connection, in the same run against the same server. The rule under
/// test: a SEND queued during an upload waits behind one chunk at most.
struct W8Latency {
    let config: Configuration
    let target: Target
    let users: [BenchUser]
    let payload: [UInt8]

    func run() throws -> [WorkloadResult] {
        let deadline = Deadline(seconds: config.timeLimit)
        let a = try W8Files.filesSession(target, users[0], deadline: deadline)
        let b = try W8Files.filesSession(target, users[1], deadline: deadline)
        defer { a.close("done"); b.close("done") }
        let dm = try a.request(DMOpen(username: users[1].username), expect: Conversation.self, deadline: deadline)
        var alone = WorkloadResult(workload: "W8-W1", title: "W1 alone (same run)")
        var during = WorkloadResult(workload: "W8-W1+up", title: "W1 during a \(config.w8MiB) MiB upload, same connection")

        var seq = 0, sentAt: UInt64 = 0
        var waiting = false
        var recording: ((UInt64) -> Void)?
        var failure: String?
        b.onFrame = { [unowned b] v in
            guard v.type == .message, let (s, sent) = BenchText.parseTimed(messagePayload: v.payload), s == seq - 1, waiting else { return }
            recording?(b.lastReadNanos &- sent)
            waiting = false
        }
        a.onFrame = { v in if v.type == .error { failure = failure ?? Setup.describeError(v) } }
        let poller = Poller([a, b])
        /// Sends the next message if the previous one has arrived.
        func step() {
            guard !waiting else { return }
            sentAt = nowNanos()
            let text = BenchText.timed(seq: seq, sentNanos: sentAt, bytes: config.textBytes)
            a.queue(Send(conversationID: dm.conversationID, clientID: clientID(sender: 0, seq: seq), text: text))
            a.flush()
            seq += 1
            waiting = true
        }

        // Alone: warm-up, then the measured messages.
        recording = nil
        let total = config.w8Messages
        let m1 = Measurement(serverPID: target.pid)
        var warm = 0
        while (warm < config.w1Warmup || Int(alone.latency.totalCount) < total) && !deadline.expired && failure == nil {
            if !waiting {
                if warm == config.w1Warmup { recording = { alone.latency.record($0) } } else if warm < config.w1Warmup { warm += 1 }
                step()
            }
            poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
        }
        m1.finish(into: &alone)
        alone.count = Int(alone.latency.totalCount); alone.complete = alone.count >= total
        while waiting && !deadline.expired { poller.pollOnce(timeoutMillis: 100) }

        // During the upload: messages go on one at a time until the file is complete.
        var file = payload
        file[0] = 0xEE
        recording = { during.latency.record($0) }
        let m2 = Measurement(serverPID: target.pid)
        let transfer = W8Transfer(connection: a, window: 4)
        _ = try transfer.upload(file, deadline: Deadline(seconds: config.timeLimit), poller: poller, between: { step() })
        m2.finish(into: &during)
        during.count = Int(during.latency.totalCount)
        during.complete = during.count > 0 && failure == nil
        during.error = failure
        let p99 = { (r: WorkloadResult) in r.micros(99) }
        if alone.latency.totalCount > 0 && during.latency.totalCount > 0 {
            during.extra = [("p99_vs_alone", fmt(p99(during) / max(p99(alone), 0.001), 2))]
        }
        return [alone, during]
    }
}
