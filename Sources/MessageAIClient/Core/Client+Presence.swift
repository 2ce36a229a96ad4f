import Foundation
import MessageAIProtocol

/// A contact's presence as this client last heard it (CONTACTS at each sync, PRESENCE pushes,
/// PROFILE answers); the prompt of a direct conversation shows it. Kept in memory only: it
/// is stale by the next start anyway, and the next sync brings it again.
public struct PeerPresence: Equatable {
    public var online: Bool
    public var lastSeen: UInt64
    public var away: Bool
    public var awayMessage: String
}

extension Client {
    func learn(_ p: Presence) {
        if p.user.userID == session?.userID {
            ownAway = p.away ? p.awayMessage : nil
        } else {
            peers[p.user.username.lowercased()] = PeerPresence(online: p.online, lastSeen: p.lastSeen, away: p.away, awayMessage: p.awayMessage)
        }
        onChange()
    }

    /// Presence is in a profile only for accepted contacts; anyone else's is unknown.
    func learn(_ p: Profile) {
        rememberAvatar(p)
        if p.user.userID == session?.userID {
            ownAway = p.away ? p.awayMessage : nil
            return
        }
        let key = p.user.username.lowercased()
        peers[key] = p.contactState == .accepted
            ? PeerPresence(online: p.online, lastSeen: p.lastSeen, away: p.away, awayMessage: p.awayMessage) : nil
    }

    /// After each sync: every contact's presence and the user's own away mark.
    func fetchPresence() {
        guard let me = session?.username else { return }
        link.request(ContactsList()) { [weak self] result in
            if case .success(let f) = result, f.type == .contacts, let list = try? f.decode(Contacts.self) {
                for p in list.contacts { self?.learn(p) }
                self?.onChange()
            }
            return true
        }
        link.request(ProfileGet(username: me)) { [weak self] result in
            if case .success(let f) = result, f.type == .profile, let p = try? f.decode(Profile.self) { self?.learn(p); self?.onChange() }
            return true
        }
    }

    public func presence(of username: String) -> PeerPresence? { peers[username.lowercased()] }

    /// "away: lunch", "away", "online", "seen 5m ago", or nil when unknown: not a contact, or
    /// this client is not online (what it last heard may no longer be true, so the offline
    /// prompt read `[bob (online)|offline, retrying]`; the next sync brings it again).
    public func presenceLabel(of username: String, now: UInt64 = Output.nowMs()) -> String? {
        guard link.state == .online, let p = presence(of: username) else { return nil }
        if p.away { return p.awayMessage.isEmpty ? "away" : "away: \(p.awayMessage)" }
        if p.online { return "online" }
        guard p.lastSeen > 0 else { return "offline" }
        return "seen \(RelativeTime.ago(p.lastSeen, now: now))"
    }
}

/// "just now", "5m ago", "3h ago", "2d ago": how long ago, in the largest whole unit.
public enum RelativeTime {
    public static func ago(_ ms: UInt64, now: UInt64) -> String {
        let s = now > ms ? (now - ms) / 1000 : 0
        switch s {
        case ..<60: return "just now"
        case ..<3_600: return "\(s / 60)m ago"
        case ..<86_400: return "\(s / 3_600)h ago"
        default: return "\(s / 86_400)d ago"
        }
    }
}

extension Client {
    /// The prompt's name of a conversation: a direct one with the peer's presence
    /// ("bob (away: lunch)", "bob (online)", "bob, seen 5m ago"), a group with its size.
    public func conversationTitle(_ cid: UInt64, now: UInt64 = Output.nowMs()) -> String {
        guard let c = try? store?.conversation(cid) else { return conversationName(cid, fallback: "#\(cid)") }
        switch c.kind {
        case .group:
            return "\(c.name), \(c.members.count) member\(c.members.count == 1 ? "" : "s")"
        case .direct:
            // The username, as /open and /dm take it; message lines show display names.
            let name = c.name
            guard let label = presenceLabel(of: c.name, now: now) else { return name }
            return label.hasPrefix("seen") ? "\(name), \(label)" : "\(name) (\(label))"
        }
    }

    /// How a person is named on screen: the display name when it says more than the username
    /// (not just its capitals), with the username beside it when it could be taken for someone
    /// else in `members` (the same display name, or another member's username), so that
    /// nobody can pass for another by choosing their name.
    public func displayLabel(_ user: UserInfo, among members: [UserInfo]) -> String {
        let shown = user.displayName.trimmingCharacters(in: .whitespaces)
        guard !shown.isEmpty, shown.lowercased() != user.username.lowercased() else { return user.username }
        let key = shown.lowercased()
        let confusable = members.contains { other in
            other.userID != user.userID && (other.username.lowercased() == key || other.displayName.lowercased() == key)
        }
        return confusable ? "\(shown) (\(user.username))" : shown
    }
}
