import Dispatch
import MessageAIAssistant
import MessageAIProtocol

/// Extraction of action items and decisions from committed messages.
///
/// Called after a group commit has written its acks and pushes (`commitPendingSends`), and
/// even then only as a separate block on the hub, so it never delays an ack. The hub part is
/// bookkeeping (context, member names: one indexed query per conversation of the batch); the
/// engine runs on the assistant's serial queue; storing and pushing come back to the hub.
/// What reads or writes the store runs as a task on the hub, in order (`extractionSteps`):
/// batches reach the engine's thread in the order they were committed, and a message's items
/// are stored before an edit's re-extraction replaces them, even when the store suspends.
extension ChatServer {
    func extractAfterCommit(_ messages: [ChatMessage]) {
        guard let assistant, assistant.config.extract, !messages.isEmpty else { return }
        // Several nodes: the messages were queued as jobs in their own transaction.
        if store.extractionJobs != nil { drainExtractionJobs(); return }
        assistant.unextracted.append(contentsOf: messages)
        guard !assistant.extractionScheduled else { return }
        assistant.extractionScheduled = true
        queue.asyncAfter(deadline: .now() + Assistant.extractionLinger) { [self] in flushExtraction() }
    }

    /// Hands the messages committed since the last flush to the engine's thread in one batch:
    /// one wake-up of that thread, one hop back and one member query per conversation for all
    /// of them (W2 with extraction on: ~15 % more deliveries/s, ~10 % less CPU per delivery;
    /// BENCHMARKS.md, issue 13). Only 2 ms: a longer batch is a burst on the engine's thread
    /// that the hub's next events wait behind when both share a core (W1's p999 was worse at
    /// 20 ms). Items then show up at most `extractionLinger` later.
    func flushExtraction() {
        guard let assistant else { return }
        assistant.extractionScheduled = false
        let batch = assistant.unextracted
        assistant.unextracted = []
        guard !batch.isEmpty else { return }
        extractionSteps.run { [self] in await enqueueExtraction(batch, assistant) }
    }

    private func enqueueExtraction(_ messages: [ChatMessage], _ assistant: Assistant) async {
        guard !isShuttingDown else { return }
        guard assistant.pendingExtractions + messages.count <= assistant.config.maxPendingExtractions else {
            assistant.skippedExtractions += messages.count
            logger.warning("assistant: extraction queue full, \(assistant.skippedExtractions) message(s) not extracted so far")
            return
        }
        var names: [UInt64: [String]] = [:]
        var zones: [UInt64: String] = [:]
        var work: [(ChatMessage, MessageToJudge, [String], String)] = []
        for m in messages {
            if zones[m.senderID] == nil { zones[m.senderID] = await timeZone(of: m.senderID) }
            if names[m.conversationID] == nil {
                names[m.conversationID] = ((try? await store.members(conversationID: m.conversationID)) ?? []).map(\.username)
            }
            let members = names[m.conversationID]!
            let line = ChatLine(from: m.senderUsername.lowercased(), text: m.text)
            let context = assistant.context(adding: line, to: m.conversationID)
            let to = members.filter { $0.lowercased() != line.from }.map { $0.lowercased() }
            work.append((m, MessageToJudge(from: line.from, to: to, text: m.text, context: context), members, zones[m.senderID]!))
        }
        assistant.pendingExtractions += work.count
        metrics.assistantQueueDepth.set(assistant.pendingExtractions)
        let engine = assistant.local
        let jobs = work
        assistant.extractQueue.async { [self] in
            let items = jobs.flatMap { m, judge, members, zone in
                Assistant.items(from: engine.extract(judge), message: m, members: members, senderZone: zone)
            }
            queue.async { [self] in
                assistant.pendingExtractions -= jobs.count
                metrics.assistantQueueDepth.set(assistant.pendingExtractions)
                extractionSteps.run { [self] in
                    await storeAndPush(items)
                    queueForProvider(jobs.map(\.0))
                }
            }
        }
    }

    /// An edited message's items are extracted again from its new text (with the messages
    /// before it as context, read from the store) and replace the old ones: a kept item keeps
    /// its id and done mark, the rest are withdrawn; every device gets the changed rows.
    /// Queued behind the message's first extraction (one thread, in order), so that one is
    /// stored before it is replaced.
    func extractAgain(conversationID: UInt64, seq: UInt64) {
        guard assistant?.config.extract == true else { return }
        // The message's first extraction goes to the engine's thread before this one.
        flushExtraction()
        extractionSteps.run { [self] in await reextract(conversationID: conversationID, seq: seq) }
    }

