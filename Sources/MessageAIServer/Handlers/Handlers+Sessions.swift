import MessageAIAssistant
import MessageAIProtocol

/// What a logged-in user does with their account: sessions, profile, password.
extension ChatServer {
    static let sessionRoutes: [(FrameType, Route)] = [
        Route.on(Logout.self) { s, p, _, id in try s.logout(p, id) },
        Route.on(SessionsList.self) { s, p, _, id in try s.listSessions(p, id) },
        Route.on(SessionRevoke.self) { s, p, m, id in try s.revokeSession(p, m, id) },
        Route.on(ProfileUpdate.self) { s, p, m, id in try s.updateProfile(p, m, id) },
        Route.on(PasswordChange.self) { s, p, m, id in try s.changePassword(p, m, id) },
    ]

    func logout(_ peer: Peer, _ id: UInt32) throws {
        guard let user = peer.user else { return }
        let sessionID = peer.sessionID
        _ = try store.deleteSession(id: sessionID, userID: user.id)
        peer.reply(id, OK())
        // Other connections resumed with the same token end too.
        closeSessions([sessionID], of: user.id, except: peer)
        detachUser(peer)
    }

    func listSessions(_ peer: Peer, _ id: UInt32) throws {
        let sessions = try store.sessions(userID: peer.user!.id).map {
            SessionInfo(sessionID: $0.id, device: $0.device, created: $0.createdAt, lastUsed: $0.lastUsedAt, current: $0.id == peer.sessionID)
        }
        peer.reply(id, Sessions(sessions: sessions))
    }

    func revokeSession(_ peer: Peer, _ r: SessionRevoke, _ id: UInt32) throws {
        let user = peer.user!
        guard try store.deleteSession(id: r.sessionID, userID: user.id) else {
            throw ErrorFrame(.notFound, "no session \(r.sessionID)", field: "session_id")
        }
        peer.reply(id, OK())
        closeSessions([r.sessionID], of: user.id, except: peer)
        if r.sessionID == peer.sessionID { detachUser(peer) }
    }

    /// The display name, the time zone or both (a field left out is unchanged). Both are
    /// checked before either is stored, so a bad one changes nothing.
    func updateProfile(_ peer: Peer, _ u: ProfileUpdate, _ id: UInt32) throws {
        if let name = u.displayName { try Validation.displayName(name) }
        // Empty clears it ("not known": due dates are placed in UTC). The value is not echoed:
        // it may be anything up to the frame limit.
        if let zone = u.timeZone, !zone.isEmpty, !TimeZoneName.isValid(zone) {
            throw ErrorFrame(.invalidArgument, "not a time zone: an IANA name such as Asia/Tokyo, or an offset from -12:00 to +14:00 such as +09:00",
                             field: "time_zone")
        }
        var user = peer.user!
        if let given = u.displayName {
            let name = given.isEmpty ? user.username : given
            try store.setDisplayName(userID: user.id, name)
            user.displayName = name
        }
        if let zone = u.timeZone, zone != user.timeZone {
            try store.setTimeZone(userID: user.id, zone)
            user.timeZone = zone
        }
        for p in connections(of: [user.id]) { p.user = user }
        peer.reply(id, try ownProfile(user))
    }

    func changePassword(_ peer: Peer, _ c: PasswordChange, _ id: UInt32) throws {
        try Validation.password(c.newPassword, field: "new_password")
        let user = peer.user!
        let accountKey = ChatServer.throttleKey(user)
        let address = peer.address
        if let wait = loginThrottle.retryAfter(account: accountKey, address: address, now: Clock.uptimeMillis()) {
            throw ErrorFrame(.throttled, "too many failed attempts; try again in \((wait + 999) / 1000) s", retryAfter: wait)
        }
        let stored = try store.user(id: user.id)?.passwordHash
        let decoy = self.decoy
        let rounds = configuration.pbkdf2Rounds
        let attempt = loginThrottle.begin(account: accountKey, address: address, now: Clock.uptimeMillis())
        do {
            try offHub(peer, { () -> String? in
                PasswordHasher.verify(c.oldPassword, against: stored ?? decoy.value) ? PasswordHasher.hash(c.newPassword, rounds: rounds) : nil
            }, then: { [self] newHash in changedPassword(peer, user, newHash, attempt, id) })
        } catch {
            loginThrottle.cancel(attempt) // refused before any check (`server_busy`)
            throw error
        }
    }

    /// PASSWORD_CHANGE back on the hub with the new hash, or nil when the old password was wrong.
    private func changedPassword(_ peer: Peer, _ user: UserRecord, _ newHash: String?, _ attempt: LoginAttempt, _ id: UInt32) {
        do {
            guard let newHash else {
                loginThrottle.failed(attempt, now: Clock.uptimeMillis())
                throw ErrorFrame(.invalidCredentials, "the current password is wrong", field: "old_password")
            }
            loginThrottle.cancel(attempt)
            try store.setPasswordHash(userID: user.id, newHash)
            let revoked = try store.deleteSessions(userID: user.id, except: peer.sessionID)
            peer.reply(id, OK())
            closeSessions(revoked, of: user.id, except: peer)
            logger.info("user \(user.id) changed password; \(revoked.count) other session(s) revoked")
        } catch {
            report(error, for: Frame(type: .passwordChange, requestID: id), to: peer)
        }
    }

    /// Closes every connection logged in with one of `sessionIDs` (their token no longer works).
    func closeSessions(_ sessionIDs: [UInt64], of userID: UInt64, except: Peer?) {
        let ids = Set(sessionIDs)
        for p in connections(of: [userID]) where p !== except && ids.contains(p.sessionID) {
            var error = ErrorFrame(.invalidToken, "this session was revoked")
            error.closes = true
            detachUser(p)
            p.connection.close(after: error)
        }
    }
}
