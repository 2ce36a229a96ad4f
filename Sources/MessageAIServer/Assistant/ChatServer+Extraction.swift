import MessageAIAssistant
import MessageAIProtocol

/// Extraction of action items and decisions from committed messages.
///
/// Called after a group commit has written its acks and pushes (`commitPendingSends`), and
/// even then only as a separate block on the hub, so it never delays an ack. The hub part is
/// bookkeeping (context, member names: one indexed query per conversation of the batch); the
/// engine runs on the assistant's serial queue; storing and pushing come back to the hub.
extension ChatServer {
    func extractAfterCommit(_ messages: [ChatMessage]) {
        guard let assistant, assistant.config.extract, !messages.isEmpty else { return }
        queue.async { [self] in enqueueExtraction(messages, assistant) }
    }

    private func enqueueExtraction(_ messages: [ChatMessage], _ assistant: Assistant) {
        guard !isShuttingDown else { return }
        guard assistant.pendingExtractions + messages.count <= assistant.config.maxPendingExtractions else {
            assistant.skippedExtractions += messages.count
            logger.warning("assistant: extraction queue full, \(assistant.skippedExtractions) message(s) not extracted so far")
            return
        }
        var names: [UInt64: [String]] = [:]
        var work: [(ChatMessage, MessageToJudge, [String])] = []
        for m in messages {
            if names[m.conversationID] == nil {
                names[m.conversationID] = ((try? store.members(conversationID: m.conversationID)) ?? []).map(\.username)
            }
            let members = names[m.conversationID]!
            let line = ChatLine(from: m.senderUsername.lowercased(), text: m.text)
            let context = assistant.context(adding: line, to: m.conversationID)
            let to = members.filter { $0.lowercased() != line.from }.map { $0.lowercased() }
            work.append((m, MessageToJudge(from: line.from, to: to, text: m.text, context: context), members))
        }
        assistant.pendingExtractions += work.count
        let engine = assistant.local
        let jobs = work
        assistant.extractQueue.async { [self] in
            let items = jobs.flatMap { m, judge, members in Assistant.items(from: engine.judge(judge), message: m, members: members) }
            queue.async { [self] in
                assistant.pendingExtractions -= jobs.count
                storeAndPush(items)
            }
        }
    }

    /// Stores new items and pushes them to the members online (hub).
    func storeAndPush(_ items: [NewAssistItem]) {
        guard let store = assistantStore, !items.isEmpty, !isShuttingDown else { return }
        let stored: [AssistItem]
        do { stored = try store.insertItems(items, now: Clock.nowMillis()) } catch {
            logger.error("assistant: storing items failed: \(error)")
            return
        }
        pushItems(stored, except: nil)
    }

    /// Sends ASSIST_ITEMS (request id 0) to every session of every member that speaks the
    /// assistant, one frame per conversation; `except` already has them as its answer.
    func pushItems(_ items: [AssistItem], except: Peer?) {
        guard !items.isEmpty else { return }
        let cursor = (try? assistantStore?.assistantCursor()) ?? 0
        let byConversation = Dictionary(grouping: items, by: \.conversationID)
        for (cid, list) in byConversation {
            let frame = AssistItems(items: list, cursor: cursor).frame(requestID: 0)
            for p in (try? audience(of: cid)) ?? [] where p !== except && p.assistant { p.connection.send(frame) }
        }
    }
}
