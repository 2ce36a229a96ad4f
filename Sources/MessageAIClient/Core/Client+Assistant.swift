import Foundation
import MessageAIProtocol

/// The server's assistant, seen from the client: items kept in the local cache (synced by
/// cursor after every SYNC, updated by pushes), and the per-conversation provider switch.
extension Client {
    /// Online, synced and the server agreed on the assistant: commands ask the server.
    var assistantOnline: Bool {
        link.state == .online && authenticated && (link.welcome?.capabilities.contains(.assistant) ?? false)
    }

    /// How long to wait for a summary, check or rewrite: the usual request timeout, or longer
    /// when the server announced a language model that may take longer (WELCOME tag 16), plus
    /// the round trip. The server always answers within that (the local engine on a timeout).
    var assistantAnswerTimeout: Double {
        Client.assistantAnswerTimeout(announcedMillis: link.welcome?.assistantAnswerTimeout ?? 0, usual: link.settings.requestTimeout)
    }

    static func assistantAnswerTimeout(announcedMillis: UInt64, usual: Double) -> Double {
        max(usual, Double(announcedMillis) / 1000 + 5)
    }

    /// ASSIST_SYNC from the cached cursor, page after page, into the cache.
    func syncAssistant() {
        guard assistantOnline, let store else { return }
        let since = (try? store.assistCursor()) ?? 0
        link.request(AssistSync(sinceRev: since), timeout: 60) { [weak self] result in
            guard let self, self.store === store else { return true }
            guard case .success(let f) = result, f.type == .assistItems, let page = try? f.decode(AssistItems.self) else {
                self.considerAwayCatchUp()
                return true
            }
            _ = try? store.upsertAssistItems(page.items)
            try? store.setAssistCursor(page.cursor)
            // The catch-up after being away waits for the items marked done while away.
            if page.hasMore { self.syncAssistant() } else { self.considerAwayCatchUp() }
            return true
        }
    }

    /// Items added or changed on the server: cached, and each change is an event (a line in
    /// the terminal only when it asks something of this user, or is a done or undo).
    func handleAssistItems(_ a: AssistItems) {
        guard let store, let me = username else { return }
        let cached = (try? store.cachedAssistDone(a.items.map(\.itemID))) ?? [:]
        // A push never moves the ASSIST_SYNC cursor: pushes may come out of rev order (rev 12,
        // a done mark through this node, before rev 11, extracted through another node and read
        // from its event log a moment later). A cursor moved to 12 by the first would skip 11
        // for good if the connection dropped between them. Only a sync's own cursor moves it;
        // the next sync brings again what was pushed since, which the cache takes as a no-op.
        let changed = (try? store.upsertAssistItems(a.items)) ?? []
        for item in changed {
            let name = conversationName(item.conversationID, fallback: "")
            switch cached[item.itemID] {
            case nil where item.text.isEmpty: continue       // withdrawn before this device saw it
            case nil: output.emit(AssistantEvent.item(item, conversation: name, known: false, me: me, zone: timeZoneName))
            case item.done?: output.emit(AssistantEvent.updated(item, conversation: name, zone: timeZoneName))
            case _?: output.emit(AssistantEvent.item(item, conversation: name, known: true, me: me, zone: timeZoneName))
            }
        }
        if !changed.isEmpty { onChange() }
    }

    func handleAssistSettings(_ s: AssistSettings) {
        output.emit(AssistantEvent.settings(s, conversation: conversationName(s.conversationID, fallback: "")))
    }
}
