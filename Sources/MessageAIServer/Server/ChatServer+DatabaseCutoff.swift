import MessageAIProtocol

/// A node cut off from the database while the others reach it (several nodes, issue 26).
///
/// It acknowledges nothing meanwhile: a SEND waits for its commit, which fails with
/// `database_unavailable` (77) once the store gives up (5 s), and the client's outbox keeps
/// it. Other nodes may well reach the database, so past `--database-cutoff` without it this
/// node hands its clients over: it closes every client connection with 77 (`closes` set) and
/// answers each new HELLO the same way, so a client given several addresses (`--server a,b`)
/// or behind a balancer reconnects to another node and its outbox resends there. It takes
/// clients again at the first read of the event log that reaches the database.
///
/// The event log's reader (ChatServer+EventLog.swift) is the probe: it reads once a second
/// anyway, so a cutoff is seen to within a second. The default, 10 s, is longer than a database
/// restart takes (scenario 73: the nodes keep their clients through it); every node cut off at
/// once moves clients around for nothing, which is harmless: they come back when the database
/// does. `--database-cutoff off` keeps the clients (one node, or no other node to go to).
extension ChatServer {
    static var cutOffFrame: ErrorFrame {
        var frame = ErrorFrame(.databaseUnavailable, "this server cannot reach its database; connect to another one", retryAfter: 1_000)
        frame.closes = true
        return frame
    }

    /// Past the cutoff: clients are handed over to other nodes.
    var handingOver: Bool {
        guard let since = databaseDownSince, let cutoff = configuration.databaseCutoffMillis else { return false }
        return Clock.uptimeMillis() &- since >= cutoff
    }

    /// The event log's reader's verdict on one read, begun at `askedAt` (uptime ms).
    func databaseAnswered(_ reached: Bool, askedAt: UInt64) {
        if reached {
            if clientsHandedOver { logger.notice("database reachable again: taking clients") }
            databaseDownSince = nil
            clientsHandedOver = false
            return
        }
        if databaseDownSince == nil { databaseDownSince = askedAt }
        guard handingOver else { return }
        let peers = Array(self.peers.values)
        if !clientsHandedOver {
            clientsHandedOver = true
            let millis = configuration.databaseCutoffMillis ?? 0
            let seconds = millis % 1000 == 0 ? "\(millis / 1000)" : "\(Double(millis) / 1000)"
            logger.warning("database unreachable for \(seconds) s: closing \(peers.count) connection(s) so that their clients move to another node")
        }
        for peer in peers { peer.connection.close(after: Self.cutOffFrame) }
    }
}
