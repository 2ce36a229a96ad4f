import MessageAIProtocol

/// A 16-byte client_id unique within a run: the sender's slot and the bench sequence number.
func clientID(sender: Int, seq: Int) -> [UInt8] {
    var id = [UInt8](repeating: 0, count: 16)
    var s = UInt64(sender), q = UInt64(seq)
    for i in 0..<8 { id[7 - i] = UInt8(truncatingIfNeeded: s); s >>= 8; id[15 - i] = UInt8(truncatingIfNeeded: q); q >>= 8 }
    return id
}

/// Stores messages as fast as the server acknowledges them: each sender keeps at most `window`
/// SENDs unacknowledged. Used to fill conversations before W4 and W5 measure; the connections
/// in `drain` are read so that pushes never pile up.
struct Populator {
    var senders: [(connection: Connection, conversationID: UInt64)]
    var window = 64
    var drain: [Connection] = []

    /// Returns how many messages were acknowledged (all of them unless the deadline passed).
    func send(total: Int, deadline: Deadline, text: (Int) -> String) throws -> Int {
        var inFlight = [Int](repeating: 0, count: senders.count)
        var next = 0, acked = 0
        var failure: String?
        for (i, s) in senders.enumerated() {
            s.connection.onFrame = { v in
                if v.type == .sendAck { inFlight[i] -= 1; acked += 1 }
                else if v.type == .error { failure = failure ?? Setup.describeError(v) }
            }
        }
        defer { for s in senders { s.connection.onFrame = { _ in } } }
        let poller = Poller(senders.map(\.connection) + drain)
        while acked < total {
            if let failure { throw BenchError("SEND failed: \(failure)") }
            if deadline.expired { return acked }
            for (i, s) in senders.enumerated() {
                while inFlight[i] < window && next < total {
                    s.connection.queue(Send(conversationID: s.conversationID, clientID: clientID(sender: i, seq: next), text: text(next)))
                    inFlight[i] += 1; next += 1
                }
                s.connection.flush()
            }
            poller.pollOnce(timeoutMillis: deadline.remainingMillis(cap: 100))
            if let dead = poller.connections.count < senders.count + drain.count ? (senders.map(\.connection) + drain).first(where: { $0.closed }) : nil {
                throw BenchError("connection closed while storing messages: \(dead.closedReason ?? "")")
            }
        }
        return acked
    }
}
