import Foundation
import MessageAIProtocol

/// /history, /find, /info, /queue, /retry
enum MessageCommands {
    static let specs: [CommandSpec] = [
        CommandSpec("/history", "/history [N] [before #SEQ|-N]",
                    "the last N messages of the current conversation (default 20; works offline); older pages with before #SEQ (or -N: before the Nth newest)",
                    sync: true, args: 0...3, run: history),
        CommandSpec("/find", "/find QUERY...", "search messages by word, newest first, queued ones too (same rules online and offline)", sync: true, args: 1...Int.max, run: find),
        CommandSpec("/info", "/info [#SEQ|-N]", "a message's state and who has it (default: your last message here; -1 is the last message)",
                    sync: true, args: 0...1, run: info),
        CommandSpec("/queue", "/queue", "messages waiting in the outbox", run: queue),
        CommandSpec("/retry", "/retry", "reconnect now and send queued messages", run: retry),
    ]

    static func currentConversation(_ inv: Invocation) -> UInt64? {
        guard let cid = inv.client.currentConversation else {
            inv.fail("no_conversation", "no conversation is open: use /dm USER or /open NAME")
            return nil
        }
        return cid
    }

    static func history(_ inv: Invocation) {
        var limit = 20
        var before: UInt64 = 0
        var args = inv.args[...]
        if let a = args.first, a != "before" {
            guard let n = Int(a), n > 0, n <= 500 else { inv.fail(.usage("/history [N] [before SEQ] with N from 1 to 500")); return }
            limit = n
            args = args.dropFirst()
        }
        guard let cid = currentConversation(inv) else { return }
        if !args.isEmpty {
            let last = (try? inv.client.store?.lastSeq(in: cid)) ?? 0
            guard args.count == 2, args.first == "before", let seq = MessageRef.resolve(args.last!, last: last) else {
                inv.fail(.usage("/history [N] [before \(MessageRef.usage)]")); return
            }
            before = seq
        }
        let client = inv.client
        // Online: fetch the page so the cache holds it; offline: the cache alone.
        guard client.authenticated else { showHistory(inv, cid, limit, before); return }
        client.link.request(HistoryRequest(conversationID: cid, beforeSeq: before, limit: UInt64(limit))) { result in
            if case .success(let f) = result, f.type == .historyPage, let page = try? f.decode(HistoryPage.self) {
                let ids = Set(client.outbox?.entries.map(\.clientID) ?? [])
                _ = try? client.store?.insert(page.messages, sentHere: ids)
            }
            showHistory(inv, cid, limit, before)
            return true
        }
    }

    private static func showHistory(_ inv: Invocation, _ cid: UInt64, _ limit: Int, _ before: UInt64) {
        let client = inv.client
        guard let store = client.store, let messages = try? store.messages(in: cid, limit: limit, before: before) else {
            inv.fail(.notLoggedIn); return
        }
        // Thumbnails the page lacks are fetched (and kept) first when the terminal shows them.
        let seqs = (messages.first?.seq ?? 0)...(messages.last?.seq ?? 0)
        let attachments = client.previewMode == .none || messages.isEmpty ? [] : (try? store.attachments(in: cid, seqs: seqs)) ?? []
        client.fetchThumbnails(attachments) { withThumbnails in
            let images = Dictionary(withThumbnails.map { ($0.seq, $0.attachment) }, uniquingKeysWith: { a, _ in a })
            showHistory(inv, cid, limit, before, messages, images: images)
        }
    }

    /// The page, each image's thumbnail drawn under its line (`images` is empty unless the
    /// terminal shows previews): the lines before an image go out first, then its drawing.
    private static func showHistory(_ inv: Invocation, _ cid: UInt64, _ limit: Int, _ before: UInt64,
                                    _ messages: [StoredMessage], images: [UInt64: Attachment]) {
        let client = inv.client
        guard let store = client.store else { inv.fail(.notLoggedIn); return }
        let name = client.conversationName(cid, fallback: "")
        var rows: [[String: Any]] = []
        var lines: [String] = []
        var shownAny = false
        var lastDay = ""
        for m in messages {
            let state = m.senderID == store.userID ? ((try? store.state(of: m.seq, in: cid)) ?? .sent).rawValue : ""
            var row = client.messageFields(m, conversation: name)
            row["state"] = state.isEmpty ? "received" : state
            rows.append(row)
            let day = Output.day(m.serverTime)
            if day != lastDay { lines.append("--- \(day) ---"); lastDay = day }
            lines.append(client.messageLine(m, conversation: name, suffix: state.isEmpty ? "" : " (\(state))"))
            if let a = images[m.seq], let art = client.thumbnailArt(a) {
                inv.output.emit(Reply("history", [:], text: lines.joined(separator: "\n")))
                inv.output.drawImage(art)
                lines = []
                shownAny = true
            }
        }
        for e in before == 0 ? client.outbox?.entries(in: cid) ?? [] : [] {
            rows.append(["seq": 0, "sender": client.session?.username ?? "", "text": e.text, "server_time": e.created,
                         "client_id": e.clientID, "state": "sending", "conversation_id": cid, "conversation": name])
            lines.append("[\(name)] \(Output.clock(e.created, trailingSpace: true))\(Client.ownLine(client.session?.username ?? "", e.text)) (sending)")
        }
        client.markRead(cid) { _ in
            let older = (messages.first?.seq ?? 0) > 1
            if older && !client.output.json { lines.append("(older: /history \(limit) before \(messages.first!.seq))") }
            inv.succeed("history", ["conversation_id": cid, "conversation": name, "messages": rows, "has_more": older],
                        plain: !lines.isEmpty ? lines.joined(separator: "\n") : shownAny ? nil : "no messages in [\(name)] yet")
        }
    }

