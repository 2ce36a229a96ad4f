import Dispatch
import MessageAIAssistant
import MessageAIAssistantProvider
import MessageAIProtocol

/// ASSIST_SUMMARY and ASSIST_CHECK: the hub reads what the engine needs and decides which
/// engine may answer (switch, budget, calls in flight); the engine runs on the assistant's
/// answer queue; the answer hops back to the hub. The connection's other frames are not held
/// meanwhile (a slow provider delays no message); the answer carries its request id.
extension ChatServer {
    /// Why the provider does not answer this request ("" when it may), or nil with no provider.
    private func providerRefusal(_ assistant: Assistant, _ items: any AssistantStore, userID: UInt64, conversationID: UInt64,
                                 localOnly: Bool) async throws -> String? {
        guard assistant.provider != nil else { return nil }
        if localOnly { return "you asked for the local rules" }
        if conversationID != 0, try await items.assistSwitch(conversationID: conversationID).providerOff {
            return "this conversation keeps its text away from the language model (/assistant provider on allows it); answered by the local rules"
        }
        if try await budgetLeft(userID, assistant, items) == 0 {
            return "your \(assistant.config.providerRequestsPerDay) language-model requests for today are used up; answered by the local rules"
        }
        if assistant.providerCallsInFlight >= assistant.config.maxProviderCalls {
            return "the language model is busy (\(assistant.providerCallsInFlight) requests in flight); answered by the local rules"
        }
        return ""
    }

    /// Runs `work` on the answer queue and `then` as a task on the hub, unless the connection
    /// closed or changed user meanwhile. `provider` counts against the calls in flight and the
    /// budget. The handler does not await it: the connection's next frames go on meanwhile.
    private func answerOffHub<T: Sendable>(_ ctx: RequestContext, _ assistant: Assistant, provider: Bool,
                                           _ work: @escaping @Sendable () -> T, then: @escaping @Sendable (T) async -> Void) async throws {
        dispatchPrecondition(condition: .onQueue(queue))  // the counters below belong to the hub
        let user = ctx.user.id
        let peer = ctx.peer
        if provider {
            try await assistantStore?.countProviderRequest(userID: user, day: Assistant.day(Clock.nowMillis()))
            assistant.providerCallsInFlight += 1
            metrics.providerCalls.increment()
        } else {
            guard assistant.answersInFlight < Assistant.maxLocalAnswers else {
                throw ServerError.serverBusy(.assistant, retryAfter: 1_000)
            }
            assistant.answersInFlight += 1
        }
        assistant.answerQueue.async { [self] in
            let result = work()
            queue.async { [self] in
                if provider { assistant.providerCallsInFlight -= 1 } else { assistant.answersInFlight -= 1 }
                guard !isShuttingDown, !peer.connection.isClosing, peer.user?.id == user else { return }
                Task.immediate(executorPreference: hub) { await then(result) }
            }
        }
    }

    /// The `beforeSeq` that ends a range at `toSeq` (0: the newest). The largest seq the
    /// protocol allows has no successor in the store's signed range; it reads as the newest too.
    private func newestFirst(before toSeq: UInt64) -> UInt64 {
        toSeq == 0 || toSeq >= FieldReader.maxInteger ? 0 : toSeq + 1
    }