    private func reextract(conversationID: UInt64, seq: UInt64) async {
        guard let assistant, !isShuttingDown,
              let m = (try? await store.message(conversationID: conversationID, seq: seq)).flatMap({ $0 }).map(ChatMessage.init), !m.deleted else { return }
        let members = ((try? await store.members(conversationID: conversationID)) ?? []).map(\.username)
        let context = ((try? await store.messages(conversationID: conversationID, beforeSeq: seq, limit: Assistant.contextSize)) ?? [])
            .filter { !$0.deleted }.map { ChatLine(from: $0.senderUsername.lowercased(), text: $0.text) }
        let from = m.senderUsername.lowercased()
        let judge = MessageToJudge(from: from, to: members.map { $0.lowercased() }.filter { $0 != from }, text: m.text, context: context)
        let engine = assistant.local
        let zone = await timeZone(of: m.senderID)
        assistant.pendingExtractions += 1
        metrics.assistantQueueDepth.set(assistant.pendingExtractions)
        assistant.extractQueue.async { [self] in
            let items = Assistant.items(from: engine.extract(judge), message: m, members: members, senderZone: zone)
            queue.async { [self] in
                assistant.pendingExtractions -= 1
                metrics.assistantQueueDepth.set(assistant.pendingExtractions)
                extractionSteps.run { [self] in
                    await replaceAndPush(m, items)
                    queueForProvider([m])
                }
            }
        }
    }

    /// Replaces the items of `message` unless its text changed again meanwhile (a later
    /// extraction of the newer text is then on its way), and pushes the rows that changed (hub).
    func replaceAndPush(_ message: ChatMessage, _ items: [NewAssistItem]) async {
        guard let itemStore = assistantStore, !isShuttingDown else { return }
        guard let now = try? await store.message(conversationID: message.conversationID, seq: message.seq),
              !now.deleted, now.text == message.text else { return }
        do {
            let changed = try await itemStore.replaceItems(conversationID: message.conversationID, seq: message.seq, with: items,
                                                           now: Clock.nowMillis())
            await pushItems(changed, except: nil)
        } catch { logger.error("assistant: replacing the items of a message failed: \(error)") }
    }

    /// Stores new items and pushes them to the members online (hub).
    func storeAndPush(_ items: [NewAssistItem]) async {
        guard let itemStore = assistantStore, !items.isEmpty, !isShuttingDown else { return }
        let stored: [AssistItemRecord]
        do { stored = try await itemStore.insertItems(items, now: Clock.nowMillis()) } catch {
            logger.error("assistant: storing items failed: \(error)")
            return
        }
        await pushItems(stored, except: nil)
    }

    /// Members added to a group see its whole history, so they get its items too: every live
    /// item gets a new rev (their devices' next ASSIST_SYNC brings them whatever cursor they
    /// hold; the other members' devices get them again, unchanged), and their sessions online
    /// get them now, in pages, without asking (hub).
    func announceItems(_ conversationID: UInt64, to users: [UInt64]) async {
        guard let itemStore = assistantStore, !users.isEmpty else { return }
        let items: [AssistItemRecord]
        do { items = try await itemStore.reannounceItems(conversationID: conversationID) } catch {
            logger.error("assistant: re-announcing the items of conversation \(conversationID) failed: \(error)")
            return
        }
        guard !items.isEmpty else { return }
        guard users.contains(where: { delivery.connections(of: $0).contains(where: \.assistant) }) else { return }
        let cursor = (try? await itemStore.assistantCursor()) ?? 0
        for start in stride(from: 0, to: items.count, by: Self.itemsPerPush) {
            let page = items[start..<min(start + Self.itemsPerPush, items.count)].map(AssistItem.init)
            let frame = AssistItems(items: page, cursor: cursor).frame(requestID: 0)
            delivery.send(frame, to: users, only: \.assistant)
        }
    }

    /// The user's time zone as their profile has it; empty when not known (or the lookup
    /// failed: due dates are then placed in UTC rather than not at all).
    func timeZone(of userID: UInt64) async -> String {
        ((try? await store.user(id: userID)) ?? nil)?.timeZone ?? ""
    }

    /// Items per ASSIST_ITEMS push: 200 items of at most 500 characters stay far below the frame limit.
    static let itemsPerPush = 200

    /// Sends ASSIST_ITEMS (request id 0) to every session of every member that speaks the
    /// assistant, one frame per conversation; `except` already has them as its answer.
    /// `membersVersions`: by conversation, the members version the items' writes saw (another
    /// node's items, from their events); a conversation not named trusts the cached members.
    func pushItems(_ items: [AssistItemRecord], except: Peer?, membersVersions: [UInt64: UInt64] = [:]) async {
        guard !items.isEmpty else { return }
        let cursor = (try? await assistantStore?.assistantCursor()) ?? 0
        let byConversation = Dictionary(grouping: items, by: \.conversationID)
        for (cid, list) in byConversation {
            let frame = AssistItems(items: list.map(AssistItem.init), cursor: cursor).frame(requestID: 0)
            try? await delivery.send(frame, toMembersOf: cid, except: except, membersVersion: membersVersions[cid] ?? 0,
                                     only: \.assistant)
        }
    }
}
