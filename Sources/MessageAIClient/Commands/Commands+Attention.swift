import Foundation

/// /mute, /unmute, /unread, /mentions, /clear: what asks for the user's attention.
enum AttentionCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/mute", "/mute [NAME]", "no bell and no notification for the current conversation, or NAME (kept across restarts)",
                    sync: true, args: 0...Int.max, run: { mute($0, true) }),
        CommandSpec("/unmute", "/unmute [NAME]", "undo /mute", sync: true, args: 0...Int.max, run: { mute($0, false) }),
        CommandSpec("/unread", "/unread", "conversations with unread messages and how many (works offline)", sync: true, run: unread),
        CommandSpec("/mentions", "/mentions [N]", "the last N messages that mention you, from the local cache (default 20)",
                    sync: true, args: 0...1, run: mentions),
        CommandSpec("/clear", "/clear", "clear the screen (the prompt stays)", login: false, run: clear),
    ]

    static func mute(_ inv: Invocation, _ muted: Bool) {
        let client = inv.client
        guard let store = client.store else { inv.fail(.notLoggedIn); return }
        let target: StoredConversation?
        if inv.args.isEmpty {
            guard let cid = MessageCommands.currentConversation(inv) else { return }
            target = try? store.conversation(cid)
        } else {
            target = try? store.findConversation(inv.rest(from: 0))
        }
        guard let c = target else {
            inv.fail("not_found", "no conversation or user named \(inv.rest(from: 0)); /list shows them"); return
        }
        do {
            let changed = try store.setMuted(c.id, muted)
            let state = muted ? "muted" : "not muted"
            inv.succeed("ok", ["conversation_id": c.id, "conversation": c.name, "muted": muted, "changed": changed],
                        plain: changed ? "[\(c.name)] is \(state)" + (muted ? " (no bell or notification; /unmute to undo)" : "")
                                       : "[\(c.name)] was already \(state)")
            client.onChange()
        } catch {
            inv.fail("storage", "cannot write the local cache: \(error)")
        }
    }

    static func unread(_ inv: Invocation) {
        guard let store = inv.client.store, let counts = try? store.unreadCounts() else { inv.fail(.notLoggedIn); return }
        let muted = (try? store.mutedConversations()) ?? []
        let active = counts.filter { $0.unread > 0 }
        let rows: [[String: Any]] = active.map { ["conversation_id": $0.id, "conversation": $0.name, "unread": $0.unread, "muted": muted.contains($0.id)] }
        let lines = active.map { "\($0.name): \($0.unread) unread" + (muted.contains($0.id) ? " (muted)" : "") }
        inv.succeed("unread", ["conversations": rows],
                    plain: lines.isEmpty ? "nothing unread" : lines.joined(separator: "\n") + "\n(/next opens the most recent)")
    }

    static func mentions(_ inv: Invocation) {
        let client = inv.client
        var limit = 20
        if let a = inv.args.first {
            guard let n = Int(a), (1...500).contains(n) else { inv.fail(.usage("/mentions [N] with N from 1 to 500")); return }
            limit = n
        }
        guard let store = client.store, let me = client.username, let found = try? store.mentions(of: me, limit: limit) else {
            inv.fail(.notLoggedIn); return
        }
        let rows = found.map { client.messageFields($0, conversation: client.conversationName($0.conversationID, fallback: "")) }
        let lines = found.map { client.messageLine($0, conversation: client.conversationName($0.conversationID, fallback: "")) }
        inv.succeed("mentions", ["messages": rows], plain: lines.isEmpty ? "no messages mention you" : lines.joined(separator: "\n"))
    }

    static func clear(_ inv: Invocation) {
        inv.client.clearScreen?()
        inv.succeed(plain: nil)
    }
}
