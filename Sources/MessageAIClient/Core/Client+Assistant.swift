import Foundation
import MessageAIProtocol

/// The server's assistant, seen from the client: items kept in the local cache (synced by
/// cursor after every SYNC, updated by pushes), and the per-conversation provider switch.
extension Client {
    /// Online, synced and the server agreed on the assistant: commands ask the server.
    var assistantOnline: Bool {
        link.state == .online && authenticated && (link.welcome?.capabilities.contains(.assistant) ?? false)
    }

    /// ASSIST_SYNC from the cached cursor, page after page, into the cache.
    func syncAssistant() {
        guard assistantOnline, let store else { return }
        let since = (try? store.assistCursor()) ?? 0
        link.request(AssistSync(sinceRev: since), timeout: 60) { [weak self] result in
            guard let self, self.store === store, case .success(let f) = result, f.type == .assistItems,
                  let page = try? f.decode(AssistItems.self) else { return true }
            _ = try? store.upsertAssistItems(page.items)
            try? store.setAssistCursor(page.cursor)
            if page.hasMore { self.syncAssistant() }
            return true
        }
    }

    /// Items added or changed on the server: cached; a new item for this user, and a done or
    /// undo, get a line (every change is an `assistant_item` event for scripts).
    func handleAssistItems(_ a: AssistItems) {
        guard let store, let me = username?.lowercased() else { return }
        let known = (try? store.cachedAssistItemIDs(a.items.map(\.itemID))) ?? []
        let changed = (try? store.upsertAssistItems(a.items)) ?? []
        if let top = changed.map(\.rev).max() { try? store.setAssistCursor(top) }
        for item in changed {
            let name = conversationName(item.conversationID, fallback: "")
            var line: String?
            if known.contains(item.itemID) {
                let who = item.doneBy.lowercased() == me ? "you" : item.doneBy
                line = item.done ? "[\(name)] \(who) marked #\(item.itemID) done: \(item.text)" : "[\(name)] #\(item.itemID) is open again: \(item.text)"
            } else if item.kind == .action, item.who.lowercased() == me, item.from.lowercased() != me {
                line = "[\(name)] for you from \(item.from): \(item.text)" + (item.due.isEmpty ? "" : " (due \(item.due))")
                    + " (/done \(item.itemID) when it is)"
            }
            output.emit("assistant_item", AssistantView.itemFields(item, conversation: name), plain: line)
        }
        onChange()
    }

    func handleAssistSettings(_ s: AssistSettings) {
        let name = conversationName(s.conversationID, fallback: "")
        let who = s.changedBy.isEmpty ? "a member" : s.changedBy
        output.emit("assistant_settings", AssistantView.settingsFields(s, conversation: name),
                    plain: "[\(name)] \(who) turned the language model \(s.providerOff ? "off" : "on") here"
                        + (s.providerOff ? " (the local assistant still works)" : ""))
    }
}
