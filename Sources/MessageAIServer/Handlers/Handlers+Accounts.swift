import MessageAIProtocol

/// REGISTER, LOGIN, RESUME: the ways a connection becomes logged in. They await the store and,
/// for a password, its hash off the hub (`passwordWork`); the connection's later frames wait
/// meanwhile (`runAwaiting`), so answers keep request order.
extension ChatServer {
    static let accountRoutes: [(FrameType, Route)] = [
        Route.openAwaiting(Register.self) { s, p, m, id in try await s.register(p, m, id) },
        Route.openAwaiting(Login.self) { s, p, m, id in try await s.login(p, m, id) },
        Route.openAwaiting(Resume.self) { s, p, m, id in try await s.resume(p, m, id) },
    ] + sessionRoutes

    func register(_ peer: Peer, _ r: Register, _ id: UInt32) async throws {
        guard peer.user == nil else { throw ServerError.alreadyLoggedIn }
        try Validation.email(r.email)
        try Validation.username(r.username)
        try Validation.password(r.password)
        try Validation.displayName(r.displayName)
        try Validation.device(r.device)
        // Cheap checks first, so a taken name costs no hashing. The insert below still decides
        // a race between two connections registering the same name.
        if try await store.user(username: r.username) != nil { throw ServerError.usernameTaken }
        if try await store.user(login: r.email) != nil { throw ServerError.emailTaken }
        // Each registration costs a password hash: an address gets a few an hour.
        if let wait = try await takeRegistration(peer.address) {
            throw ServerError.throttled(.registrations, retryAfter: wait)
        }
        let rounds = configuration.pbkdf2Rounds
        guard let hash = try await passwordWork(peer, { PasswordHasher.hash(r.password, rounds: rounds) }) else { return }
        let now = Clock.nowMillis()
        let displayName = r.displayName.isEmpty ? r.username : r.displayName
        let user = try await store.createUser(email: r.email, username: r.username, displayName: displayName, passwordHash: hash, now: now)
        logger.info("registered user \(user.id) '\(user.username)'")
        metrics.registrations.increment()
        await recordLogin(account: ChatServer.throttleKey(user), address: peer.address)
        try await grantSession(peer, user: user, device: r.device, requestID: id)
    }

    func login(_ peer: Peer, _ l: Login, _ id: UInt32) async throws {
        guard peer.user == nil else { throw ServerError.alreadyLoggedIn }
        try Validation.device(l.device)
        let user = try await store.user(login: l.login)
        // Username and email of one account share a counter; unknown names count on their own.
        let accountKey = user.map(ChatServer.throttleKey) ?? "login:" + l.login.lowercased()
        let address = peer.address
        let attempt: PasswordAttempt
        switch try await beginPasswordAttempt(account: accountKey, address: address) {
        case .failure(let wait): throw ServerError.throttled(.logins, retryAfter: wait.millis)
        case .success(let started): attempt = started
        }
        // An unknown user costs the same hashing as a wrong password: same answer, same time.
        let stored = user?.passwordHash
        let decoy = self.decoy
        let verified: Bool?
        do {
            verified = try await passwordWork(peer, { PasswordHasher.verify(l.password, against: stored ?? decoy.value) })
        } catch {
            await endPasswordAttempt(attempt, .notAFailure) // refused before any check (`server_busy`)
            throw error
        }
        guard let ok = verified else { await endPasswordAttempt(attempt, .notAFailure); return }  // the connection went
        guard ok, let user else {
            metrics.loginsFailed.increment()
            await endPasswordAttempt(attempt, .failed)
            throw ServerError.wrongPassword
        }
        await endPasswordAttempt(attempt, .succeeded)
        // Checked after the password, so the answer tells only its owner the account is disabled.
        if try await store.admin?.isDisabled(userID: user.id) == true {
            metrics.loginsFailed.increment()
            throw ServerError.accountDisabled(.admin)
        }
        metrics.loginsOK.increment()
        try await grantSession(peer, user: user, device: l.device, requestID: id)
    }

    func resume(_ peer: Peer, _ r: Resume, _ id: UInt32) async throws {
        guard peer.user == nil else { throw ServerError.alreadyLoggedIn }
        guard r.token.count == 32, let session = try await store.session(tokenHash: SessionToken.hash(r.token)),
              let user = try await store.user(id: session.userID) else {
            metrics.loginsFailed.increment()
            throw ServerError.sessionEnded
        }
        if try await store.admin?.isDisabled(userID: user.id) == true {
            metrics.loginsFailed.increment()
            throw ServerError.accountDisabled(.admin)
        }
        try await store.touchSession(id: session.id, now: Clock.nowMillis())
        // A valid token is the owner: never throttled, and this address becomes a usual one.
        await recordLogin(account: ChatServer.throttleKey(user), address: peer.address)
        metrics.loginsOK.increment()
        await attachUser(peer, user: user, sessionID: session.id)
        peer.reply(id, SessionGranted(token: [], sessionID: session.id, user: user.info))
    }

    static func throttleKey(_ user: UserRecord) -> String { "user:\(user.id)" }

    /// A new session for `user` on this connection: the token goes to the client once, its
    /// hash to the store.
    private func grantSession(_ peer: Peer, user: UserRecord, device: String, requestID: UInt32) async throws {
        let token = SessionToken.generate()
        let session = try await store.createSession(userID: user.id, tokenHash: SessionToken.hash(token), device: device, now: Clock.nowMillis())
        await attachUser(peer, user: user, sessionID: session.id)
        peer.reply(requestID, SessionGranted(token: token, sessionID: session.id, user: user.info))
    }
}
