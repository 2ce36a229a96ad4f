import MessageAIProtocol

/// Direct conversations and groups. Every membership change is pushed (CONVERSATION, id 0)
/// to the members' connections, each seeing its own view (unread count, markers).
extension ChatServer {
    static let conversationRoutes: [(FrameType, Route)] = [
        Route.awaiting(DMOpen.self) { s, c, m in try await s.openDirect(c, m) },
        Route.awaiting(GroupCreate.self) { s, c, m in try await s.createGroup(c, m) },
        Route.awaiting(GroupAdd.self) { s, c, m in try await s.addToGroup(c, m) },
        Route.awaiting(GroupRename.self) { s, c, m in try await s.renameGroup(c, m) },
        Route.awaiting(GroupLeave.self) { s, c, m in try await s.leaveGroup(c, m) },
        Route.awaiting(ConversationsList.self) { s, c, _ in
            let list = try await s.store.conversationList(userID: c.user.id).map { c.peer.shown(Conversation($0)) }
            c.reply(Conversations(conversations: list), compress: true)
        },
    ]

    func openDirect(_ ctx: RequestContext, _ o: DMOpen) async throws {
        let me = ctx.user
        let other = try await existingUser(o.username)
        guard other.id != me.id else { throw ServerError.invalidArgument(.directWithSelf) }
        let (record, created) = try await store.directConversation(me.id, other.id, now: Clock.nowMillis())
        if created { delivery.membershipChanged() }
        ctx.reply(try await view(record.id, for: me.id))
        guard created else { return }
        // Someone who blocks the opener is not shown the new (message request) conversation.
        let blocked = try await store.contactLink(other.id, me.id).iBlock
        await pushConversation(record.id, to: blocked ? [me.id] : [me.id, other.id], except: ctx.peer)
    }

    func createGroup(_ ctx: RequestContext, _ g: GroupCreate) async throws {
        let me = ctx.user
        try Validation.groupName(g.name)
        let others = try await distinctUsers(g.usernames, excluding: me.id)
        guard others.count >= 2 else {
            throw ServerError.invalidArgument(.groupTooSmall)
        }
        try await requireNoBlockers(others, adder: me.id)
        try requireGroupRoom(for: others.count + 1)
        let record = try await store.createGroup(name: g.name, creator: me.id, members: others.map(\.id), now: Clock.nowMillis())
        delivery.membershipChanged()
        ctx.reply(try await view(record.id, for: me.id))
        await pushConversation(record.id, to: [me.id] + others.map(\.id), except: ctx.peer)
    }

    func addToGroup(_ ctx: RequestContext, _ a: GroupAdd) async throws {
        let me = ctx.user
        _ = try await group(a.conversationID, member: me.id)
        let current = Set(try await store.memberIDs(conversationID: a.conversationID))
        let added = try await distinctUsers(a.usernames, excluding: me.id).filter { !current.contains($0.id) }
        guard !added.isEmpty else {
            // Everyone named is a member already: nothing changes, nothing is pushed.
            ctx.reply(try await view(a.conversationID, for: me.id))
            return
        }
        try await requireNoBlockers(added, adder: me.id)
        try requireGroupRoom(for: current.count + added.count)
        try await store.addMembers(conversationID: a.conversationID, userIDs: added.map(\.id), now: Clock.nowMillis())
        delivery.membershipChanged()
        ctx.reply(try await view(a.conversationID, for: me.id))
        await pushConversation(a.conversationID, to: Array(current) + added.map(\.id), except: ctx.peer)
        await announceItems(a.conversationID, to: added.map(\.id))
    }

    func renameGroup(_ ctx: RequestContext, _ r: GroupRename) async throws {
        let me = ctx.user
        try Validation.groupName(r.name)
        _ = try await group(r.conversationID, member: me.id)
        try await store.renameGroup(conversationID: r.conversationID, name: r.name)
        let members = try await store.memberIDs(conversationID: r.conversationID)
        ctx.reply(try await view(r.conversationID, for: me.id))
        await pushConversation(r.conversationID, to: members, except: ctx.peer)
    }

    func leaveGroup(_ ctx: RequestContext, _ l: GroupLeave) async throws {
        let me = ctx.user
        _ = try await group(l.conversationID, member: me.id)
        try await store.removeMember(conversationID: l.conversationID, userID: me.id)
        delivery.membershipChanged()
        let members = try await store.memberIDs(conversationID: l.conversationID)
        ctx.reply(OK())
        await pushConversation(l.conversationID, to: members, except: ctx.peer)
    }

    // MARK: Helpers

    /// The conversation, if it is a group and `member` belongs to it. Membership is checked
    /// first, and an unknown id gets the same `not_a_member`: no answer tells a user which
    /// conversation ids exist.
    func group(_ conversationID: UInt64, member: UInt64) async throws -> ConversationRecord {
        try await requireMember(conversationID, member)
        guard let record = try await store.conversation(id: conversationID) else {
            throw ServerError.notAMember(conversation: conversationID)
        }
        guard record.kind == .group else {
            throw ServerError.invalidArgument(.notAGroup(conversation: conversationID))
        }
        return record
    }

    func requireGroupRoom(for members: Int) throws {
        guard members <= Validation.maxGroupMembers else {
            throw ServerError.invalidArgument(.groupTooLarge(max: Validation.maxGroupMembers, members: members))
        }
    }

    /// Fails with not_a_member unless `userID` belongs to the conversation.
    /// Also returns what SEND, MARK and TYPING need (message request, block), from the same query.
    @discardableResult
    func requireMember(_ conversationID: UInt64, _ userID: UInt64) async throws -> Membership {
        guard let membership = try await store.membership(conversationID: conversationID, userID: userID) else {
            throw ServerError.notAMember(conversation: conversationID)
        }
        return membership
    }

    func view(_ conversationID: UInt64, for userID: UInt64) async throws -> Conversation {
        guard let c = try await store.conversationView(id: conversationID, userID: userID) else {
            throw ServerError.notFound(.conversation(conversationID))
        }
        return Conversation(c)
    }

    /// Pushes each user's own view of the conversation to their connections. Never throws:
    /// the request was already answered, and a push that fails is only logged.
    /// Each view is read for the users online when the push starts.
    func pushConversation(_ conversationID: UInt64, to users: [UInt64], except: Peer?) async {
        var frames: [UInt64: Frame] = [:]
        for userID in users where delivery.isOnline(userID) {
            do {
                frames[userID] = try await view(conversationID, for: userID).frame(requestID: 0)
            } catch {
                logger.error("CONVERSATION push of \(conversationID) to user \(userID) failed: \(error)")
            }
        }
        delivery.send(to: users, except: except, only: { _ in true }) { frames[$0] }
    }

    private func distinctUsers(_ usernames: [String], excluding me: UInt64) async throws -> [UserRecord] {
        try Validation.usernameList(usernames)
        var seen = Set<UInt64>()
        var result: [UserRecord] = []
        for name in usernames {
            let user = try await existingUser(name)
            if user.id != me, seen.insert(user.id).inserted { result.append(user) }
        }
        return result
    }
}
