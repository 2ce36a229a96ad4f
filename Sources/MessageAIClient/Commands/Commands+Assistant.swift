import Foundation
import MessageAIAssistant

/// /check, /summary, /actions, /decisions: the local assistant engine on the local cache, so they
/// work offline and never send message text anywhere.
enum AssistantCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/check", "/check TEXT... | /check mode [off | warn | confirm]",
                    "would TEXT be unclear or read as rude here? (reasons; uses this conversation's recent messages); mode: the check before sending",
                    sync: true, args: 1...Int.max, run: check),
        CommandSpec("/summary", "/summary [N | unread | since TIME]",
                    "a summary of the last N messages here (default 50), of what was unread when you opened it, or since TIME (09:00, yesterday, 2h, 2026-11-20)",
                    sync: true, args: 0...2, run: summary),
        CommandSpec("/actions", "/actions [open | mine | all]", "action items: open ones here (default), yours everywhere, or all including done ones (every conversation when none is open)",
                    sync: true, args: 0...1, run: actions),
        CommandSpec("/decisions", "/decisions", "decisions recorded in this conversation (every conversation when none is open)", sync: true, run: decisions),
    ]

    static let engine = LocalEngine()
    /// The most messages one command reads from the cache (a summary of more is rarely read).
    static let maxMessages = 200
    static let contextSize = 4

    struct Scope {
        var cid: UInt64
        var name: String
        var me: String
        var members: [String]
        var messages: [StoredMessage]
    }

    static func scope(_ inv: Invocation, limit: Int, after: UInt64 = 0) -> Scope? {
        guard let cid = MessageCommands.currentConversation(inv) else { return nil }
        guard let store = inv.client.store, let me = inv.client.username,
              let cached = try? store.messages(in: cid, limit: limit) else { inv.fail(.notLoggedIn); return nil }
        let members = (try? store.conversation(cid))?.members.map { $0.username.lowercased() } ?? []
        return Scope(cid: cid, name: inv.client.conversationName(cid, fallback: ""), me: me.lowercased(),
                     members: members.isEmpty ? Array(Set(cached.map { $0.sender.lowercased() } + [me.lowercased()])).sorted() : members,
                     messages: cached.filter { $0.seq > after })
    }

    static func lines(_ messages: [StoredMessage]) -> [ChatLine] { messages.map { ChatLine(from: $0.sender.lowercased(), text: $0.text) } }

    static func engineFields(_ e: EngineInfo) -> [String: Any] { ["engine": e.name, "engine_version": e.version] }

    static func check(_ inv: Invocation) {
        if inv.args.first?.lowercased() == "mode", inv.args.count <= 2, inv.args.count == 1 || DraftCheckMode(rawValue: inv.args[1].lowercased()) != nil {
            DraftCheck.mode(inv); return
        }
        let text = inv.rest(from: 0)
        // Without an open conversation the draft is judged on its own (no context, one reader).
        let s: Scope
        if inv.client.currentConversation == nil {
            s = Scope(cid: 0, name: "", me: inv.client.username?.lowercased() ?? "me", members: [], messages: [])
        } else {
            guard let found = scope(inv, limit: contextSize) else { return }
            s = found
        }
        let others = s.members.filter { $0 != s.me }
        let j = engine.judge(MessageToJudge(from: s.me, to: others.isEmpty ? [s.name] : others, text: text, context: lines(s.messages)))
        let flags = j.clarity.map { ("clarity", $0) } + j.tone.map { ("tone", $0) }
        var plain = flags.isEmpty ? "looks clear and polite" : flags.map { "\($0.0): \($0.1.reason)" }.joined(separator: "\n")
        if !j.actions.isEmpty { plain += "\n" + j.actions.map { "action: " + describe($0) }.joined(separator: "\n") }
        if let d = j.decision { plain += "\ndecision: \(d)" }
        inv.succeed("check", ["text": text, "clarity_flag": j.clarityFlag, "tone_flag": j.toneFlag,
                              "clarity": j.clarity.map(flagFields), "tone": j.tone.map(flagFields),
                              "actions": j.actions.map(actionFields), "decision": j.decision as Any? ?? NSNull()]
                        .merging(engineFields(j.engine)) { a, _ in a }, plain: plain)
    }

    static func summary(_ inv: Invocation) {
        if ServerAssistantCommands.summary(inv) { return }
        var limit = 50
        var unread = false
        var since: UInt64? = nil
        let usage = ClientError.usage("/summary [N | unread | since TIME] with N from 1 to \(maxMessages); TIME: 09:00, today, yesterday, 2h, 3d, 2026-11-20")
        if let a = inv.args.first?.lowercased() {
            if a == "unread" && inv.args.count == 1 { unread = true; limit = maxMessages }
            else if a == "since" && inv.args.count == 2 {
                guard let t = SinceTime.parse(inv.args[1]) else { inv.fail(usage); return }
                since = t; limit = maxMessages
            }
            else if let n = Int(a), n > 0, n <= maxMessages, inv.args.count == 1 { limit = n }
            else { inv.fail(usage); return }
        }
        guard var s = scope(inv, limit: limit, after: unread ? inv.client.readBeforeOpen : 0) else { return }
        if let since { s.messages = s.messages.filter { $0.serverTime >= since } }
        guard !s.messages.isEmpty else {
            let none = unread ? "nothing was unread in [\(s.name)]" : since != nil ? "no messages in [\(s.name)] since \(inv.args[1])" : "no messages in [\(s.name)] yet"
            inv.succeed("summary", ["conversation_id": s.cid, "conversation": s.name, "messages": 0, "summary": ""], plain: none)
            return
        }
        let r = engine.summarize(ThreadToSummarize(participants: s.members, messages: lines(s.messages)))
        // Offline too, work marked done on any device (as last synced) shows done.
        let marks = SummaryDoneMarks(cacheOf: inv.client, conversationID: s.cid)
        let work = r.actions.map { (what: $0.what, who: $0.who, due: $0.due) }
        var plain = ["summary of [\(s.name)], \(s.messages.count) messages (seq \(s.messages.first!.seq)-\(s.messages.last!.seq)):", marks.text(r.summary, work)]
        if !r.openQuestions.isEmpty { plain.append("open questions:\n" + r.openQuestions.map { "- " + $0 }.joined(separator: "\n")) }
        inv.succeed("summary", ["conversation_id": s.cid, "conversation": s.name, "messages": s.messages.count,
                                "from_seq": s.messages.first!.seq, "to_seq": s.messages.last!.seq, "summary": marks.text(r.summary, work),
                                "key_points": r.keyPoints, "decisions": r.decisions, "actions": marks.rows(work),
                                "open_questions": r.openQuestions].merging(engineFields(r.engine)) { a, _ in a },
                    plain: plain.joined(separator: "\n"))
    }

    static func actions(_ inv: Invocation) {
        let which = inv.args.first ?? "open"
        guard ["open", "mine", "all"].contains(which) else { inv.fail(.usage("/actions [open | mine | all]")); return }
        if ServerAssistantCommands.actions(inv, filter: which) { return }
        guard let s = scope(inv, limit: maxMessages) else { return }
        let thread = ThreadToSummarize(participants: s.members, messages: lines(s.messages))
        let open = engine.summarize(thread).actions
        var rows: [[String: Any]]
        if which == "all" {
            // Every ask and commitment as written, each marked open or done.
            rows = s.messages.enumerated().flatMap { i, m -> [[String: Any]] in
                let context = lines(Array(s.messages[max(0, i - contextSize)..<i]))
                let to = s.members.filter { $0 != m.sender.lowercased() }
                return engine.judge(MessageToJudge(from: m.sender.lowercased(), to: to, text: m.text, context: context)).actions.map { item in
                    var row = actionFields(item)
                    row["seq"] = m.seq
                    row["from"] = m.sender
                    row["open"] = open.contains { $0.what == item.what || ($0.who == item.who && $0.what.split(separator: " ").first == item.what.split(separator: " ").first) }
                    return row
                }
            }
        } else {
            rows = open.filter { which == "open" || $0.who == s.me || $0.who == "everyone" }.map(actionFields)
        }
        let plain = rows.map { r in
            "\(r["who"] as? String ?? ""): \(r["what"] as? String ?? "")" + ((r["due"] as? String).map { " (due \($0))" } ?? "")
                + ((r["open"] as? Bool).map { $0 ? "" : " [done]" } ?? "")
        }
        inv.succeed("actions", ["conversation_id": s.cid, "conversation": s.name, "filter": which, "actions": rows,
                                "engine": engine.info.name, "engine_version": engine.info.version],
                    plain: plain.isEmpty ? "no \(which == "all" ? "" : which + " ")action items in [\(s.name)]" : plain.joined(separator: "\n"))
    }

    static func decisions(_ inv: Invocation) {
        if ServerAssistantCommands.decisions(inv) { return }
        guard let s = scope(inv, limit: maxMessages) else { return }
        var rows: [[String: Any]] = []
        for (i, m) in s.messages.enumerated() {
            let context = lines(Array(s.messages[max(0, i - contextSize)..<i]))
            let msg = MessageToJudge(from: m.sender.lowercased(), to: s.members.filter { $0 != m.sender.lowercased() }, text: m.text, context: context)
            if let d = engine.judge(msg).decision { rows.append(["seq": m.seq, "from": m.sender, "decision": d, "time": m.serverTime]) }
        }
        let plain = rows.map { "\(Output.clock($0["time"] as! UInt64, trailingSpace: true))\($0["from"] as! String): \($0["decision"] as! String)" }
        inv.succeed("decisions", ["conversation_id": s.cid, "conversation": s.name, "decisions": rows,
                                  "engine": engine.info.name, "engine_version": engine.info.version],
                    plain: plain.isEmpty ? "no decisions recorded in [\(s.name)]" : plain.joined(separator: "\n"))
    }

    /// "carol: rotate the certificate (due Friday)"; without an owner (a draft judged with no
    /// conversation open has no reader to name) just the task, never ": task".
    static func describe(_ a: ActionItem) -> String {
        (a.who.isEmpty ? "" : "\(a.who): ") + a.what + (a.due.map { " (due \($0))" } ?? "")
    }
    static func actionFields(_ a: ActionItem) -> [String: Any] { ["what": a.what, "who": a.who, "due": a.due as Any? ?? NSNull()] }
    static func flagFields(_ f: Flag) -> [String: Any] { ["kind": f.kind.rawValue, "reason": f.reason] }
}
