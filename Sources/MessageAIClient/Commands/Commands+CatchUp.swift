import Foundation
import MessageAIProtocol

/// /catchup [since TIME]: what happened across conversations while away (see `CatchUpAcross`).
enum CatchUpCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/catchup", "/catchup [since TIME]",
                    "across conversations: decisions, work now yours or done, questions waiting for you and mentions, since TIME (09:00, yesterday, 8h) or in what is unread (works offline)",
                    sync: true, args: 0...2, run: catchUp),
    ]

    /// Conversations read at most (the most recently active first) and messages per conversation.
    static let maxConversations = 50

    static func catchUp(_ inv: Invocation) {
        let usage = ClientError.usage("/catchup [since TIME]; TIME: 09:00, today, yesterday, 8h, 3d, 2026-11-20")
        var since: UInt64 = 0
        if !inv.args.isEmpty {
            guard inv.args.count == 2, inv.args[0].lowercased() == "since", let t = SinceTime.parse(inv.args[1]) else { inv.fail(usage); return }
            since = t
        }
        let c = inv.client
        guard let store = c.store, let me = c.username, let ids = try? store.conversationIDs() else { inv.fail(.notLoggedIn); return }
        let across = CatchUpAcross(me: me)
        var parts: [CatchUpAcross.Part] = []
        for cid in ids.prefix(maxConversations) {
            guard let conversation = try? store.conversation(cid),
                  let cached = try? store.messages(in: cid, limit: AssistantCommands.maxMessages) else { continue }
            let readUpTo = (try? store.marker(cid, userID: store.userID))??.read ?? 0
            let range = since > 0 ? cached.filter { $0.serverTime >= since } : cached.filter { $0.seq > readUpTo }
            guard !range.isEmpty else { continue }
            let items = (try? store.assistItems(conversationID: cid, filter: .all, kind: .action, me: me, limit: 500)) ?? []
            let input = CatchUpAcross.Input(conversationID: cid, name: c.conversationName(cid, fallback: conversation.name),
                                            direct: conversation.kind == .direct,
                                            members: conversation.members.map { $0.username.lowercased() }, messages: range, items: items)
            if let p = across.part(input, since: since) { parts.append(p) }
        }
        let head = since > 0 ? "catch-up since \(Output.day(since)) \(Output.clock(since))" : "catch-up of what is unread"
        let fields: [String: Any] = ["since": since > 0 ? since as Any : NSNull(), "conversations": parts.map(CatchUpAcross.fields)]
        guard !parts.isEmpty else { inv.succeed("catchup", fields, plain: head + ": nothing new"); return }
        // A mention with an image gets its thumbnail under its line (mentions end each part).
        var lines = [head + ":"]
        var wanted: [Int: Client.MessageKey] = [:]
        for p in parts {
            lines += CatchUpAcross.lines(p)
            for (j, m) in p.mentions.enumerated() {
                wanted[lines.count - p.mentions.count + j] = Client.MessageKey(conversationID: p.conversationID, seq: m.seq)
            }
        }
        c.images(of: Array(wanted.values)) { held in
            let drawn = wanted.compactMapValues { held[$0] }
            let rest = c.illustrate(lines, images: drawn) { inv.output.emit(Reply("catchup", [:], text: $0)) }
            inv.succeed("catchup", fields, plain: rest.isEmpty ? nil : rest.joined(separator: "\n"))
        }
    }
}
