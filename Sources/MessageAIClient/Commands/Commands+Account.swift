import Foundation
import MessageAIProtocol

/// /register, /login, /logout, /whoami, /profile, /passwd, /name
enum AccountCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/register", "/register EMAIL USERNAME PASSWORD [DISPLAY NAME...]",
                    "create an account and log in (the password is asked for when left out in a terminal)",
                    login: false, server: true, args: 2...Int.max, run: register),
        CommandSpec("/login", "/login USERNAME_OR_EMAIL PASSWORD",
                    "log in; the session is saved and resumed on the next start",
                    login: false, server: true, args: 1...2, run: login),
        CommandSpec("/logout", "/logout", "end the session (queued messages stay in this account's outbox)",
                    run: logout),
        CommandSpec("/whoami", "/whoami", "show who is logged in", run: whoami),
        CommandSpec("/profile", "/profile [USER]", "show a profile (yours, a contact's or a conversation partner's)",
                    server: true, args: 0...1, run: profile),
        CommandSpec("/passwd", "/passwd OLD NEW", "change the password; every other session is logged out",
                    server: true, args: 2...2, run: passwd),
        CommandSpec("/name", "/name DISPLAY NAME...", "change your display name", server: true, args: 1...Int.max, run: name),
    ]

    /// The password given on the line, else asked for in a terminal (network events keep
    /// flowing while the prompt waits).
    private static func password(_ inv: Invocation, at index: Int, _ then: @escaping (String?) -> Void) {
        if index < inv.args.count { then(inv.args[index]); return }
        guard let ask = inv.client.passwordPrompt else { then(nil); return }
        ask("password: ", then)
    }

    static func register(_ inv: Invocation) {
        let a = inv.args
        password(inv, at: 2) { pw in
            guard let pw else { inv.fail(.usage("/register EMAIL USERNAME PASSWORD [DISPLAY NAME...]")); return }
            let msg = Register(email: a[0], username: a[1], password: pw, displayName: inv.rest(from: 3), device: "messageai-cli")
            authenticate(inv, msg)
        }
    }

    static func login(_ inv: Invocation) {
        password(inv, at: 1) { pw in
            guard let pw else { inv.fail(.usage("/login USERNAME_OR_EMAIL PASSWORD")); return }
            authenticate(inv, Login(login: inv.args[0], password: pw, device: "messageai-cli"))
        }
    }

    private static func authenticate<M: WireMessage>(_ inv: Invocation, _ msg: M) {
        let c = inv.client
        c.call(msg, needsSession: false) { result in
            if case .failure(let e) = result { inv.fail(e); return }
            c.sessionAnswer(result, fromLogin: true)
            guard let s = c.session, c.authenticated else { inv.fail("login_failed", "the server did not grant a session"); return }
            let verb = inv.name == "/register" ? "registered and logged in" : "logged in"
            inv.succeed("ok", ["username": s.username, "user_id": s.userID], plain: "\(verb) as \(s.username)")
        }
    }

    static func logout(_ inv: Invocation) {
        let c = inv.client
        let forget = {
            SavedSession.remove(dataDir: c.config.dataDir)
            c.closeAccount()
            inv.succeed(plain: "logged out")
        }
        guard c.authenticated else { forget(); return }
        c.call(Logout()) { _ in forget() }
    }

    static func whoami(_ inv: Invocation) {
        guard let s = inv.client.session else { inv.fail(.notLoggedIn); return }
        let state = inv.client.connectionLabel
        inv.succeed("whoami", ["username": s.username, "user_id": s.userID, "connection": state],
                    plain: "\(s.username) (\(state))")
    }

    static func profileFields(_ p: Profile) -> [String: Any] {
        var f: [String: Any] = ["username": p.user.username, "display_name": p.user.displayName, "online": p.online,
                                "last_seen": p.lastSeen, "state": PrivacyCommands.stateName(p.contactState), "away": p.away]
        if p.away { f["away_message"] = p.awayMessage }
        return f
    }

    static func profileLine(_ p: Profile) -> String {
        // The last-seen time is always shown, whatever the timestamps setting.
        let seen = p.online ? "online" : (p.lastSeen > 0 ? "last seen \(Output.day(p.lastSeen)) \(Output.clock(p.lastSeen, pattern: "HH:mm"))" : "offline")
        let away = p.away ? (p.awayMessage.isEmpty ? ", away" : ", away: \(p.awayMessage)") : ""
        let display = p.user.displayName.isEmpty ? "" : " (\(p.user.displayName))"
        return "\(p.user.username)\(display): \(seen)\(away)"
    }

    static func profile(_ inv: Invocation) {
        let who = inv.args.first ?? inv.client.session?.username ?? ""
        inv.client.call(ProfileGet(username: who), for: inv, expect: Profile.self) { p in
            inv.client.learn(p)
            // The picture is fetched into the cache (small: 128 px) before the profile shows.
            inv.client.avatarPath(p.avatarID) { path in
                var fields = profileFields(p)
                fields["avatar_id"] = Hex.encode(p.avatarID)
                if let path { fields["avatar_path"] = path }
                let picture = p.avatarID.isEmpty ? "" : (path.map { " · picture: \($0)" } ?? " · has a picture (not fetched)")
                inv.succeed("profile", fields, plain: PrivacyCommands.line(p) + picture)
                if let path { inv.client.drawAvatar(path) }
            }
        }
    }

    static func passwd(_ inv: Invocation) {
        inv.client.call(PasswordChange(oldPassword: inv.args[0], newPassword: inv.args[1]), for: inv, expect: OK.self) { _ in
            inv.succeed(plain: "password changed; other sessions were logged out")
        }
    }

    static func name(_ inv: Invocation) {
        inv.client.call(ProfileUpdate(displayName: inv.rest(from: 0)), for: inv, expect: Profile.self) { p in
            inv.succeed("ok", ["display_name": p.user.displayName], plain: "display name set to \(p.user.displayName)")
        }
    }
}
