import MessageAIProtocol

/// W4: a user is offline while `messages` arrive in its DM and a group; then it connects and
/// syncs from nothing. Measured from connect() to SYNC_DONE, with the bytes received for the
/// sync, once with zlib negotiated and once without, `runs` times each (alternating).
struct W4Sync {
    let config: Configuration
    let target: Target

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W4", title: "offline sync")
        r.unit = "syncs"
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let (users, conns) = try Setup.register(target, names: ["w4_u", "w4_s1", "w4_s2"], deadline: setupDeadline)
        let dm = try conns[1].request(DMOpen(username: users[0].username), expect: Conversation.self, deadline: setupDeadline)
        let group = try conns[2].request(GroupCreate(name: target.runTag + "w4", usernames: [users[0].username, users[1].username]),
                                         expect: Conversation.self, deadline: setupDeadline)
        conns[0].close("offline")  // the user is offline from here on
        let populator = Populator(senders: [(conns[1], dm.conversationID), (conns[2], group.conversationID)], window: 64)
        let stored = try populator.send(total: config.w4Messages, deadline: Deadline(seconds: config.timeLimit)) {
            BenchText.timed(seq: $0, sentNanos: nowNanos(), bytes: config.textBytes)
        }
        for c in conns { c.close("done") }

        var plain = makeLatencyHistogram()
        var bytes: [Bool: Int] = [:]
        var counts: [Bool: Int] = [:]
        let deadline = Deadline(seconds: config.timeLimit)
        let m = Measurement(serverPID: target.pid)
        var runs = 0
        for _ in 0..<config.w4Runs {
            for zlib in [true, false] {
                let s = try syncOnce(user: users[0], zlib: zlib, deadline: deadline)
                if zlib { r.latency.record(s.nanos) } else { plain.record(s.nanos) }
                bytes[zlib] = s.bytes; counts[zlib] = s.messages
                runs += 1
            }
        }
        m.finish(into: &r)
        r.count = runs
        let zb = bytes[true] ?? 0, pb = bytes[false] ?? 0
        r.complete = stored == config.w4Messages && counts[true] == stored && counts[false] == stored
        r.extra = [("stored", "\(stored)"), ("synced_msgs_zlib", "\(counts[true] ?? 0)"), ("synced_msgs_plain", "\(counts[false] ?? 0)"),
                   ("bytes_zlib", "\(zb)"), ("bytes_plain", "\(pb)"), ("compression_ratio", fmt(zb > 0 ? Double(pb) / Double(zb) : 0, 2)),
                   ("plain_p50_us", fmt(Double(plain.valueAtPercentile(50)) / 1000, 1)),
                   ("plain_max_us", fmt(Double(plain.max) / 1000, 1)), ("runs_each", "\(config.w4Runs)")]
        if !r.complete { r.error = "stored \(stored) of \(config.w4Messages); synced \(counts[true] ?? 0) (zlib), \(counts[false] ?? 0) (plain)" }
        return r
    }

    struct SyncFigures { var nanos: UInt64; var bytes: Int; var messages: Int }

    /// One full sync on a fresh connection. Frames are kept raw and decoded after the clock
    /// stops, to check that every message came.
    func syncOnce(user: BenchUser, zlib: Bool, deadline: Deadline) throws -> SyncFigures {
        let t0 = nowNanos()
        let c = try Setup.resume(target, user, zlib: zlib, deadline: deadline)
        defer { c.close("done") }
        let before = c.bytesReceived
        var frames: [Frame] = []
        var done = false
        var failure: String?
        let id = c.queue(SyncRequest(positions: []))
        c.onFrame = { v in
            guard v.requestID == id else { return }
            switch v.type {
            case .syncBatch: frames.append(v.frame)
            case .syncDone: done = true
            case .error: failure = Setup.describeError(v)
            default: break
            }
        }
        try Poller([c]).run(until: { done || failure != nil || c.closed }, deadline: deadline, what: "SYNC_DONE")
        let t1 = c.lastReadNanos
        if let failure { throw BenchError("SYNC failed: \(failure)") }
        guard done else { throw BenchError("connection closed during sync: \(c.closedReason ?? "")") }
        var count = 0
        for f in frames { count += try f.decode(SyncBatch.self).messages.count }
        return SyncFigures(nanos: t1 &- t0, bytes: c.bytesReceived - before, messages: count)
    }
}
