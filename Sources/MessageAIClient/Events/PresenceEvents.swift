import Foundation
import MessageAIProtocol

/// A contact came online, went offline, or marked themselves away or back: "presence" events.
/// `away` and `away_message` (only while away) were added after 0.2.0; the other keys are unchanged.
public struct PresenceEvent: ClientEvent {
    public let presence: Presence
    /// What was known of them before, to tell "is away" and "is back" from coming online.
    public let before: PeerPresence?

    public var type: String { "presence" }

    public var jsonFields: [String: Any] {
        let p = presence
        var f: [String: Any] = ["user": p.user.username, "online": p.online]
        if p.lastSeen > 0 { f["last_seen"] = p.lastSeen }
        // Only while away, so the lines of people who never use /away keep their old bytes;
        // "back" is a presence event without "away".
        if p.away { f["away"] = true; f["away_message"] = p.awayMessage }
        return f
    }

    /// `* bob is away: lunch`, `* bob is back`, `* bob is offline (away: lunch)`.
    public var terminalLine: [Segment]? {
        let p = presence
        let name = p.user.username
        let away = p.awayMessage.isEmpty ? "away" : "away: \(p.awayMessage)"
        if p.online && before?.online == true && before?.away != p.away {
            return Segment.line(p.away ? "* \(name) is \(away)" : "* \(name) is back")
        }
        return Segment.line("* \(name) is \(p.online ? "online" : "offline")" + (p.away ? " (\(away))" : ""))
    }
}
