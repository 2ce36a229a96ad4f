import MessageAIProtocol

/// W5: `messages` stored in a group and a DM of the searching user, texts drawn from a fixed
/// vocabulary; then `queries` one-word SEARCH requests over all of the user's conversations,
/// one at a time. Latency = SEARCH sent to SEARCH_RESULTS received.
struct W5Search {
    let config: Configuration
    let target: Target

    func run() throws -> WorkloadResult {
        var r = WorkloadResult(workload: "W5", title: "search")
        r.unit = "searches"
        let setupDeadline = Deadline(seconds: config.timeLimit)
        let (users, conns) = try Setup.register(target, names: ["w5_a", "w5_b", "w5_c"], deadline: setupDeadline)
        let group = try conns[0].request(GroupCreate(name: target.runTag + "w5", usernames: [users[1].username, users[2].username]),
                                         expect: Conversation.self, deadline: setupDeadline)
        let dm = try conns[1].request(DMOpen(username: users[0].username), expect: Conversation.self, deadline: setupDeadline)
        conns[2].close("offline")
        let populator = Populator(senders: [(conns[0], group.conversationID), (conns[1], dm.conversationID)], window: 64)
        let vocabulary = config.w5Vocabulary, bytes = config.textBytes
        let fillStart = nowNanos()
        let stored = try populator.send(total: config.w5Messages, deadline: Deadline(seconds: config.timeLimit)) {
            BenchText.searchable(seq: $0, bytes: bytes, vocabulary: vocabulary)
        }
        let fillSeconds = seconds(nowNanos() &- fillStart)
        conns[1].close("done")

        let c = conns[0]
        var rng = SplitMix(seed: 5)
        var hits = 0, emptyResults = 0, done = 0
        var awaiting: UInt32 = 0, sent: UInt64 = 0
        var answered = false
        var failure: String?
        c.onFrame = { [unowned c] v in
            guard v.requestID == awaiting, v.requestID != 0 else { return }
            if v.type == .searchResults {
                r.latency.record(c.lastReadNanos &- sent)
                // Decoded after the latency is taken, to check that searches find something.
                if let res = try? v.frame.decode(SearchResults.self) {
                    hits += res.messages.count
                    if res.messages.isEmpty { emptyResults += 1 }
                }
            } else if v.type == .error {
                failure = failure ?? Setup.describeError(v)
            }
            answered = true
        }
        let poller = Poller([c])
        let deadline = Deadline(seconds: config.timeLimit)
        let m = Measurement(serverPID: target.pid)
        while done < config.w5Queries && failure == nil && !c.closed && !deadline.expired {
            let word = BenchText.word(Int(rng.next() % UInt64(vocabulary)))
            answered = false
            sent = nowNanos()
            awaiting = c.queue(SearchRequest(query: word, conversationID: 0, offset: 0, limit: 20))
            c.flush()
            while !answered && !c.closed && !deadline.expired { poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100)) }
            if answered { done += 1 }
        }
        m.finish(into: &r)
        c.close("done")
        r.count = Int(r.latency.totalCount)
        r.complete = failure == nil && stored == config.w5Messages && done == config.w5Queries && emptyResults < done
        r.extra = [("stored", "\(stored)"), ("fill_msgs_per_s", fmt(Double(stored) / max(fillSeconds, 1e-9), 0)),
                   ("vocabulary", "\(vocabulary)"), ("avg_results", fmt(done > 0 ? Double(hits) / Double(done) : 0, 1)),
                   ("empty_results", "\(emptyResults)")]
        r.error = failure ?? c.closedReason.flatMap { $0 == "done" ? nil : $0 }
            ?? (r.complete ? nil : "stored \(stored) of \(config.w5Messages), \(done) of \(config.w5Queries) searches, \(emptyResults) empty")
        return r
    }
}
