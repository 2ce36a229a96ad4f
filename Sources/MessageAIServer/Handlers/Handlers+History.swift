import MessageAIProtocol

/// HISTORY, SEARCH and SYNC: reading what is stored.
extension ChatServer {
    static let historyRoutes: [(FrameType, Route)] = [
        Route.awaiting(HistoryRequest.self) { s, c, m in try await s.history(c, m) },
        Route.awaiting(SearchRequest.self) { s, c, m in try await s.search(c, m) },
        Route.awaiting(SyncRequest.self) { s, c, m in try await s.startSync(c, m) },
    ]

    func history(_ ctx: RequestContext, _ h: HistoryRequest) async throws {
        try await requireMember(h.conversationID, ctx.user.id)
        let limit = h.limit == 0 ? 50 : min(h.limit, 500)
        var page = try await store.messages(conversationID: h.conversationID, beforeSeq: h.beforeSeq, limit: Int(limit))
        // Long messages: keep the newest that fit one frame; the client pages on from there.
        while page.count > 1, page.reduce(0, { $0 + $1.estimatedSize }) > replyByteBudget { page.removeFirst(page.count / 4 + 1) }
        // Seqs are gapless from 1, so older messages exist exactly when the page starts above 1.
        // Seq 1 is always a message (a change needs a message before it).
        let hasMore = (page.first?.seq ?? 1) > 1
        let shown = try await store.withReactions(page).map { ctx.peer.shown(ChatMessage($0)) }
        ctx.reply(HistoryPage(conversationID: h.conversationID, messages: shown, hasMore: hasMore), compress: true)
    }

    func search(_ ctx: RequestContext, _ q: SearchRequest) async throws {
        let user = ctx.user
        let query = q.query.trimmingWhitespace
        guard !query.isEmpty else { throw ServerError.invalidArgument(.emptySearch) }
        guard query.unicodeScalars.count <= ChatServer.maxQueryLength else {
            throw ServerError.tooLong(.searchQuery(max: ChatServer.maxQueryLength))
        }
        if q.conversationID != 0 { try await requireMember(q.conversationID, user.id) }
        let limit = q.limit == 0 ? 20 : min(q.limit, 100)
        let offset = min(q.offset, 100_000)
        var found = try await store.search(userID: user.id, query: query, conversationID: q.conversationID == 0 ? nil : q.conversationID,
                                     offset: Int(offset), limit: Int(limit) + 1)
        var hasMore = found.count > Int(limit)
        if hasMore { found.removeLast() }
        while found.count > 1, found.reduce(0, { $0 + $1.estimatedSize }) > replyByteBudget {
            found.removeLast(found.count / 4 + 1)
            hasMore = true
        }
        let shown = try await store.withReactions(found).map { ctx.peer.shown(ChatMessage($0)) }
        ctx.reply(SearchResults(messages: shown, hasMore: hasMore), compress: true)
    }

    func startSync(_ ctx: RequestContext, _ s: SyncRequest) async throws {
        guard ctx.peer.sync == nil else {
            throw ServerError.invalidArgument(.syncRunning)
        }
        var positions: [UInt64: UInt64] = [:]
        for p in s.positions { positions[p.conversationID] = max(positions[p.conversationID] ?? 0, p.lastSeq) }
        let conversations = try await store.conversationList(userID: ctx.user.id).map(Conversation.init)
        let cursor = SyncCursor(requestID: ctx.requestID, conversations: conversations, positions: positions)
        ctx.peer.sync = cursor
        await pumpSync(ctx.peer, cursor)
    }

    /// The connection drained (`Connection.onDrain`): the sync it runs, if any, goes on.
    func resumeSync(_ peer: Peer) {
        guard let cursor = peer.sync, !cursor.pumping else { return }
        Task.immediate(executorPreference: hub) { [self] in await pumpSync(peer, cursor) }
    }

    /// Sends sync batches while the connection's output is below its low-water mark; the
    /// connection calls `resumeSync` when it drains. Each batch's reads await the store: on
    /// SQLite they answer inline, so no commit interleaves with a batch; on a store that
    /// suspends, one may, and its pushes wait in `deferredMessages` until SYNC_DONE like any
    /// other (minus what the sync sent, by seq). One pump per cursor at a time (`pumping`).
    func pumpSync(_ peer: Peer, _ cursor: SyncCursor) async {
        guard peer.sync === cursor, !cursor.pumping, let userID = peer.userID else { return }
        cursor.pumping = true
        defer { cursor.pumping = false }
        do {
            while !cursor.isFinished, peer.connection.pendingOutputBytes < Connection.lowWaterMark, !peer.connection.isClosing {
                let batch = try await nextSyncBatch(cursor, userID: userID, into: peer)
                guard peer.sync === cursor else { return }  // the connection closed meanwhile
                peer.connection.send(batch.frame(requestID: cursor.requestID, compress: peer.zlib, level: peer.compressionLevel))
            }
        } catch {
            report(error, for: Frame(type: .sync, requestID: cursor.requestID), to: peer)
            endSync(peer)
            return
        }
        guard cursor.isFinished else { return }
        peer.connection.send(SyncDone(messageCount: cursor.messageCount, conversationCount: UInt64(cursor.conversations.count))
            .frame(requestID: cursor.requestID))
        endSync(peer)
    }

