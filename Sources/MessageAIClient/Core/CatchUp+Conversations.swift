import Foundation
import MessageAIAssistant
import MessageAIProtocol

/// `/catchup`: one screen across every conversation with activity since a time (or, without one,
/// with unread messages): its decisions, the work that is now yours, the work marked done, the
/// questions waiting for you and the messages that mention you. It reads the local cache and the
/// local engine only, so it works offline and sends no message text anywhere, like `/summary`.
struct CatchUpAcross {
    /// One conversation's part of the catch-up.
    struct Part {
        var conversationID: UInt64
        var name: String
        var messages: Int
        var decisions: [String]
        var yours: [ActionItem]
        var done: [AssistItem]
        var questions: [String]
        var mentions: [StoredMessage]

        var isEmpty: Bool { decisions.isEmpty && yours.isEmpty && done.isEmpty && questions.isEmpty && mentions.isEmpty }
    }

    /// What one conversation gives the catch-up: the messages in range, the members, whether it
    /// is a direct conversation (every open question there waits for me), and the items cached.
    struct Input {
        var conversationID: UInt64
        var name: String
        var direct: Bool
        var members: [String]
        var messages: [StoredMessage]
        var items: [AssistItem]
    }

    let me: String
    let engine: LocalEngine

    init(me: String, engine: LocalEngine = AssistantCommands.engine) { self.me = me.lowercased(); self.engine = engine }

    /// nil when the conversation had nothing from anyone else in range.
    func part(_ c: Input, since: UInt64) -> Part? {
        guard c.messages.contains(where: { $0.sender.lowercased() != me }), let first = c.messages.first else { return nil }
        let s = engine.summarize(ThreadToSummarize(participants: c.members, messages: AssistantCommands.lines(c.messages)))
        let start = since > 0 ? since : first.serverTime
        let done = c.items.filter { $0.kind == .action && $0.done && $0.doneAt >= start }
        // A question waits for me in a direct conversation, or where it names me ("@alice", "Alice, can you ...?").
        let questions = s.openQuestions.filter { q in c.direct || SummaryDoneMarks.words(q).contains(me) }
        let mentions = c.messages.filter { m in m.sender.lowercased() != me && m.text.lowercased().contains("@" + me) }
        return Part(conversationID: c.conversationID, name: c.name, messages: c.messages.count, decisions: s.decisions,
                    yours: s.actions.filter { $0.who == me }, done: done, questions: questions, mentions: mentions)
    }

    static func fields(_ p: Part) -> [String: Any] {
        ["conversation_id": p.conversationID, "conversation": p.name, "messages": p.messages, "decisions": p.decisions,
         "yours": p.yours.map(AssistantCommands.actionFields),
         "done": p.done.map { ["item_id": $0.itemID, "what": $0.text, "who": $0.who, "done_by": $0.doneBy] as [String: Any] },
         "questions": p.questions,
         "mentions": p.mentions.map { ["seq": $0.seq, "from": $0.sender, "text": $0.text] as [String: Any] }]
    }

    static func lines(_ p: Part) -> [String] {
        ["[\(p.name)] \(p.messages) message\(p.messages == 1 ? "" : "s")"]
            + p.decisions.map { "  - decision: " + $0 }
            + p.yours.map { "  - yours: " + $0.what + ($0.due.map { " (due \($0))" } ?? "") }
            + p.done.map { "  - done: \($0.who): \($0.text) (by \($0.doneBy))" }
            + p.questions.map { "  - waiting for you: " + $0 }
            + p.mentions.map { "  - mention: \($0.sender): \($0.text)" }
    }
}
