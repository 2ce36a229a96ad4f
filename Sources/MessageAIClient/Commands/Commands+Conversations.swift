import Foundation
import MessageAIProtocol

/// /dm, /group ..., /list, /open
enum ConversationCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/dm", "/dm USER", "open the direct conversation with USER (it becomes the current one)",
                    sync: true, args: 1...1, run: dm),
        CommandSpec("/group create", "/group create NAME USER USER...", "create a group with at least two others",
                    server: true, args: 3...Int.max, run: groupCreate),
        CommandSpec("/group add", "/group add USER...", "add members to the current group", server: true, args: 1...Int.max, run: groupAdd),
        CommandSpec("/group rename", "/group rename NAME...", "rename the current group", server: true, args: 1...Int.max, run: groupRename),
        CommandSpec("/group leave", "/group leave", "leave the current group", server: true, run: groupLeave),
        CommandSpec("/group members", "/group members", "list the members of the current conversation", sync: true, run: groupMembers),
        CommandSpec("/list", "/list", "conversations with unread counts, most recent first (works offline)", sync: true, run: list),
        CommandSpec("/open", "/open NAME-OR-USER-OR-ID | /open [file] FILE-ID",
                    "make a conversation the current one and mark it read; with a file id (as /files shows it) or \"file ID|#SEQ\", open the file with the system's opener ($OPENER, else xdg-open) and show an image in the terminal",
                    sync: true, args: 1...Int.max, run: open),
        CommandSpec("/next", "/next", "open the next conversation with unread messages (the prompt's Act: list)",
                    sync: true, run: next),
    ]

    /// Makes `cid` current and reports it; in the REPL with its last messages (an unread
    /// marker above the first new one).
    static func enter(_ inv: Invocation, _ cid: UInt64, _ name: String, _ extra: [String: Any] = [:]) {
        let client = inv.client
        let fields = extra.merging(["conversation_id": cid, "conversation": name]) { a, _ in a }
        guard client.config.interactive && !client.config.json else {
            client.open(cid) { inv.succeed("ok", fields, plain: "now in [\(name)]") }
            return
        }
        // The recap is read before opening marks the conversation read; its thumbnails may
        // need fetching, so the answer comes once they are here (or could not be had).
        client.presentOpening(cid, name: name, emit: { inv.output.emit(Reply("ok", [:], text: $0)) }) { rest in
            client.open(cid) { inv.succeed("ok", fields, plain: rest.isEmpty ? nil : rest.joined(separator: "\n")) }
        }
    }

    /// Stores the conversation the server returned, makes it current, reports it.
    static func opened(_ inv: Invocation, _ c: Conversation) {
        let client = inv.client
        try? client.store?.upsert(c)
        enter(inv, c.conversationID, client.conversationName(c.conversationID, fallback: c.name), ["members": c.members.map(\.username)])
    }

    static func next(_ inv: Invocation) {
        guard let c = inv.client.nextActive() else { inv.fail("not_found", "no other conversation has unread messages"); return }
        enter(inv, c.id, c.name)
    }

    static func dm(_ inv: Invocation) {
        let client = inv.client
        let user = inv.args[0]
        // Offline, a known direct conversation still opens (messages queue in the outbox).
        if !client.authenticated, let local = try? client.store?.findConversation(user), local.kind == .direct {
            enter(inv, local.id, local.name)
            return
        }
        client.call(DMOpen(username: user), for: inv, expect: Conversation.self) { opened(inv, $0) }
    }

    static func groupCreate(_ inv: Invocation) {
        let msg = GroupCreate(name: inv.args[0], usernames: Array(inv.args.dropFirst()))
        inv.client.call(msg, for: inv, expect: Conversation.self) { opened(inv, $0) }
    }

    static func currentGroup(_ inv: Invocation) -> StoredConversation? {
        guard let cid = inv.client.currentConversation, let c = try? inv.client.store?.conversation(cid) else {
            inv.fail("no_conversation", "no conversation is open: use /open NAME first")
            return nil
        }
        guard c.kind == .group else { inv.fail("invalid_argument", "[\(c.name)] is a direct conversation, not a group"); return nil }
        return c
    }

    static func groupAdd(_ inv: Invocation) {
        guard let g = currentGroup(inv) else { return }
        inv.client.call(GroupAdd(conversationID: g.id, usernames: inv.args), for: inv, expect: Conversation.self) { c in
            try? inv.client.store?.upsert(c)
            inv.succeed("ok", ["conversation_id": c.conversationID, "members": c.members.map(\.username)],
                        plain: "members of [\(c.name)]: \(c.members.map(\.username).joined(separator: ", "))")
        }
    }

    static func groupRename(_ inv: Invocation) {
        guard let g = currentGroup(inv) else { return }
        inv.client.call(GroupRename(conversationID: g.id, name: inv.rest(from: 0)), for: inv, expect: Conversation.self) { c in
            try? inv.client.store?.upsert(c)
            inv.client.onChange()
            inv.succeed("ok", ["conversation_id": c.conversationID, "conversation": c.name], plain: "renamed to [\(c.name)]")
        }
    }

    static func groupLeave(_ inv: Invocation) {
        guard let g = currentGroup(inv) else { return }
        inv.client.call(GroupLeave(conversationID: g.id), for: inv, expect: OK.self) { _ in
            inv.client.currentConversation = nil
            inv.client.saveCurrent()
            inv.client.onChange()
            inv.succeed("ok", ["conversation_id": g.id], plain: "left [\(g.name)]")
        }
    }

    static func groupMembers(_ inv: Invocation) {
        guard let cid = inv.client.currentConversation, let c = try? inv.client.store?.conversation(cid) else {
            inv.fail("no_conversation", "no conversation is open: use /open NAME first")
            return
        }
        inv.succeed("members", ["conversation_id": cid, "members": c.members.map { ["username": $0.username, "display_name": $0.displayName] }],
                    plain: "[\(c.name)] \(c.members.map(\.username).joined(separator: ", "))")
    }

    static func list(_ inv: Invocation) {
        guard let store = inv.client.store, let all = try? store.summaries() else { inv.fail(.notLoggedIn); return }
        let rows: [[String: Any]] = all.map {
            ["conversation_id": $0.conversation.id, "name": $0.conversation.name, "unread": $0.unread,
             "last_activity": $0.conversation.lastActivity, "last_text": $0.lastText,
             "kind": $0.conversation.kind == .group ? "group" : "direct", "request": $0.conversation.request]
        }
        func line(_ s: ConversationSummary) -> String {
            let mark = s.conversation.id == inv.client.currentConversation ? "*" : " "
            let unread = s.unread > 0 ? " (\(s.unread) unread)" : ""
            return "\(mark) [\(s.conversation.name)]\(unread) \(s.lastText.prefix(50))"
        }
        // Message requests (DMs from non-contacts) are held apart, below the conversations.
        var lines = all.filter { !$0.conversation.request }.map(line)
        let requests = all.filter(\.conversation.request)
        if !requests.isEmpty {
            lines.append("message requests (reply to accept, /block USER to refuse):")
            lines += requests.map(line)
        }
        inv.succeed("conversations", ["conversations": rows], plain: lines.isEmpty ? "no conversations yet: /dm USER" : lines.joined(separator: "\n"))
    }

    /// A conversation by id, exact name, or a name prefix that only one has; else the direct
    /// conversation with the user of that name (asked of the server).
    static func open(_ inv: Invocation) {
        let key = inv.rest(from: 0) // group names may have spaces
        let client = inv.client
        if let c = try? client.store?.findConversation(key) {
            enter(inv, c.id, c.name)
            return
        }
        // Not a conversation: "file ID|#SEQ", or a file id /files printed (hex, 4+ digits,
        // matching a file this device knows). A name always wins over a file id.
        if inv.args.count == 2, inv.args[0].lowercased() == "file" { FileCommands.openFile(inv, inv.args[1]); return }
        if inv.args.count == 1, key.count >= 4, key.allSatisfy(\.isHexDigit),
           let files = try? client.store?.attachments(matching: key, conversationID: nil), !files.isEmpty {
            FileCommands.openFile(inv, key)
            return
        }
        let prefixed = ((try? client.store?.summaries()) ?? [])?.map(\.conversation)
            .filter { $0.name.lowercased().hasPrefix(key.lowercased()) } ?? []
        if prefixed.count == 1 { enter(inv, prefixed[0].id, prefixed[0].name); return }
        if prefixed.count > 1 {
            inv.fail("ambiguous", "\(key) could be " + prefixed.map { "[\($0.name)]" }.joined(separator: ", ") + ": type more of the name")
            return
        }
        let missing = ClientError("not_found", "no conversation or user named \(key)")
        guard UInt64(key) == nil, inv.args.count == 1 else { inv.fail(missing); return }
        client.call(DMOpen(username: key)) { result in
            switch result {
            case .success(let f) where f.type == .conversation:
                guard let c = try? f.decode(Conversation.self) else { inv.fail("bad_answer", "unreadable conversation"); return }
                opened(inv, c)
            case .failure(let e) where e.code == "not_found" || e.code == "invalid_username":
                inv.fail(missing)
            case .failure(let e):
                inv.fail(e)
            case .success(let f):
                inv.fail("bad_answer", "unexpected answer \(f.type) from the server")
            }
        }
    }
}
