import Foundation
import MessageAIProtocol

/// /reply, /react, /reactions, /edit, /delete: REF is a message reference (`#42`, `42`, `-1`).
enum ChangeCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/reply", "/reply REF TEXT...", "answer message REF (#SEQ or -N); readers see a quote of it", sync: true,
                    args: 2...Int.max, run: reply),
        CommandSpec("/react", "/react REF EMOJI", "add a reaction (an emoji, or :+1: :tada: :heart: ...); again to remove it",
                    sync: true, args: 2...2, run: react),
        CommandSpec("/reactions", "/reactions REF", "who reacted to message REF, and with what", sync: true, args: 1...1, run: reactions),
        CommandSpec("/edit", "/edit [REF TEXT...]", "replace the text of your message REF (within the server's edit window); alone: your last message",
                    sync: true, args: 0...Int.max, run: edit),
        CommandSpec("/delete", "/delete REF", "delete your message REF for everyone (asks to confirm in the REPL)", sync: true,
                    args: 1...1, run: delete),
    ]

    /// The message REF names in the current conversation, from the cache.
    private static func target(_ inv: Invocation, _ ref: String, usage: String) -> StoredMessage? {
        guard let cid = MessageCommands.currentConversation(inv), let store = inv.client.store else { return nil }
        guard let seq = MessageRef.resolve(ref, last: (try? store.lastSeq(in: cid)) ?? 0) else {
            inv.fail(.usage("\(usage) with REF \(MessageRef.usage)")); return nil
        }
        guard let m = try? store.message(in: cid, seq: seq) else {
            inv.fail("no_such_message", "no message #\(seq) here (/history shows the references)"); return nil
        }
        return m
    }

    private static func finish(_ inv: Invocation, _ result: Result<OutboxEntry, ClientError>, _ fields: [String: Any], plain: String?) {
        switch result {
        case .success(let e):
            var f = fields
            f["client_id"] = e.clientID
            inv.succeed("ok", f, plain: inv.client.authenticated ? plain : (plain.map { $0 + " " } ?? "") + "(queued: offline)")
        case .failure(let e):
            inv.fail(e)
        }
    }

    static func reply(_ inv: Invocation) {
        guard let m = target(inv, inv.args[0], usage: "/reply REF TEXT") else { return }
        guard !m.deleted else { inv.fail("message_deleted", "message #\(m.seq) was deleted"); return }
        finish(inv, inv.client.queueMessage(inv.rest(from: 1), replyTo: m.seq), ["reply_to": m.seq], plain: nil)
    }

    static func react(_ inv: Invocation) {
        guard let m = target(inv, inv.args[0], usage: "/react REF EMOJI"), let store = inv.client.store else { return }
        guard !m.deleted else { inv.fail("message_deleted", "message #\(m.seq) was deleted"); return }
        guard let emoji = Shortcodes.emoji(for: inv.args[1]) else {
            inv.fail("invalid_reaction", "a reaction is one emoji, or a shortcode such as :+1: :tada: :heart: (\(Shortcodes.known))"); return
        }
        // Toggles what the user will see once the outbox is sent: a reaction still queued counts.
        let queued = inv.client.outbox?.entries.last {
            $0.conversationID == m.conversationID && $0.target == m.seq && $0.emoji == emoji && $0.changeAction != nil
        }
        let remove = queued.map { $0.changeAction == .react }
            ?? ((try? store.hasReaction(in: m.conversationID, seq: m.seq, emoji: emoji)) ?? false)
        finish(inv, inv.client.queueChange(remove ? .unreact : .react, target: m.seq, emoji: emoji),
               ["action": remove ? "unreact" : "react", "target_seq": m.seq, "emoji": emoji], plain: nil)
    }

    static func reactions(_ inv: Invocation) {
        guard let m = target(inv, inv.args[0], usage: "/reactions REF"), let store = inv.client.store else { return }
        let all = (try? store.reactions(in: m.conversationID, seq: m.seq)) ?? []
        var order: [String] = []
        var who: [String: [String]] = [:]
        for r in all {
            if who[r.emoji] == nil { order.append(r.emoji) }
            who[r.emoji, default: []].append(r.username)
        }
        let rows: [[String: Any]] = order.map { ["emoji": $0, "users": who[$0]!] }
        let lines = order.map { "\($0) \(who[$0]!.count): \(who[$0]!.joined(separator: ", "))" }
        inv.succeed("reactions", ["conversation_id": m.conversationID, "seq": m.seq, "reactions": rows],
                    plain: lines.isEmpty ? "no reactions to #\(m.seq)" : lines.joined(separator: "\n"))
    }

    static func edit(_ inv: Invocation) {
        let client = inv.client
        guard let store = client.store, let cid = MessageCommands.currentConversation(inv) else { return }
        guard inv.args.count >= 2 else {
            // Alone: the last message of one's own, ready to be retyped.
            let seq = (try? store.lastOwnSeq(in: cid)) ?? 0
            guard inv.args.isEmpty, seq > 0, let m = try? store.message(in: cid, seq: seq), !m.deleted else {
                inv.fail(.usage("/edit REF TEXT (no message of yours to edit here)")); return
            }
            let command = "/edit #\(seq) \(m.text)"
            client.prefill?(command)
            inv.succeed("edit_draft", ["conversation_id": cid, "seq": seq, "text": m.text],
                        plain: client.prefill == nil ? "your last message: \(command)" : nil)
            return
        }
        guard let m = target(inv, inv.args[0], usage: "/edit REF TEXT") else { return }
        guard m.senderID == store.userID else { inv.fail("not_sender", "only \(m.sender), who sent #\(m.seq), can edit it"); return }
        guard !m.deleted else { inv.fail("message_deleted", "message #\(m.seq) was deleted"); return }
        finish(inv, client.queueChange(.edit, target: m.seq, text: inv.rest(from: 1)), ["action": "edit", "target_seq": m.seq], plain: nil)
    }

    static func delete(_ inv: Invocation) {
        let client = inv.client
        guard let m = target(inv, inv.args[0], usage: "/delete REF"), let store = client.store else { return }
        guard m.senderID == store.userID else { inv.fail("not_sender", "only \(m.sender), who sent #\(m.seq), can delete it"); return }
        guard !m.deleted else { inv.fail("message_deleted", "message #\(m.seq) was already deleted"); return }
        if client.config.interactive {
            // Final and for everyone: the REPL asks once; the same /delete again confirms.
            if let p = client.pendingDelete, p.conversationID == m.conversationID, p.seq == m.seq, p.until > Date() {
                client.pendingDelete = nil
            } else {
                client.pendingDelete = (m.conversationID, m.seq, Date().addingTimeInterval(60))
                let snippet = m.text.count > 40 ? String(m.text.prefix(40)) + "…" : m.text
                inv.succeed("confirm", ["seq": m.seq], plain: "delete #\(m.seq) \"\(snippet)\" for everyone, for good? Type /delete #\(m.seq) again to confirm.")
                return
            }
        }
        finish(inv, client.queueChange(.delete, target: m.seq), ["action": "delete", "target_seq": m.seq], plain: nil)
    }
}

