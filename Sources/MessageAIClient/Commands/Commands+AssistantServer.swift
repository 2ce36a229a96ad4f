import Foundation
import MessageAIProtocol

/// The server's assistant behind /actions, /decisions and /summary when online (the local
/// engine on the cache answers offline, in Commands+Assistant.swift), and the commands that
/// only the server can do: /done, /undo, /rewrite (with its /take), /assistant.
enum ServerAssistantCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/done", "/done ID", "mark action item ID done, on every device of every member", server: true, args: 1...1, run: done),
        CommandSpec("/undo", "/undo ID", "open action item ID again", server: true, args: 1...1, run: undo),
        CommandSpec("/rewrite", "/rewrite TEXT...", "ask the server's language model for a clearer or kinder TEXT (shown, never sent by itself)",
                    server: true, args: 1...Int.max, run: rewrite),
        CommandSpec("/take", "/take", "send the last /rewrite suggestion here as it is", args: 0...0, run: take),
        CommandSpec("/assistant", "/assistant [provider on | provider off]",
                    "this conversation's assistant settings; 'provider off' keeps its text away from the language model (any member)",
                    server: true, args: 0...2, run: settings),
    ]

    // MARK: Lists (hooks for /actions and /decisions)

    /// /actions through the server's items (or the cached ones offline); false when neither
    /// exists and the local engine should answer. `mine` spans every conversation; `open` and
    /// `all` the current one, or every one when none is open.
    static func actions(_ inv: Invocation, filter which: String) -> Bool {
        let filter: AssistItemFilter = which == "mine" ? .mine : which == "all" ? .all : .open
        let cid = which == "mine" ? nil : inv.client.currentConversation
        return list(inv, conversationID: cid, filter: filter, kind: .action, event: "actions", key: "actions")
    }

    static func decisions(_ inv: Invocation) -> Bool {
        list(inv, conversationID: inv.client.currentConversation, filter: .all, kind: .decision, event: "decisions", key: "decisions")
    }

    private static func list(_ inv: Invocation, conversationID: UInt64?, filter: AssistItemFilter, kind: AssistItemKind,
                             event: String, key: String) -> Bool {
        let c = inv.client
        guard let store = c.store, let me = c.username else { return false }
        let show = { (items: [AssistItem], source: String) in
            let name = conversationID.map { c.conversationName($0, fallback: "") }
            let zone = c.timeZoneName
            let rows = items.map { AssistantView.itemFields($0, conversation: c.conversationName($0.conversationID, fallback: ""), zone: zone) }
            var lines = items.map { AssistantView.itemLine($0, conversation: conversationID == nil ? c.conversationName($0.conversationID, fallback: "") : nil,
                                                            zone: zone) }
            let label = filter == .mine ? "yours" : filter == .all ? (kind == .decision ? "" : "all") : "open"
            if lines.isEmpty { lines = ["no \(label.isEmpty ? "" : label + " ")\(kind == .action ? "action items" : "decisions")" + (name.map { " in [\($0)]" } ?? "")] }
            if source == "cache" { lines.append("(offline: as last synced)") }
            var fields: [String: Any] = [key: rows, "filter": ["open", "all", "mine"][Int(filter.rawValue)], "source": source]
            if let conversationID { fields["conversation_id"] = conversationID; fields["conversation"] = name ?? "" }
            inv.succeed(event, fields, plain: lines.joined(separator: "\n"))
        }
        if c.assistantOnline {
            c.call(AssistItemsList(conversationID: conversationID ?? 0, filter: filter, kind: kind, limit: 200), for: inv, expect: AssistItems.self) { a in
                _ = try? store.upsertAssistItems(a.items)
                show(a.items, "server")
            }
            return true
        }
        guard (try? store.hasAssistItems()) == true,
              let cached = try? store.assistItems(conversationID: conversationID, filter: filter, kind: kind, me: me, limit: 200) else { return false }
        show(cached, "cache")
        return true
    }

    // MARK: /summary hook

    /// /summary [N] through the server when online; false otherwise (the local engine answers).
    static func summary(_ inv: Invocation) -> Bool {
        let c = inv.client
        guard c.assistantOnline, let cid = c.currentConversation else { return false }
        var limit: UInt64 = 50
        if let a = inv.args.first {
            guard let n = UInt64(a), n > 0, n <= 500 else { return false }
            limit = n
        }
        c.call(AssistSummary(conversationID: cid, limit: limit), for: inv, timeout: c.assistantAnswerTimeout, expect: AssistSummaryResult.self) { r in
            let name = c.conversationName(cid, fallback: "")
            let marks = SummaryDoneMarks(cacheOf: c, conversationID: cid)
            inv.succeed("summary", AssistantView.summaryFields(r, conversation: name, marks: marks),
                        plain: AssistantView.summaryPlain(r, conversation: name, marks: marks))
        }
        return true
    }

    // MARK: /done, /undo

    static func done(_ inv: Invocation) { mark(inv, done: true) }
    static func undo(_ inv: Invocation) { mark(inv, done: false) }

    private static func mark(_ inv: Invocation, done: Bool) {
        let word = inv.args[0].hasPrefix("#") ? String(inv.args[0].dropFirst()) : inv.args[0]
        guard let id = UInt64(word), id > 0 else { inv.fail(.usage("/\(done ? "done" : "undo") ID, with ID from /actions (e.g. 12 or #12)")); return }
        let c = inv.client
        guard c.assistantOnline else {
            inv.fail("offline", c.link.state == .online ? "this server has no assistant" : "marking an item \(done ? "done" : "open") needs the server: \(c.offlineError().message)")
            return
        }
        c.call(AssistItemDone(itemID: id, done: done), for: inv, expect: AssistItems.self) { a in
            _ = try? c.store?.upsertAssistItems(a.items)
            guard let item = a.items.first else { inv.fail("bad_answer", "the server answered without the item"); return }
            let name = c.conversationName(item.conversationID, fallback: "")
            inv.succeed("assistant_item", AssistantView.itemFields(item, conversation: name, zone: inv.client.timeZoneName),
                        plain: (done ? "done: " : "open again: ") + AssistantView.itemLine(item, conversation: name, zone: inv.client.timeZoneName))
        }
    }
}
