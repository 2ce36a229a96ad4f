import MessageAIProtocol

/// The assistant's items and settings (PROTOCOL.md "Assistant"). Summaries and checks, which
/// run an engine off the hub, are in Assistant/ChatServer+Answers.swift.
extension ChatServer {
    static let assistantRoutes: [(FrameType, Route)] = [
        Route.awaiting(AssistItemsList.self) { s, c, m in try await s.assistItems(c, m) },
        Route.awaiting(AssistItemDone.self) { s, c, m in try await s.assistItemDone(c, m) },
        Route.awaiting(AssistSync.self) { s, c, m in try await s.assistSync(c, m) },
        Route.awaiting(AssistSummary.self) { s, c, m in try await s.assistSummary(c, m) },
        Route.awaiting(AssistCheck.self) { s, c, m in try await s.assistCheck(c, m) },
        Route.awaiting(AssistSettingsSet.self) { s, c, m in try await s.assistSettingsSet(c, m) },
        Route.awaiting(AssistSettingsGet.self) { s, c, m in try await s.assistSettingsGet(c, m) },
    ]

    /// The assistant's frames are unknown to a connection that did not agree on the capability
    /// (as to a server without the assistant).
    @discardableResult
    func requireAssistant(_ peer: Peer, _ type: FrameType) throws -> (Assistant, any AssistantStore) {
        guard peer.assistant, let assistant, let assistantStore else {
            throw ServerError.capabilityNotAgreed(.assistant(type))
        }
        return (assistant, assistantStore)
    }

    static let maxItemsPage = 500

    func assistItems(_ ctx: RequestContext, _ r: AssistItemsList) async throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistItemsList)
        if r.conversationID != 0 { try await requireMember(r.conversationID, ctx.user.id) }
        let kind = r.kind == 0 ? nil : AssistItemKind(rawValue: r.kind)
        guard r.kind == 0 || kind != nil else { throw ServerError.invalidArgument(.itemKind) }
        let limit = r.limit == 0 ? 100 : Int(min(r.limit, UInt64(Self.maxItemsPage)))
        let list = try await items.items(userID: ctx.user.id, conversationID: r.conversationID == 0 ? nil : r.conversationID,
                                   filter: r.filter, kind: kind, limit: limit)
        ctx.reply(AssistItems(items: list.map(AssistItem.init), cursor: try await items.assistantCursor()), compress: true)
    }

    func assistItemDone(_ ctx: RequestContext, _ r: AssistItemDone) async throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistItemDone)
        let user = ctx.user
        guard let item = try await items.item(id: r.itemID, visibleTo: user.id) else {
            throw ServerError.notFound(.actionItem(r.itemID))
        }
        guard item.kind == .action else { throw ServerError.invalidArgument(.notAnActionItem(r.itemID)) }
        try await requireMember(item.conversationID, user.id)
        let result = try await items.setItemDone(id: r.itemID, by: user.id, done: r.done, now: Clock.nowMillis())
        ctx.reply(AssistItems(items: [AssistItem(result.item)], cursor: try await items.assistantCursor()))
        if result.changed { await pushItems([result.item], except: ctx.peer) }
    }

    func assistSync(_ ctx: RequestContext, _ r: AssistSync) async throws {
        let (_, items) = try requireAssistant(ctx.peer, .assistSync)
        let page = try await items.itemsChanged(userID: ctx.user.id, sinceRev: r.sinceRev, limit: Self.maxItemsPage)
        let more = page.count == Self.maxItemsPage
        // Complete: the server's cursor (items of other users' conversations are below it too).
        let cursor = more ? page.last!.rev : max(try await items.assistantCursor(), r.sinceRev)
        ctx.reply(AssistItems(items: page.map(AssistItem.init), cursor: cursor, hasMore: more), compress: true)
    }

    func assistSettingsSet(_ ctx: RequestContext, _ r: AssistSettingsSet) async throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistSettingsSet)
        let user = ctx.user
        try await requireMember(r.conversationID, user.id)
        try await items.setProviderOff(conversationID: r.conversationID, by: user.id, off: r.providerOff, now: Clock.nowMillis())
        ctx.reply(try await assistSettings(r.conversationID, for: user.id, assistant, items))
        let members = try await store.memberIDs(conversationID: r.conversationID)
        // Each member's settings (their own budget) are read first, for those online.
        var frames: [UInt64: Frame] = [:]
        for uid in members where uid != user.id && delivery.isOnline(uid) {
            frames[uid] = try? await assistSettings(r.conversationID, for: uid, assistant, items).frame(requestID: 0)
        }
        frames[user.id] = try? await assistSettings(r.conversationID, for: user.id, assistant, items).frame(requestID: 0)
        delivery.send(to: members, except: ctx.peer, only: \.assistant) { frames[$0] }
    }

    func assistSettingsGet(_ ctx: RequestContext, _ r: AssistSettingsGet) async throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistSettingsGet)
        try await requireMember(r.conversationID, ctx.user.id)
        ctx.reply(try await assistSettings(r.conversationID, for: ctx.user.id, assistant, items))
    }

    func assistSettings(_ cid: UInt64, for userID: UInt64, _ assistant: Assistant, _ items: any AssistantStore) async throws -> AssistSettings {
        let sw = try await items.assistSwitch(conversationID: cid)
        return AssistSettings(conversationID: cid, providerOff: sw.providerOff, changedBy: sw.changedBy,
                              providerAvailable: assistant.provider != nil,
                              budgetLeft: assistant.provider == nil ? 0 : UInt64(try await budgetLeft(userID, assistant, items)))
    }

    func budgetLeft(_ userID: UInt64, _ assistant: Assistant, _ items: any AssistantStore) async throws -> Int {
        max(0, assistant.config.providerRequestsPerDay - (try await items.providerRequests(userID: userID, day: Assistant.day(Clock.nowMillis()))))
    }
}
