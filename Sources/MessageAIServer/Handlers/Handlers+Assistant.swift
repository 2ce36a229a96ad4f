import MessageAIProtocol

/// The assistant's items and settings (PROTOCOL.md "Assistant"). Summaries and checks, which
/// run an engine off the hub, are in Assistant/ChatServer+Answers.swift.
extension ChatServer {
    static let assistantRoutes: [(FrameType, Route)] = [
        Route.on(AssistItemsList.self) { s, c, m in try s.assistItems(c, m) },
        Route.on(AssistItemDone.self) { s, c, m in try s.assistItemDone(c, m) },
        Route.on(AssistSync.self) { s, c, m in try s.assistSync(c, m) },
        Route.on(AssistSummary.self) { s, c, m in try s.assistSummary(c, m) },
        Route.on(AssistCheck.self) { s, c, m in try s.assistCheck(c, m) },
        Route.on(AssistSettingsSet.self) { s, c, m in try s.assistSettingsSet(c, m) },
        Route.on(AssistSettingsGet.self) { s, c, m in try s.assistSettingsGet(c, m) },
    ]

    /// The assistant's frames are unknown to a connection that did not agree on the capability
    /// (as to a server without the assistant).
    @discardableResult
    func requireAssistant(_ peer: Peer, _ type: FrameType) throws -> (Assistant, SQLiteStore) {
        guard peer.assistant, let assistant, let assistantStore else {
            throw ServerError.capabilityNotAgreed(.assistant(type))
        }
        return (assistant, assistantStore)
    }

    static let maxItemsPage = 500

    func assistItems(_ ctx: RequestContext, _ r: AssistItemsList) throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistItemsList)
        if r.conversationID != 0 { try requireMember(r.conversationID, ctx.user.id) }
        let kind = r.kind == 0 ? nil : AssistItemKind(rawValue: r.kind)
        guard r.kind == 0 || kind != nil else { throw ServerError.invalidArgument(.itemKind) }
        let limit = r.limit == 0 ? 100 : Int(min(r.limit, UInt64(Self.maxItemsPage)))
        let list = try items.items(userID: ctx.user.id, conversationID: r.conversationID == 0 ? nil : r.conversationID,
                                   filter: r.filter, kind: kind, limit: limit)
        ctx.reply(AssistItems(items: list.map(AssistItem.init), cursor: try items.assistantCursor()), compress: true)
    }

    func assistItemDone(_ ctx: RequestContext, _ r: AssistItemDone) throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistItemDone)
        let user = ctx.user
        guard let item = try items.item(id: r.itemID, visibleTo: user.id) else {
            throw ServerError.notFound(.actionItem(r.itemID))
        }
        guard item.kind == .action else { throw ServerError.invalidArgument(.notAnActionItem(r.itemID)) }
        try requireMember(item.conversationID, user.id)
        let result = try items.setItemDone(id: r.itemID, by: user.id, done: r.done, now: Clock.nowMillis())
        ctx.reply(AssistItems(items: [AssistItem(result.item)], cursor: try items.assistantCursor()))
        if result.changed { pushItems([result.item], except: ctx.peer) }
    }

    func assistSync(_ ctx: RequestContext, _ r: AssistSync) throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistSync)
        let page = try items.itemsChanged(userID: ctx.user.id, sinceRev: r.sinceRev, limit: Self.maxItemsPage)
        let more = page.count == Self.maxItemsPage
        // Complete: the server's cursor (items of other users' conversations are below it too).
        let cursor = more ? page.last!.rev : max(try items.assistantCursor(), r.sinceRev)
        ctx.reply(AssistItems(items: page.map(AssistItem.init), cursor: cursor, hasMore: more), compress: true)
    }

    func assistSettingsSet(_ ctx: RequestContext, _ r: AssistSettingsSet) throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistSettingsSet)
        let user = ctx.user
        try requireMember(r.conversationID, user.id)
        try items.setProviderOff(conversationID: r.conversationID, by: user.id, off: r.providerOff, now: Clock.nowMillis())
        ctx.reply(try assistSettings(r.conversationID, for: user.id, assistant, items))
        let members = try sqlite.memberIDs(conversationID: r.conversationID)
        delivery.send(to: members, except: ctx.peer, only: \.assistant) { uid in
            try? assistSettings(r.conversationID, for: uid, assistant, items).frame(requestID: 0)
        }
    }

    func assistSettingsGet(_ ctx: RequestContext, _ r: AssistSettingsGet) throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistSettingsGet)
        try requireMember(r.conversationID, ctx.user.id)
        ctx.reply(try assistSettings(r.conversationID, for: ctx.user.id, assistant, items))
    }

    func assistSettings(_ cid: UInt64, for userID: UInt64, _ assistant: Assistant, _ items: SQLiteStore) throws -> AssistSettings {
        let sw = try items.assistSwitch(conversationID: cid)
        return AssistSettings(conversationID: cid, providerOff: sw.providerOff, changedBy: sw.changedBy,
                              providerAvailable: assistant.provider != nil,
                              budgetLeft: assistant.provider == nil ? 0 : UInt64(try budgetLeft(userID, assistant, items)))
    }

    func budgetLeft(_ userID: UInt64, _ assistant: Assistant, _ items: SQLiteStore) throws -> Int {
        max(0, assistant.config.providerRequestsPerDay - (try items.providerRequests(userID: userID, day: Assistant.day(Clock.nowMillis()))))
    }
}
