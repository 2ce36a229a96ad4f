import MessageAIProtocol

/// Search, contacts and profiles. A full profile is shown only to contacts and people who
/// share a conversation; search shows usernames and display names only.
extension ChatServer {
    static let peopleRoutes: [(FrameType, Route)] = [
        Route.on(UserSearch.self) { s, p, m, id in try s.searchUsers(p, m, id) },
        Route.on(ContactAdd.self) { s, p, m, id in try s.addContact(p, m, id) },
        Route.on(ContactRemove.self) { s, p, m, id in try s.removeContact(p, m, id) },
        Route.on(ContactsList.self) { s, p, _, id in try s.listContacts(p, id) },
        Route.on(ProfileGet.self) { s, p, m, id in try s.getProfile(p, m, id) },
    ]

    static let maxUserSearchResults: UInt64 = 50

    func searchUsers(_ peer: Peer, _ q: UserSearch, _ id: UInt32) throws {
        guard !q.prefix.isEmpty else { throw ErrorFrame(.invalidArgument, "give at least one character to search for", field: "prefix") }
        guard q.prefix.unicodeScalars.count <= 32 else {
            throw ErrorFrame(.tooLong, "usernames are at most 32 characters", limit: 32, field: "prefix")
        }
        let limit = q.limit == 0 ? 20 : min(q.limit, ChatServer.maxUserSearchResults)
        let users = try store.searchUsers(prefix: q.prefix, limit: Int(limit))
        peer.reply(id, Users(users: users.map(\.info)))
    }

    func addContact(_ peer: Peer, _ a: ContactAdd, _ id: UInt32) throws {
        let me = peer.user!
        let other = try existingUser(a.username)
        guard other.id != me.id else { throw ErrorFrame(.invalidArgument, "you cannot add yourself as a contact", field: "username") }
        try store.addContact(owner: me.id, contact: other.id, now: Clock.nowMillis())
        peer.reply(id, profile(of: other))
    }

    func removeContact(_ peer: Peer, _ r: ContactRemove, _ id: UInt32) throws {
        let other = try existingUser(r.username)
        // Idempotent, like adding: removing someone who is not a contact is still OK.
        _ = try store.removeContact(owner: peer.user!.id, contact: other.id)
        peer.reply(id, OK())
    }

    func listContacts(_ peer: Peer, _ id: UInt32) throws {
        let contacts = try store.contacts(owner: peer.user!.id)
        peer.reply(id, Contacts(contacts: contacts.map(profile(of:))), compress: true)
    }

    func getProfile(_ peer: Peer, _ g: ProfileGet, _ id: UInt32) throws {
        let me = peer.user!
        let other = try existingUser(g.username)
        if other.id != me.id {
            let visible = try store.isContact(owner: me.id, other: other.id) || store.sharesConversation(me.id, other.id)
            guard visible else {
                throw ErrorFrame(.notAContact, "\(other.username)'s profile is visible to their contacts and conversation partners only", field: "username")
            }
        }
        peer.reply(id, profile(of: other))
    }

    func existingUser(_ username: String) throws -> UserRecord {
        guard let user = try store.user(username: username) else {
            throw ErrorFrame(.notFound, "no user named '\(username)'", field: "username")
        }
        return user
    }

    func profile(of user: UserRecord) -> Profile {
        let online = isOnline(user.id)
        return Profile(user: user.info, online: online, lastSeen: online ? 0 : user.lastSeen)
    }
}
