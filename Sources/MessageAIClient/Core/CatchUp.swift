import Foundation
import MessageAIAssistant

/// Coming back to a conversation after at least 6 hours away with at least 15 unread messages:
/// a short catch-up (decisions, open work with owners and dates, open questions) under the
/// recap, instead of an offer to type /summary. The local engine answers in milliseconds with no
/// network, so showing it costs nothing, and it is what a person back from a night away reads first.
enum CatchUp {
    static let away: UInt64 = 6 * 3600 * 1000
    static let minUnread = 15
    static let maxLines = 6

    /// "Away since": the later of the last message read here and the last one sent by me.
    /// nil when the conversation does not call for a catch-up.
    static func lines(_ messages: [StoredMessage], readUpTo: UInt64, me: UInt64, members: [String], now: UInt64) -> [String]? {
        let unread = messages.filter { $0.seq > readUpTo && $0.senderID != me }
        guard unread.count >= minUnread else { return nil }
        let lastHere = messages.filter { $0.seq <= readUpTo || $0.senderID == me }.map(\.serverTime).max() ?? 0
        guard lastHere > 0, now > lastHere, now - lastHere >= away, let first = unread.first else { return nil }
        let range = messages.filter { $0.seq >= first.seq }
        let s = AssistantCommands.engine.summarize(ThreadToSummarize(participants: members, messages: AssistantCommands.lines(range)))
        var out = s.decisions.map { "Decision: " + $0 } + s.actions.map(AssistantCommands.describe) + s.openQuestions.map { "Open: " + $0 }
        if out.count < maxLines {
            out += s.keyPoints.filter { k in !k.hasPrefix("Decision:") && !k.hasPrefix("Open:") && !s.actions.contains { k.hasPrefix("\($0.who): ") } }
        }
        let shown = out.prefix(maxLines).map { "  - " + $0 }
        let more = out.count > maxLines ? ", /summary unread for all of it" : ""
        return ["catch-up: \(unread.count) unread since \(Output.day(lastHere)) \(Output.clock(lastHere))\(more)"] + shown
    }
}

extension Client {
    /// The catch-up lines for `cid` (see `CatchUp`); empty when there is nothing to catch up on.
    func catchUp(_ cid: UInt64, now: Date = Date()) -> [String] {
        guard let store, let messages = try? store.messages(in: cid, limit: AssistantCommands.maxMessages) else { return [] }
        let readUpTo = (try? store.marker(cid, userID: store.userID))??.read ?? 0
        let members = (try? store.conversation(cid))?.members.map { $0.username.lowercased() } ?? []
        return CatchUp.lines(messages, readUpTo: readUpTo, me: store.userID, members: members,
                             now: UInt64(now.timeIntervalSince1970 * 1000)) ?? []
    }
}