/// The shortcodes people type for the usual reactions (Slack's and GitHub's names).
enum Shortcodes {
    static let table: [String: String] = [
        "+1": "👍", "thumbsup": "👍", "-1": "👎", "thumbsdown": "👎", "tada": "🎉", "heart": "❤️", "joy": "😂",
        "laughing": "😆", "smile": "😄", "slightly_smiling_face": "🙂", "wink": "😉", "thinking": "🤔", "eyes": "👀",
        "fire": "🔥", "rocket": "🚀", "clap": "👏", "pray": "🙏", "ok_hand": "👌", "wave": "👋", "100": "💯",
        "white_check_mark": "✅", "heavy_check_mark": "✔️", "x": "❌", "warning": "⚠️", "cry": "😢", "sob": "😭",
        "open_mouth": "😮", "scream": "😱", "rage": "😡", "muscle": "💪", "star": "⭐", "sparkles": "✨", "coffee": "☕",
        "bug": "🐛", "ship": "🚢", "party": "🥳", "partying_face": "🥳", "see_no_evil": "🙈", "raised_hands": "🙌",
    ]

    static var known: String { [":+1:", ":tada:", ":heart:", ":eyes:", ":rocket:", ":joy:"].joined(separator: " ") }

    /// The emoji for `:name:` (with an optional skin tone `:+1::skin-tone-3:`), or the text
    /// itself when it is already one emoji; nil otherwise.
    static func emoji(for text: String) -> String? {
        if ReactionEmoji.isValid(text) { return text }
        let parts = text.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        guard text.hasPrefix(":"), text.hasSuffix(":"), let first = parts.first, var e = table[first.lowercased()] else { return nil }
        if parts.count == 2, parts[1].hasPrefix("skin-tone-"), let n = Int(parts[1].dropFirst(10)), (2...6).contains(n),
           let tone = Unicode.Scalar(0x1F3FB + n - 2) {
            e = String(e.unicodeScalars.filter { $0.value != 0xFE0F }) + String(tone)
        } else if parts.count != 1 {
            return nil
        }
        return ReactionEmoji.isValid(e) ? e : nil
    }
}
