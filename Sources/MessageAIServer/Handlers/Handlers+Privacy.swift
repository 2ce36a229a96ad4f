import MessageAIProtocol

/// Contact consent and blocking. A blocked user is never told: their requests are stored but
/// not shown, they see the blocker as any non-contact, and a SEND into their direct
/// conversation with the blocker is refused with the same words as any undeliverable message.
extension ChatServer {
    static let privacyRoutes: [(FrameType, Route)] = [
        Route.on(ContactAccept.self) { s, c, m in try s.acceptContact(c, m) },
        Route.on(ContactDecline.self) { s, c, m in try s.declineContact(c, m) },
        Route.on(Block.self) { s, c, m in try s.block(c, m) },
        Route.on(Unblock.self) { s, c, m in try s.unblock(c, m) },
        Route.on(BlockedList.self) { s, c, _ in try s.blockedList(c) },
    ]

    func acceptContact(_ ctx: RequestContext, _ a: ContactAccept) throws {
        let me = ctx.user
        let other = try existingUser(a.username)
        guard try sqlite.contactLink(me.id, other.id).theyWant else {
            throw ServerError.notFound(.contactRequest(from: other.username))
        }
        let added = try sqlite.addContact(owner: me.id, contact: other.id, now: Clock.nowMillis())
        try sqlite.acceptDirectRequests(me.id, other.id)
        ctx.reply(profile(of: other, try sqlite.contactLink(me.id, other.id)))
        if added { try announceContact(me, to: other.id) }
    }

    func declineContact(_ ctx: RequestContext, _ d: ContactDecline) throws {
        let other = try existingUser(d.username)
        try sqlite.declineContact(owner: ctx.user.id, requester: other.id)
        ctx.reply(OK())
    }

    /// Tells `target`'s sessions that `user` asked them (incoming) or accepted them (accepted,
    /// with presence) — unless `target` blocks or declined `user`.
    func announceContact(_ user: UserRecord, to target: UInt64) throws {
        let link = try sqlite.contactLink(target, user.id)
        let state = Self.contactState(link)
        guard state == .incoming || state == .accepted, !link.iBlock else { return }
        let frame = ContactUpdate(profile: profile(of: user, link)).frame(requestID: 0)
        delivery.send(frame, to: [target])
    }

    func block(_ ctx: RequestContext, _ b: Block) throws {
        let me = ctx.user
        let other = try existingUser(b.username)
        guard other.id != me.id else { throw ServerError.invalidArgument(.blockSelf) }
        try sqlite.block(blocker: me.id, blocked: other.id, now: Clock.nowMillis())
        ctx.reply(OK())
    }

    func unblock(_ ctx: RequestContext, _ u: Unblock) throws {
        let other = try existingUser(u.username)
        try sqlite.unblock(blocker: ctx.user.id, blocked: other.id)
        ctx.reply(OK())
    }

    func blockedList(_ ctx: RequestContext) throws {
        ctx.reply(Users(users: try sqlite.blockedUsers(blocker: ctx.user.id).map(\.info)))
    }

    /// SEND into a direct conversation where either side blocks the other is refused. The
    /// blocker is told why; the blocked user gets the generic words.
    func requireNotBlocked(_ membership: Membership, _ user: UserRecord) async throws {
        guard let other = membership.blockedPartner else { return }
        if try await store.contactLink(user.id, other).iBlock {
            throw ServerError.notAContact(.youBlocked)
        }
        throw ServerError.notAContact(.undeliverable)
    }

    /// A group cannot be given members who block the user adding them; the refusal reads like
    /// any user who cannot be added.
    func requireNoBlockers(_ candidates: [UserRecord], adder: UInt64) async throws {
        let blockers = try await store.blockers(of: adder, among: candidates.map(\.id))
        if let first = candidates.first(where: { blockers.contains($0.id) }) {
            throw ServerError.notAContact(.cannotJoinGroup(first.username))
        }
    }
}
