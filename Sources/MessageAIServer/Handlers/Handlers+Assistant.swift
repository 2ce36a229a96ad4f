import MessageAIProtocol

/// The assistant's items and settings (PROTOCOL.md "Assistant"). Summaries and checks, which
/// run an engine off the hub, are in Assistant/ChatServer+Answers.swift.
extension ChatServer {
    static let assistantRoutes: [(FrameType, Route)] = [
        Route.on(AssistItemsList.self) { s, p, m, id in try s.assistItems(p, m, id) },
        Route.on(AssistItemDone.self) { s, p, m, id in try s.assistItemDone(p, m, id) },
        Route.on(AssistSync.self) { s, p, m, id in try s.assistSync(p, m, id) },
        Route.on(AssistSummary.self) { s, p, m, id in try s.assistSummary(p, m, id) },
        Route.on(AssistCheck.self) { s, p, m, id in try s.assistCheck(p, m, id) },
        Route.on(AssistSettingsSet.self) { s, p, m, id in try s.assistSettingsSet(p, m, id) },
        Route.on(AssistSettingsGet.self) { s, p, m, id in try s.assistSettingsGet(p, m, id) },
    ]

    /// The assistant's frames are unknown to a connection that did not agree on the capability
    /// (as to a server without the assistant).
    @discardableResult
    func requireAssistant(_ peer: Peer, _ type: FrameType) throws -> (Assistant, AssistantStore) {
        guard peer.assistant, let assistant, let assistantStore else {
            throw ServerError.capabilityNotAgreed(.assistant(type))
        }
        return (assistant, assistantStore)
    }

    static let maxItemsPage = 500

    func assistItems(_ peer: Peer, _ r: AssistItemsList, _ id: UInt32) throws {
        let (_, items) = try requireAssistant(peer, .assistItemsList)
        if r.conversationID != 0 { try requireMember(r.conversationID, peer.user!.id) }
        let kind = r.kind == 0 ? nil : AssistItemKind(rawValue: r.kind)
        guard r.kind == 0 || kind != nil else { throw ServerError.invalidArgument(.itemKind) }
        let limit = r.limit == 0 ? 100 : Int(min(r.limit, UInt64(Self.maxItemsPage)))
        let list = try items.items(userID: peer.user!.id, conversationID: r.conversationID == 0 ? nil : r.conversationID,
                                   filter: r.filter, kind: kind, limit: limit)
        peer.reply(id, AssistItems(items: list, cursor: try items.assistantCursor()), compress: true)
    }

    func assistItemDone(_ peer: Peer, _ r: AssistItemDone, _ id: UInt32) throws {
        let (_, items) = try requireAssistant(peer, .assistItemDone)
        let user = peer.user!
        guard let item = try items.item(id: r.itemID, visibleTo: user.id) else {
            throw ServerError.notFound(.actionItem(r.itemID))
        }
        guard item.kind == .action else { throw ServerError.invalidArgument(.notAnActionItem(r.itemID)) }
        try requireMember(item.conversationID, user.id)
        let result = try items.setItemDone(id: r.itemID, by: user.id, done: r.done, now: Clock.nowMillis())
        peer.reply(id, AssistItems(items: [result.item], cursor: try items.assistantCursor()))
        if result.changed { pushItems([result.item], except: peer) }
    }

    func assistSync(_ peer: Peer, _ r: AssistSync, _ id: UInt32) throws {
        let (_, items) = try requireAssistant(peer, .assistSync)
        let page = try items.itemsChanged(userID: peer.user!.id, sinceRev: r.sinceRev, limit: Self.maxItemsPage)
        let more = page.count == Self.maxItemsPage
        // Complete: the server's cursor (items of other users' conversations are below it too).
        let cursor = more ? page.last!.rev : max(try items.assistantCursor(), r.sinceRev)
        peer.reply(id, AssistItems(items: page, cursor: cursor, hasMore: more), compress: true)
    }

    func assistSettingsSet(_ peer: Peer, _ r: AssistSettingsSet, _ id: UInt32) throws {
        let (assistant, items) = try requireAssistant(peer, .assistSettingsSet)
        let user = peer.user!
        try requireMember(r.conversationID, user.id)
        try items.setProviderOff(conversationID: r.conversationID, by: user.id, off: r.providerOff, now: Clock.nowMillis())
        peer.reply(id, try assistSettings(r.conversationID, for: user.id, assistant, items))
        let members = try store.memberIDs(conversationID: r.conversationID)
        forEachConnection(of: members) { p in
            guard p !== peer, p.assistant, let uid = p.userID,
                  let s = try? assistSettings(r.conversationID, for: uid, assistant, items) else { return }
            p.push(s)
        }
    }

    func assistSettingsGet(_ peer: Peer, _ r: AssistSettingsGet, _ id: UInt32) throws {
        let (assistant, items) = try requireAssistant(peer, .assistSettingsGet)
        try requireMember(r.conversationID, peer.user!.id)
        peer.reply(id, try assistSettings(r.conversationID, for: peer.user!.id, assistant, items))
    }

    func assistSettings(_ cid: UInt64, for userID: UInt64, _ assistant: Assistant, _ items: AssistantStore) throws -> AssistSettings {
        let sw = try items.assistSwitch(conversationID: cid)
        return AssistSettings(conversationID: cid, providerOff: sw.providerOff, changedBy: sw.changedBy,
                              providerAvailable: assistant.provider != nil,
                              budgetLeft: assistant.provider == nil ? 0 : UInt64(try budgetLeft(userID, assistant, items)))
    }

    func budgetLeft(_ userID: UInt64, _ assistant: Assistant, _ items: AssistantStore) throws -> Int {
        max(0, assistant.config.providerRequestsPerDay - (try items.providerRequests(userID: userID, day: Assistant.day(Clock.nowMillis()))))
    }
}
