import Foundation

/// How the admin commands print: aligned columns, times in UTC, sizes in binary units.
extension ChatServer {
    static func table(_ rows: [[String]]) -> String {
        guard let columns = rows.map(\.count).max() else { return "" }
        let widths = (0..<columns).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func time(_ millis: UInt64) -> String {
        guard millis > 0 else { return "never" }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return f.string(from: Date(timeIntervalSince1970: Double(millis) / 1000))
    }

    static func size(_ bytes: UInt64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = 0
        while value >= 1024 && unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    func usersTable(_ accounts: [AccountRecord]) -> String {
        var rows = [["USER", "DISPLAY NAME", "LAST SEEN", "ONLINE", "STATE"]]
        for a in accounts {
            let connections = delivery.connections(of: a.user.id).count
            rows.append([a.user.username, a.user.displayName, connections > 0 ? "now" : Self.time(a.user.lastSeen),
                         "\(connections)", a.disabled ? "disabled" : "active"])
        }
        return Self.table(rows)
    }

    func accountDetails(_ a: AccountRecord) -> String {
        Self.table([
            ["user", "\(a.user.username) (id \(a.user.id))"],
            ["display name", a.user.displayName],
            ["email", a.user.email],
            ["created", Self.time(a.user.createdAt)],
            ["last seen", isOnline(a.user.id) ? "online now" : Self.time(a.user.lastSeen)],
            ["state", a.disabled ? "disabled since \(Self.time(a.disabledAt))" : "active"],
        ])
    }

    func sessionsTable(_ sessions: [SessionRecord]) -> String {
        var rows = [["SESSION", "DEVICE", "CREATED", "LAST USED", "ONLINE"]]
        for s in sessions {
            let online = delivery.connections(of: s.userID).filter { $0.sessionID == s.id }.count
            rows.append(["\(s.id)", s.device.isEmpty ? "-" : s.device, Self.time(s.createdAt), Self.time(s.lastUsedAt), "\(online)"])
        }
        return Self.table(rows)
    }

    func onlineTable() -> String {
        var rows = [["USER", "SESSION", "FROM", "SINCE", "CONNECTION"]]
        let logged = peers.values.compactMap { p in p.user.map { (user: $0, peer: p) } }
            .sorted { ($0.user.username, $0.peer.id) < ($1.user.username, $1.peer.id) }
        for (user, p) in logged {
            rows.append([user.username, "\(p.sessionID)", p.address, Self.time(p.connectedAt), "\(p.id)"])
        }
        let anonymous = peers.count - logged.count
        return Self.table(rows) + "\n\(logged.count) logged-in connection(s) of \(Set(logged.map { $0.user.id }).count) user(s)"
            + (anonymous > 0 ? "; \(anonymous) not logged in" : "")
    }
}
