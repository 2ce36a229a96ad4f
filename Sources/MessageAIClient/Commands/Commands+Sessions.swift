import Foundation
import MessageAIProtocol

/// /sessions, /revoke: the user's own sessions (devices logged in), the same list the server's
/// admin sees with `messageai-server admin sessions list USER` (issue 27).
enum SessionCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/sessions", "/sessions", "your sessions: the devices logged in as you, and which one this is",
                    server: true, run: list),
        CommandSpec("/revoke", "/revoke SESSION", "log out another of your sessions (a lost laptop); its connection closes at once",
                    server: true, args: 1...1, run: revoke),
    ]

    static func list(_ inv: Invocation) {
        inv.client.call(SessionsList(), for: inv, expect: Sessions.self) { answer in
            let rows: [[String: Any]] = answer.sessions.map {
                ["session_id": $0.sessionID, "device": $0.device, "created": $0.created, "last_used": $0.lastUsed, "current": $0.current]
            }
            let lines = answer.sessions.map { s in
                "#\(s.sessionID) \(s.device.isEmpty ? "?" : s.device), since \(day(s.created)), last used \(day(s.lastUsed))"
                    + (s.current ? " (this one)" : "")
            }
            inv.succeed("sessions", ["sessions": rows], plain: lines.isEmpty ? "no sessions" : lines.joined(separator: "\n"))
        }
    }

    static func revoke(_ inv: Invocation) {
        guard let id = UInt64(inv.args[0].trimmingCharacters(in: CharacterSet(charactersIn: "#"))) else {
            inv.fail(.usage("/revoke SESSION (a number from /sessions)"))
            return
        }
        // This session itself: /logout says what happens to the outbox and the saved token.
        inv.client.call(SessionsList(), for: inv, expect: Sessions.self) { answer in
            if answer.sessions.first(where: { $0.current })?.sessionID == id {
                inv.fail("invalid_argument", "#\(id) is this session: use /logout")
                return
            }
            inv.client.call(SessionRevoke(sessionID: id), for: inv, expect: OK.self) { _ in
                inv.succeed("ok", ["session_id": id], plain: "session #\(id) logged out")
            }
        }
    }

    private static func day(_ ms: UInt64) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