    /// Online: the server's full-text search over the whole history (also what this device
    /// never fetched). Offline, or if the server cannot answer: the cache's index, built and
    /// queried by the same rules. Queued messages are searched too, by the same rules. Server
    /// results are shown, not stored: storing a message out of order would move the cache's
    /// sync position past messages it does not hold yet.
    static func find(_ inv: Invocation) {
        let client = inv.client
        let query = inv.rest(from: 0)
        guard client.authenticated else { findLocally(inv, query); return }
        client.call(SearchRequest(query: query, limit: 50)) { result in
            guard case .success(let f) = result, f.type == .searchResults, let r = try? f.decode(SearchResults.self) else {
                findLocally(inv, query)
                return
            }
            showFound(inv, query, r.messages.map { StoredMessage($0, sentHere: false) })
        }
    }

    private static func findLocally(_ inv: Invocation, _ query: String) {
        guard let store = inv.client.store, let found = try? store.search(query) else { inv.fail(.notLoggedIn); return }
        showFound(inv, query, found)
    }

    private static func showFound(_ inv: Invocation, _ query: String, _ found: [StoredMessage]) {
        let client = inv.client
        let me = client.session.map { ($0.userID, $0.username) } ?? (0, "")
        let queued = ((try? client.store?.searchQueued(query, in: client.outbox?.entries ?? [])) ?? []).map {
            StoredMessage(conversationID: $0.conversationID, seq: 0, clientID: $0.clientID, senderID: me.0, sender: me.1,
                          text: $0.text, serverTime: $0.created, sentHere: true)
        }
        let line = { (m: StoredMessage) in client.line(m, conversation: client.conversationName(m.conversationID, fallback: "")) }
        inv.succeed(FoundMessages(query: query, queued: queued.map(line), found: found.map(line)))
    }

    static func info(_ inv: Invocation) {
        guard let cid = currentConversation(inv), let store = inv.client.store else { return }
        var seq: UInt64
        if let a = inv.args.first {
            guard let n = MessageRef.resolve(a, last: ((try? store.lastSeq(in: cid)) ?? 0)) else {
                inv.fail(.usage("/info [\(MessageRef.usage)]")); return
            }
            seq = n
        } else {
            let mine = (try? store.messages(sentHereIn: cid))?.last?.seq
            seq = mine ?? ((try? store.lastSeq(in: cid)) ?? 0)
        }
        guard seq > 0, let m = try? store.message(in: cid, seq: seq) else { inv.fail("not_found", "no message #\(seq) here"); return }
        let state = m.senderID == store.userID ? ((try? store.state(of: seq, in: cid)) ?? .sent).rawValue : "received"
        let report = { (recipients: Int, delivered: [String], read: [String]) in
            inv.succeed("info", ["conversation_id": cid, "seq": seq, "state": state, "sender": m.sender, "text": m.text,
                                 "recipient_count": recipients, "delivered_to": delivered, "read_by": read],
                        plain: "message #\(seq) from \(m.sender): \(state); read by \(read.count) of \(recipients)"
                            + (read.isEmpty ? "" : " (\(read.joined(separator: ", ")))")
                            + "; delivered to \(delivered.count) of \(recipients)")
        }
        guard inv.client.authenticated else {
            // Offline: what the cached markers say.
            let others = ((try? store.otherMarkers(cid)) ?? []).filter { $0.userID != m.senderID }
            report(others.count, others.filter { $0.delivered >= seq }.map(\.username), others.filter { $0.read >= seq }.map(\.username))
            return
        }
        inv.client.call(ReadersRequest(conversationID: cid, seq: seq), for: inv, expect: ReadersResult.self) { r in
            report(Int(r.recipientCount), r.deliveredTo.map(\.username), r.readBy.map(\.username))
        }
    }

    static func queue(_ inv: Invocation) {
        let client = inv.client
        let entries = client.outbox?.entries ?? []
        let rows: [[String: Any]] = entries.map { ["client_id": $0.clientID, "conversation_id": $0.conversationID, "text": $0.text, "created": $0.created] }
        let lines = entries.map { "[\(client.conversationName($0.conversationID, fallback: ""))] \($0.text) (sending)" }
        inv.succeed("queue", ["messages": rows], plain: lines.isEmpty ? "the outbox is empty" : lines.joined(separator: "\n"))
    }

    static func retry(_ inv: Invocation) {
        inv.client.retryNow()
        let n = inv.client.outbox?.entries.count ?? 0
        inv.succeed("ok", ["queued": n], plain: "retrying now; \(n) message(s) queued")
    }
}