    /// The sync is over (done or failed): the live pushes it held go out, minus what it sent.
    func endSync(_ peer: Peer) {
        peer.sync = nil
        let held = peer.deferredMessages
        peer.deferredMessages = []
        for m in held { peer.pushMessage(m, frame: m.frame(requestID: 0).encoded()) }
        let heldChanges = peer.deferredChanges
        peer.deferredChanges = []
        for c in heldChanges { peer.pushChange(c, frame: c.frame(requestID: 0)) }
    }

    /// The first batch carries every conversation and every member's markers; the following
    /// ones carry up to 500 messages, conversation by conversation, ascending by seq.
    private func nextSyncBatch(_ cursor: SyncCursor, userID: UInt64, into peer: Peer) async throws -> SyncBatch {
        if !cursor.metadataSent {
            cursor.metadataSent = true
            var receipts: [Receipt] = []
            for c in cursor.conversations {
                for m in try await store.markers(conversationID: c.conversationID) {
                    receipts.append(Receipt(conversationID: c.conversationID, userID: m.user.userID, username: m.user.username,
                                            deliveredSeq: m.deliveredSeq, readSeq: m.user.userID == userID ? m.readSeq : m.sharedReadSeq))
                }
            }
            return SyncBatch(conversations: cursor.conversations.map(peer.shown), messages: [], receipts: receipts)
        }
        var messages: [StoredMessage] = []
        var changes: [MessageChange] = []
        var bytes = 0
        var full = false
        while !full, messages.count + changes.count < SyncCursor.messagesPerBatch, cursor.index < cursor.conversations.count {
            let conversationID = cursor.conversations[cursor.index].conversationID
            let want = SyncCursor.messagesPerBatch - messages.count - changes.count
            if cursor.sendingChanges {
                // After the conversation's messages: its changes above the client's position.
                let got = try await store.changes(conversationID: conversationID, afterSeq: cursor.changesSentThrough, limit: want)
                for c in got {
                    cursor.changesSentThrough = c.seq
                    changes.append(MessageChange(c))
                    bytes += c.text.utf8.count + 64
                    peer.changesSyncedThrough[conversationID] = max(peer.changesSyncedThrough[conversationID] ?? 0, c.seq)
                }
                if got.count < want { cursor.advance() }
                if bytes > replyByteBudget { full = true }
                continue
            }
            let got = try await store.messages(conversationID: conversationID, afterSeq: cursor.sentThrough, limit: want)
            for m in got {
                if !messages.isEmpty, bytes + m.estimatedSize > replyByteBudget { full = true; break }
                // Answered from the client's positions alone: what this connection saw live or
                // sent is in the answer too (the client asked from before it; it dedupes by seq).
                cursor.sentThrough = m.seq
                messages.append(m)
                bytes += m.estimatedSize
                peer.syncedThrough[conversationID] = max(peer.syncedThrough[conversationID] ?? 0, m.seq)
            }
            if !full, got.count < want {
                if peer.messageChanges { cursor.startChanges() } else { cursor.advance() }
            }
        }
        cursor.messageCount += UInt64(messages.count)
        let shown = try await store.withReactions(messages).map { peer.shown(ChatMessage($0)) }
        return SyncBatch(conversations: [], messages: shown, receipts: [], changes: changes)
    }
}

extension ChatServer {
    /// Characters in a SEARCH query (announced in WELCOME).
    static let maxQueryLength = 256

    /// How many payload bytes of messages one answer frame carries (a page of 500 messages of
    /// 10,000 characters would be ~20 MB): half the frame limit, at most 512 KiB.
    var replyByteBudget: Int { min(512 * 1024, configuration.maxFrameLength / 2) }
}

extension StoredMessage {
    /// Encoded size, near enough: the text plus the fixed fields.
    var estimatedSize: Int { text.utf8.count + senderUsername.utf8.count + 64 }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
