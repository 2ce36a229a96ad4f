import MessageAIProtocol

/// Search, contacts and profiles. Presence and last seen are shown only between accepted
/// contacts (each has added the other) that neither side blocks; anyone else sees the username
/// and display name, as search shows them. Requests, accepts and blocks: Handlers+Privacy.
extension ChatServer {
    static let peopleRoutes: [(FrameType, Route)] = [
        Route.awaiting(UserSearch.self) { s, c, m in try await s.searchUsers(c, m) },
        Route.awaiting(ContactAdd.self) { s, c, m in try await s.addContact(c, m) },
        Route.awaiting(ContactRemove.self) { s, c, m in try await s.removeContact(c, m) },
        Route.awaiting(ContactsList.self) { s, c, _ in try await s.listContacts(c) },
        Route.awaiting(ProfileGet.self) { s, c, m in try await s.getProfile(c, m) },
    ]

    static let maxUserSearchResults: UInt64 = 50
    /// A username (32) or words of a display name (64).
    static let maxUserSearchLength = 64

    func searchUsers(_ ctx: RequestContext, _ q: UserSearch) async throws {
        guard !q.prefix.isEmpty else { throw ServerError.invalidArgument(.emptyUserSearch) }
        // A username or name words are short; an email address may be up to 254 bytes.
        let most = q.prefix.contains("@") ? 254 : ChatServer.maxUserSearchLength
        guard q.prefix.unicodeScalars.count <= most else {
            throw ServerError.tooLong(.userSearch(max: most))
        }
        let limit = q.limit == 0 ? 20 : min(q.limit, ChatServer.maxUserSearchResults)
        let users = try await store.searchUsers(query: q.prefix, limit: Int(limit))
        ctx.reply(Users(users: users.map(\.info)))
    }

    /// A request, or an accept when the other side had asked. The other side hears of a new
    /// request (CONTACT_UPDATE) unless they blocked or declined the requester, who is not told.
    func addContact(_ ctx: RequestContext, _ a: ContactAdd) async throws {
        let me = ctx.user
        let other = try await existingUser(a.username)
        guard other.id != me.id else { throw ServerError.invalidArgument(.contactSelf) }
        let added = try await store.addContact(owner: me.id, contact: other.id, now: Clock.nowMillis())
        let link = try await store.contactLink(me.id, other.id)
        if link.accepted { try await store.acceptDirectRequests(me.id, other.id) }
        ctx.reply(await profile(of: other, link))
        if added { try await announceContact(me, to: other.id) }
    }

    func removeContact(_ ctx: RequestContext, _ r: ContactRemove) async throws {
        let other = try await existingUser(r.username)
        // Removing someone who is neither a contact nor asked to be one says so: a second
        // /remove must not read as a second removal.
        guard try await store.removeContact(owner: ctx.user.id, contact: other.id) else {
            throw ServerError.notAContact(.notInContacts(other.username))
        }
        ctx.reply(OK())
    }

    /// Accepted contacts, sent requests and pending incoming requests, each with its state.
    func listContacts(_ ctx: RequestContext) async throws {
        let entries = try await store.contactEntries(owner: ctx.user.id)
        var profiles: [Profile] = []
        for (user, link) in entries { profiles.append(await profile(of: user, link)) }
        ctx.reply(Contacts(contacts: profiles), compress: true)
    }

    /// Names and state for anyone with a link (a request either way) or a shared conversation;
    /// presence only for accepted contacts. A blocked user sees what any non-contact sees.
    func getProfile(_ ctx: RequestContext, _ g: ProfileGet) async throws {
        let me = ctx.user
        let other = try await existingUser(g.username)
        guard other.id != me.id else {
            ctx.reply(try await ownProfile(other))
            return
        }
        let link = try await store.contactLink(me.id, other.id)
        var visible = link.iWant || (link.theyWant && !link.theyBlock)
        if !visible { visible = try await store.sharesConversation(me.id, other.id) }
        guard visible else {
            throw ServerError.notAContact(.profileHidden(other.username))
        }
        ctx.reply(await profile(of: other, link))
    }

    func existingUser(_ username: String) async throws -> UserRecord {
        guard let user = try await store.user(username: username) else {
            throw ServerError.notFound(.user(username))
        }
        return user
    }

    /// Called where the reader may see the profile; the picture and the time zone still stop
    /// at a block. The zone is shown like the picture, not like presence: a conversation
    /// partner sees it (as Slack shows a member's local time), and every member already reads
    /// it beside the due dates of that user's messages.
    func profile(of user: UserRecord, _ link: ContactLink) async -> Profile {
        let avatar = link.blocked ? [] : await avatarID(of: user.id)
        let zone = link.blocked ? "" : user.timeZone
        guard link.sharesPresence else {
            return Profile(user: user.info, online: false, lastSeen: 0, contactState: Self.contactState(link), avatarID: avatar, timeZone: zone)
        }
        let online = isOnline(user.id)
        let away = (try? await store.awayMessage(userID: user.id)) ?? nil
        return Profile(user: user.info, online: online, lastSeen: online ? 0 : user.lastSeen, contactState: .accepted,
                       away: away != nil, awayMessage: away ?? "", avatarID: avatar, timeZone: zone)
    }

    /// The state the reader is shown. A request from someone the reader declined or blocks is
    /// not shown; a blocker's side is shown as if nothing happened.
    static func contactState(_ link: ContactLink) -> ContactState {
        if link.accepted { return .accepted }
        if link.iWant { return .requested }
        if link.theyWant && !link.declinedByMe && !link.iBlock { return .incoming }
        return .none
    }
}
