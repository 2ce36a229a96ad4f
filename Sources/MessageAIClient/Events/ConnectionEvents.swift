import Foundation

/// The link to the server: "connection" events with a "state".
public enum ConnectionEvent: ClientEvent {
    /// Connected (and logged in if there is a session). `shown` false: an outage nobody was told of.
    case online(server: String, shown: Bool)
    /// The connection dropped; the client reconnects. `shown` false while logged out.
    case lost(reason: String, shown: Bool)
    /// The first attempts failed: offline until a reconnect succeeds.
    case offline(reason: String)
    /// Once per outage, when the first reconnect attempt starts.
    case reconnecting

    public var type: String { "connection" }

    public var jsonFields: [String: Any] {
        switch self {
        case .online(let server, _): return ["state": "online", "server": server]
        case .lost(let reason, _), .offline(let reason): return ["state": "offline", "reason": reason]
        case .reconnecting: return ["state": "reconnecting"]
        }
    }

    public var terminalLine: [Segment]? {
        switch self {
        case .online(let server, let shown): return shown ? Segment.line("* connected to \(server)") : nil
        case .lost(let reason, let shown): return shown ? Segment.line("* connection lost (\(reason)); reconnecting") : nil
        case .offline(let reason): return Segment.line("* offline: \(reason); retrying in the background")
        case .reconnecting: return nil
        }
    }
}
