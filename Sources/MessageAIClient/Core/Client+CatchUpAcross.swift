import Foundation
import MessageAIProtocol

/// The cross-conversation catch-up (`CatchUpAcross`) read from the cache, for `/catchup` and for
/// the screen shown when the user comes back after `awayForCatchUp`.
///
/// "Away" is measured from the last time this client was used at a terminal: a line typed at the
/// prompt, the REPL quitting, or the catch-up itself being shown. It is kept in the account's
/// cache (`LocalStore.lastSeen`), so it outlasts the process. Scripts (piped input, --json) never
/// move it and never get the screen unasked: they ask with `/catchup away`.
extension Client {
    static let awayForCatchUp: UInt64 = 6 * 3600 * 1000
    /// A typed line is written as "last seen" at most this often (the value may lag that much).
    static let lastSeenEvery: UInt64 = 60 * 1000

    /// Per conversation with activity since `since` (or, when 0, with unread messages), the
    /// most recently active first; nil when no account is open.
    func catchUpParts(since: UInt64) -> [CatchUpAcross.Part]? {
        guard let store, let me = username, let ids = try? store.conversationIDs() else { return nil }
        let across = CatchUpAcross(me: me)
        var parts: [CatchUpAcross.Part] = []
        for cid in ids.prefix(CatchUpCommands.maxConversations) {
            guard let conversation = try? store.conversation(cid),
                  let cached = try? store.messages(in: cid, limit: AssistantCommands.maxMessages) else { continue }
            let readUpTo = (try? store.marker(cid, userID: store.userID))??.read ?? 0
            let range = since > 0 ? cached.filter { $0.serverTime >= since } : cached.filter { $0.seq > readUpTo }
            guard !range.isEmpty else { continue }
            let items = (try? store.assistItems(conversationID: cid, filter: .all, kind: .action, me: me, limit: 500)) ?? []
            let input = CatchUpAcross.Input(conversationID: cid, name: conversationName(cid, fallback: conversation.name),
                                            direct: conversation.kind == .direct,
                                            members: conversation.members.map { $0.username.lowercased() }, messages: range, items: items)
            if let p = across.part(input, since: since) { parts.append(p) }
        }
        return parts
    }

    /// The user did something at the prompt: they are here.
    func noteUserActivity(now: UInt64 = Output.nowMs(), force: Bool = false) {
        guard config.interactive, let store else { return }
        guard force || now >= lastSeenWritten + Client.lastSeenEvery else { return }
        lastSeenWritten = now
        try? store.setLastSeen(now)
    }

    /// When the user was last here before the catch-up now due or last shown (for
    /// `/catchup away`); nil before this client was ever used at a terminal.
    var lastHere: UInt64? {
        if let awaySince { return awaySince }
        return (try? store?.lastSeen()).flatMap { $0 }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// At the end of every sync (a start or a reconnect), and at a start that found no server:
    /// after `awayForCatchUp` without a line typed here, the catch-up since then, once (showing
    /// it counts as being here). Nothing when nothing happened. A terminal only, `catchup` on.
    func considerAwayCatchUp(now: UInt64 = Output.nowMs()) {
        guard config.interactive, !config.json, config.catchUpAtStart, let store else { return }
        // At a start, "last seen" as it was before anything typed since moved it.
        let last = awayAtStart ?? (try? store.lastSeen()).flatMap { $0 } ?? 0
        awayAtStart = nil
        guard last > 0, now > last, now - last >= Client.awayForCatchUp else { return }
        awaySince = last
        noteUserActivity(now: now, force: true)
        guard let parts = catchUpParts(since: last), !parts.isEmpty else { return }
        let head = "while you were away (since \(Output.day(last)) \(Output.clock(last)), \(Client.awayFor(now - last))):"
        output.emit(Reply("catchup", ["since": last, "automatic": true, "conversations": parts.map(CatchUpAcross.fields)],
                          text: ([head] + parts.flatMap(CatchUpAcross.lines) + ["(/catchup away shows this again)"]).joined(separator: "\n")))
    }

    /// A start with no server: once the first attempt has failed (or `connectWait` passed), the
    /// catch-up from the cache. A start that syncs shows it at the sync's end instead.
    func awayCatchUpAtStart() {
        awayAtStart = (try? store?.lastSeen()).flatMap { $0 }
        wait(upTo: config.connectWait, until: { [unowned self] in synced || (link.attemptedOnce && link.state != .online) }) { [weak self] _ in
            guard let self, !self.synced else { return }
            self.considerAwayCatchUp()
        }
    }

    /// "7h", "2d 3h".
    static func awayFor(_ ms: UInt64) -> String {
        let hours = ms / 3_600_000
        return hours >= 24 ? "\(hours / 24)d \(hours % 24)h away" : "\(hours)h away"
    }
}
