import Dispatch
import MessageAIAssistant
import MessageAIAssistantProvider
import MessageAIProtocol

/// Extraction by the language model (`--assistant-extract provider`): a second opinion on
/// items the local engine already stored. Messages wait per conversation (at most
/// `providerBatchSize`, `providerBatchDelay` after the first) and go in one call; the answer
/// replaces each message's items (engine "provider"), keeping done marks of the same items.
/// Whatever goes wrong, the local items stay and the log says why (counts, never text).
///
/// Never sent: a conversation whose switch is off (checked when the batch leaves, so a switch
/// turned off meanwhile holds), messages of senders whose daily budget is spent, anything past
/// the calls in flight. Each sender in a batch is charged one request.
extension ChatServer {
    func queueForProvider(_ messages: [ChatMessage]) {
        guard let assistant, assistant.config.providerExtract, assistant.provider != nil, !isShuttingDown else { return }
        for m in messages where !m.text.isEmpty {
            let cid = m.conversationID
            if assistant.providerBatches[cid] == nil {
                queue.asyncAfter(deadline: .now() + assistant.config.providerBatchDelay) { [self] in onHub { [self] in await sendProviderBatch(cid) } }
            }
            // An edit's message replaces its older text in the batch.
            assistant.providerBatches[cid, default: []].removeAll { $0.seq == m.seq }
            assistant.providerBatches[cid, default: []].append(m)
            if assistant.providerBatches[cid]!.count >= assistant.config.providerBatchSize { onHub { [self] in await sendProviderBatch(cid) } }
        }
    }

    /// Sends the conversation's batch, if any is waiting (hub).
    func sendProviderBatch(_ cid: UInt64) async {
        guard let assistant, let provider = assistant.provider, let itemStore = assistantStore, !isShuttingDown,
              var batch = assistant.providerBatches.removeValue(forKey: cid), !batch.isEmpty else { return }
        do {
            guard try await !itemStore.assistSwitch(conversationID: cid).providerOff else { return }
            guard assistant.providerCallsInFlight < assistant.config.maxProviderCalls else {
                logger.info("assistant: the language model is busy; \(batch.count) message(s) keep the local engine's items")
                return
            }
            var spent: Set<UInt64> = []
            for s in Set(batch.map(\.senderID)) where try await budgetLeft(s, assistant, itemStore) == 0 { spent.insert(s) }
            batch.removeAll { spent.contains($0.senderID) }
            guard !batch.isEmpty else { return }
            let day = Assistant.day(Clock.nowMillis())
            for s in Set(batch.map(\.senderID)) { try await itemStore.countProviderRequest(userID: s, day: day) }
            let members = try await store.members(conversationID: cid).map(\.username)
            let context = try await store.messages(conversationID: cid, beforeSeq: batch[0].seq, limit: Assistant.contextSize)
                .filter { !$0.deleted }.map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) }
            let request = MessagesToExtract(participants: members.map { $0.lowercased() }, context: context,
                                            messages: batch.map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) })
            assistant.providerCallsInFlight += 1
            metrics.providerCalls.increment()
            let sent = batch
            assistant.answerQueue.async { [self] in
                let result = provider.extractResult(request)
                queue.async { [self] in
                    assistant.providerCallsInFlight -= 1
                    extractionSteps.run { [self] in await storeProviderItems(result, sent, members) }
                }
            }
        } catch {
            logger.error("assistant: preparing a language-model extraction failed: \(error)")
        }
    }

    private func storeProviderItems(_ result: Result<ExtractedBatch, ProviderFailure>, _ sent: [ChatMessage], _ members: [String]) async {
        switch result {
        case .failure(let f):
            logger.info("assistant: the language model \(f.reason); \(sent.count) message(s) keep the local engine's items")
        case .success(let batch):
            for (m, found) in zip(sent, batch.items) {
                guard let found else { continue }
                let j = Judgement(actions: found.actions, clarity: [], tone: [], decision: found.decision, engine: batch.engine)
                await replaceAndPush(m, Assistant.items(from: j, message: m, members: members, senderZone: await timeZone(of: m.senderID)))
            }
        }
    }
}
