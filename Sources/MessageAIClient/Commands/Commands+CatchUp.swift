import Foundation
import MessageAIProtocol

/// /catchup [since TIME | away]: what happened across conversations while away (see `CatchUpAcross`).
enum CatchUpCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/catchup", "/catchup [since TIME | away]",
                    "across conversations: decisions, work now yours or done, questions waiting for you and mentions, since TIME (09:00, yesterday, 8h), since you last used this client at a terminal (away), or in what is unread; works offline. The REPL shows it by itself once when you come back after 6 hours without typing here (/set catchup off)",
                    sync: true, args: 0...2, run: catchUp),
    ]

    /// Conversations read at most (the most recently active first) and messages per conversation.
    static let maxConversations = 50

    static func catchUp(_ inv: Invocation) {
        let usage = ClientError.usage("/catchup [since TIME | away]; TIME: 09:00, today, yesterday, 8h, 3d, 2026-11-20")
        let c = inv.client
        var since: UInt64 = 0
        if inv.args.count == 1 && inv.args[0].lowercased() == "away" {
            guard c.store != nil else { inv.fail(.notLoggedIn); return }
            guard let last = c.lastHere else {
                inv.fail(ClientError("not_found", "this client has not been used at a terminal yet: try /catchup since TIME")); return
            }
            since = last
        } else if !inv.args.isEmpty {
            guard inv.args.count == 2, inv.args[0].lowercased() == "since", let t = SinceTime.parse(inv.args[1]) else { inv.fail(usage); return }
            since = t
        }
        guard let parts = c.catchUpParts(since: since) else { inv.fail(.notLoggedIn); return }
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
