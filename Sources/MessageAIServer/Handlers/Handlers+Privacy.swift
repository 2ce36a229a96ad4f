import MessageAIProtocol

/// Contact consent and blocking. A blocked user is never told: their requests are stored but
/// not shown, they see the blocker as any non-contact, and a SEND into their direct
/// conversation with the blocker is refused with the same words as any undeliverable message.
extension ChatServer {
    static let privacyRoutes: [(FrameType, Route)] = [
        Route.awaiting(ContactAccept.self) { s, c, m in try await s.acceptContact(c, m) },
        Route.awaiting(ContactDecline.self) { s, c, m in try await s.declineContact(c, m) },
        Route.awaiting(Block.self) { s, c, m in try await s.block(c, m) },
        Route.awaiting(Unblock.self) { s, c, m in try await s.unblock(c, m) },
        Route.awaiting(BlockedList.self) { s, c, _ in try await s.blockedList(c) },
    ]

    func acceptContact(_ ctx: RequestContext, _ a: ContactAccept) async throws {
        let me = ctx.user
        let other = try await existingUser(a.username)
        guard try await store.contactLink(me.id, other.id).theyWant else {
            throw ServerError.notFound(.contactRequest(from: other.username))
        }
        let added = try await store.addContact(owner: me.id, contact: other.id, now: Clock.nowMillis())
        try await store.acceptDirectRequests(me.id, other.id)
        let link = try await store.contactLink(me.id, other.id)
        ctx.reply(await profile(of: other, link))
        if added { try await announceContact(me, to: other.id) }
    }

    func declineContact(_ ctx: RequestContext, _ d: ContactDecline) async throws {
        let other = try await existingUser(d.username)
        try await store.declineContact(owner: ctx.user.id, requester: other.id)
        ctx.reply(OK())
    }

    /// Tells `target`'s sessions that `user` asked them (incoming) or accepted them (accepted,
    /// with presence) — unless `target` blocks or declined `user`.
    func announceContact(_ user: UserRecord, to target: UInt64) async throws {
        let link = try await store.contactLink(target, user.id)
        let state = Self.contactState(link)
        guard state == .incoming || state == .accepted, !link.iBlock else { return }
        let frame = ContactUpdate(profile: await profile(of: user, link)).frame(requestID: 0)
        delivery.send(frame, to: [target])
    }

    func block(_ ctx: RequestContext, _ b: Block) async throws {
        let me = ctx.user
        let other = try await existingUser(b.username)
        guard other.id != me.id else { throw ServerError.invalidArgument(.blockSelf) }
        try await store.block(blocker: me.id, blocked: other.id, now: Clock.nowMillis())
        ctx.reply(OK())
    }

    func unblock(_ ctx: RequestContext, _ u: Unblock) async throws {
        let other = try await existingUser(u.username)
        try await store.unblock(blocker: ctx.user.id, blocked: other.id)
        ctx.reply(OK())
    }

    func blockedList(_ ctx: RequestContext) async throws {
        let blocked = try await store.blockedUsers(blocker: ctx.user.id)
        ctx.reply(Users(users: blocked.map(\.info)))
    }

    /// SEND into a direct conversation where either side blocks the other is refused. The
    /// blocker is told why; the blocked user gets the generic words.
    func requireNotBlocked(_ membership: Membership, _ userID: UInt64) async throws {
        guard let other = membership.blockedPartner else { return }
        if try await store.contactLink(userID, other).iBlock {
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
