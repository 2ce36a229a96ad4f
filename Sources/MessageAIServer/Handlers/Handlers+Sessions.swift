import MessageAIAssistant
import MessageAIProtocol

/// What a logged-in user does with their account: sessions, profile, password.
extension ChatServer {
    static let sessionRoutes: [(FrameType, Route)] = [
        Route.awaiting(Logout.self) { s, c, _ in try await s.logout(c) },
        Route.awaiting(SessionsList.self) { s, c, _ in try await s.listSessions(c) },
        Route.awaiting(SessionRevoke.self) { s, c, m in try await s.revokeSession(c, m) },
        Route.awaiting(ProfileUpdate.self) { s, c, m in try await s.updateProfile(c, m) },
        Route.awaiting(PasswordChange.self) { s, c, m in try await s.changePassword(c, m) },
    ]

    func logout(_ ctx: RequestContext) async throws {
        let user = ctx.user
        let sessionID = ctx.sessionID
        _ = try await store.deleteSession(id: sessionID, userID: user.id)
        ctx.reply(OK())
        // Other connections resumed with the same token end too.
        closeSessions([sessionID], of: user.id, except: ctx.peer)
        detachUser(ctx.peer)
    }

    func listSessions(_ ctx: RequestContext) async throws {
        let sessions = try await store.sessions(userID: ctx.user.id).map {
            SessionInfo(sessionID: $0.id, device: $0.device, created: $0.createdAt, lastUsed: $0.lastUsedAt, current: $0.id == ctx.sessionID)
        }
        ctx.reply(Sessions(sessions: sessions))
    }

    func revokeSession(_ ctx: RequestContext, _ r: SessionRevoke) async throws {
        let user = ctx.user
        guard try await store.deleteSession(id: r.sessionID, userID: user.id) else {
            throw ServerError.notFound(.session(r.sessionID))
        }
        ctx.reply(OK())
        closeSessions([r.sessionID], of: user.id, except: ctx.peer)
        if r.sessionID == ctx.sessionID { detachUser(ctx.peer) }
    }

    /// The display name, the time zone or both (a field left out is unchanged). Both are
    /// checked before either is stored, so a bad one changes nothing.
    func updateProfile(_ ctx: RequestContext, _ u: ProfileUpdate) async throws {
        if let name = u.displayName { try Validation.displayName(name) }
        // Empty clears it ("not known": due dates are placed in UTC). The value is not echoed:
        // it may be anything up to the frame limit.
        if let zone = u.timeZone, !zone.isEmpty, !TimeZoneName.isValid(zone) {
            throw ServerError.invalidArgument(.notATimeZone)
        }
        var user = ctx.user
        if let given = u.displayName {
            let name = given.isEmpty ? user.username : given
            try await store.setDisplayName(userID: user.id, name)
            user.displayName = name
        }
        if let zone = u.timeZone, zone != user.timeZone {
            try await store.setTimeZone(userID: user.id, zone)
            user.timeZone = zone
        }
        for p in delivery.connections(of: user.id) { p.user = user }
        ctx.reply(try await ownProfile(user))
    }

    func changePassword(_ ctx: RequestContext, _ c: PasswordChange) async throws {
        try Validation.password(c.newPassword, field: "new_password")
        let user = ctx.user
        let accountKey = ChatServer.throttleKey(user)
        let address = ctx.peer.address
        // Read before the attempt is counted: a failed read leaves no failure behind.
        let stored = try await store.user(id: user.id)?.passwordHash
        let attempt: PasswordAttempt
        switch try await beginPasswordAttempt(account: accountKey, address: address) {
        case .failure(let wait): throw ServerError.throttled(.passwordAttempts, retryAfter: wait.millis)
        case .success(let started): attempt = started
        }
        let decoy = self.decoy
        let rounds = configuration.pbkdf2Rounds
        let outcome: String??
        do {
            // The new hash, or nil when the old password was wrong.
            outcome = try await passwordWork(ctx.peer, { () -> String? in
                PasswordHasher.verify(c.oldPassword, against: stored ?? decoy.value) ? PasswordHasher.hash(c.newPassword, rounds: rounds) : nil
            })
        } catch {
            await endPasswordAttempt(attempt, .notAFailure) // refused before any check (`server_busy`)
            throw error
        }
        guard let newHash = outcome else { await endPasswordAttempt(attempt, .notAFailure); return }  // the connection went
        guard let newHash else {
            await endPasswordAttempt(attempt, .failed)
            throw ServerError.wrongCurrentPassword
        }
        await endPasswordAttempt(attempt, .notAFailure)
        try await store.setPasswordHash(userID: user.id, newHash)
        let revoked = try await store.deleteSessions(userID: user.id, except: ctx.sessionID)
        ctx.reply(OK())
        closeSessions(revoked, of: user.id, except: ctx.peer)
        logger.info("user \(user.id) changed password; \(revoked.count) other session(s) revoked")
    }

    /// Closes every connection logged in with one of `sessionIDs` (their token no longer works).
    func closeSessions(_ sessionIDs: [UInt64], of userID: UInt64, except: Peer?) {
        let ids = Set(sessionIDs)
        for p in delivery.connections(of: userID) where p !== except && ids.contains(p.sessionID) {
            detachUser(p)
            p.connection.close(after: ServerError.sessionRevoked.frame)
        }
    }
}