    func assistSummary(_ ctx: RequestContext, _ r: AssistSummary) async throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistSummary)
        let user = ctx.user
        try await requireMember(r.conversationID, user.id)
        let limit = r.limit == 0 ? 50 : Int(min(r.limit, 500))
        let messages = r.fromSeq > 0
            ? try await store.messages(conversationID: r.conversationID, afterSeq: r.fromSeq - 1, limit: limit).filter { r.toSeq == 0 || $0.seq <= r.toSeq }
            : try await store.messages(conversationID: r.conversationID, beforeSeq: newestFirst(before: r.toSeq), limit: limit)
        let refusal = try await providerRefusal(assistant, items, userID: user.id, conversationID: r.conversationID, localOnly: r.localOnly)
        let engine: AssistantEngine = refusal == "" ? assistant.provider! : assistant.local
        let notice = refusal.flatMap { $0.isEmpty || r.localOnly ? nil : $0 } ?? ""
        guard let first = messages.first, let last = messages.last else {
            ctx.reply(AssistSummaryResult(conversationID: r.conversationID, fromSeq: 0, toSeq: 0, messageCount: 0, covered: 0,
                                               summary: "", engine: engine.info.name, engineVersion: engine.info.version))
            return
        }
        let key = (r.conversationID, first.seq, last.seq, engine.info.name, engine.info.version)
        if let blob = try await items.cachedSummary(conversationID: key.0, fromSeq: key.1, toSeq: key.2, engine: key.3, engineVersion: key.4),
           var cached = try? AssistSummaryResult(from: FieldReader(blob)) {
            cached.cached = true
            if cached.fallbackReason.isEmpty { cached.fallbackReason = notice }
            ctx.reply(cached, compress: true)
            return
        }
        let participants = try await store.members(conversationID: r.conversationID).map { $0.username.lowercased() }
        // The newest messages that fit `maxSummaryBytes`; `covered` says how many that was.
        var bytes = 0
        let kept = messages.reversed().prefix { m in bytes += m.text.utf8.count; return bytes <= Assistant.maxSummaryBytes }.reversed()
        let thread = ThreadToSummarize(participants: participants,
                                       messages: kept.map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) })
        try await answerOffHub(ctx, assistant, provider: refusal == "", { engine.summarize(thread) }) { [self] s in
            var result = AssistSummaryResult(
                conversationID: r.conversationID, fromSeq: first.seq, toSeq: last.seq, messageCount: UInt64(messages.count),
                covered: UInt64(min(s.coveredMessages, kept.count)), summary: s.summary, keyPoints: s.keyPoints, decisions: s.decisions,
                actions: s.actions.map(AssistAction.init), openQuestions: s.openQuestions,
                engine: s.engine.name, engineVersion: s.engine.version, fallbackReason: s.engine.fallbackReason ?? notice)
            // A fallback is not cached under the provider's key: the provider may answer next time.
            if s.engine.fallbackReason == nil {
                var w = FieldWriter()
                result.cached = false
                result.fallbackReason = ""
                result.encode(to: &w)
                do {
                    try await items.cacheSummary(conversationID: key.0, fromSeq: key.1, toSeq: key.2, engine: s.engine.name,
                                           engineVersion: s.engine.version, answer: w.bytes, now: Clock.nowMillis())
                } catch { logger.error("assistant: caching a summary failed: \(error)") }
                result.fallbackReason = notice
            }
            ctx.reply(result, compress: true)
        }
    }

    func assistCheck(_ ctx: RequestContext, _ r: AssistCheck) async throws {
        let (assistant, items) = try requireAssistant(ctx.peer, .assistCheck)
        let user = ctx.user
        guard !r.text.isEmpty else { throw ServerError.invalidArgument(.emptyDraft) }
        let length = r.text.unicodeScalars.count
        guard length <= configuration.maxMessageLength else {
            throw ServerError.tooLong(.draft(max: configuration.maxMessageLength, length: length))
        }
        var context: [ChatLine] = []
        var others: [String] = []
        if r.conversationID != 0 {
            try await requireMember(r.conversationID, user.id)
            context = try await store.messages(conversationID: r.conversationID, beforeSeq: 0, limit: Assistant.contextSize)
                .map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) }
            others = try await store.members(conversationID: r.conversationID).map { $0.username.lowercased() }
                .filter { $0 != user.username.lowercased() }
        }
        let draft = MessageToJudge(from: user.username.lowercased(), to: others, text: r.text, context: context)
        var provider: ProviderEngine?
        if r.rewrite {
            guard let p = assistant.provider else {
                throw ServerError.assistantUnavailable
            }
            let refusal = try await providerRefusal(assistant, items, userID: user.id, conversationID: r.conversationID, localOnly: false) ?? ""
            if r.conversationID != 0, try await items.assistSwitch(conversationID: r.conversationID).providerOff {
                throw ServerError.providerOffHere
            }
            if try await budgetLeft(user.id, assistant, items) == 0 {
                throw ServerError.assistantBudgetExhausted(perDay: assistant.config.providerRequestsPerDay)
            }
            guard refusal.isEmpty else { throw ServerError.serverBusy(.languageModel, retryAfter: 3_000) }
            provider = p
        }
        let local = assistant.local, chosen = provider  // a let: the closure runs off the hub
        try await answerOffHub(ctx, assistant, provider: chosen != nil, { () -> (Judgement, Result<Rewrite, ProviderFailure>?) in
            (local.judge(draft), chosen?.rewriteResult(draft))
        }) { j, rewrite in
            var result = AssistCheckResult(clarity: j.clarity.map(AssistFlag.init), tone: j.tone.map(AssistFlag.init),
                                           actions: j.actions.map(AssistAction.init), decision: j.decision ?? "",
                                           engine: j.engine.name, engineVersion: j.engine.version)
            switch rewrite {
            case .success(let rw)?:
                result.rewrite = rw.text; result.engine = rw.engine.name; result.engineVersion = rw.engine.version
            case .failure(let f)?:
                result.fallbackReason = "the language model \(f.reason); no rewrite to suggest"
            case nil: break
            }
            ctx.reply(result)
        }
    }
}
