import Foundation
import MessageAIAssistant
import MessageAIProtocol

/// How the server's assistant answers read: JSON fields and plain lines, shared by the
/// commands and the pushes.
enum AssistantView {
    /// `zone`: the reader's, in which a resolved due date is also given.
    static func itemFields(_ i: AssistItem, conversation: String, zone: String) -> [String: Any] {
        var f: [String: Any] = ["item_id": i.itemID, "conversation_id": i.conversationID, "conversation": conversation, "seq": i.seq,
                                "kind": i.kind == .action ? "action" : "decision", "from": i.from, "done": i.done, "open": !i.done,
                                "rev": i.rev, "engine": i.engine, "engine_version": i.engineVersion]
        if i.kind == .action {
            f["what"] = i.text; f["who"] = i.who; f["due"] = i.due.isEmpty ? NSNull() : i.due
            // The text as written stays `due`; the instant is extra (null: none could be placed).
            f["due_at"] = i.dueAt > 0 ? i.dueAt : NSNull()
            if i.dueAt > 0 {
                f["due_time_zone"] = i.dueTimeZone.isEmpty ? "UTC" : i.dueTimeZone
                f["due_local"] = DueTimes.iso(at: i.dueAt, zone: zone)
                f["due_shown"] = DueTimes.describe(at: i.dueAt, timeZone: i.dueTimeZone, readerZone: zone)
            }
            if i.done { f["done_by"] = i.doneBy; f["done_at"] = i.doneAt }
        } else {
            f["decision"] = i.text
        }
        return f
    }

    /// "#12 [release] ben: tag the 2.3 hotfix branch (due Fri 27 Nov 17:00 (Tokyo) = Fri 09:00 here) [done by ben]"
    static func itemLine(_ i: AssistItem, conversation: String?, zone: String) -> String {
        let place = conversation.map { "[\($0)] " } ?? ""
        if i.kind == .decision { return "#\(i.itemID) \(place)\(i.from): \(i.text)" }
        return "#\(i.itemID) \(place)\(i.who): \(i.text)" + dueText(i, zone: zone) + (i.done ? " [done by \(i.doneBy)]" : "")
    }

    /// " (due Fri 27 Nov 17:00 (Tokyo) = Fri 09:00 here)" once placed on a calendar, else the
    /// words as written: " (due after standup)".
    static func dueText(_ i: AssistItem, zone: String) -> String {
        if i.dueAt > 0 { return " (due \(DueTimes.describe(at: i.dueAt, timeZone: i.dueTimeZone, readerZone: zone)))" }
        return i.due.isEmpty ? "" : " (due \(i.due))"
    }

    static func settingsFields(_ s: AssistSettings, conversation: String) -> [String: Any] {
        ["conversation_id": s.conversationID, "conversation": conversation, "provider_off": s.providerOff,
         "changed_by": s.changedBy, "provider_available": s.providerAvailable, "budget_left": s.budgetLeft]
    }

    static func summaryFields(_ r: AssistSummaryResult, conversation: String, marks: SummaryDoneMarks) -> [String: Any] {
        let work = r.actions.map { (what: $0.what, who: $0.who, due: $0.due.isEmpty ? nil : $0.due as String?) }
        return ["conversation_id": r.conversationID, "conversation": conversation, "messages": r.messageCount, "covered": r.covered,
         "from_seq": r.fromSeq, "to_seq": r.toSeq, "summary": marks.text(r.summary, work), "key_points": r.keyPoints, "decisions": r.decisions,
         "actions": marks.rows(work),
         "open_questions": r.openQuestions, "engine": r.engine, "engine_version": r.engineVersion,
         "fallback_reason": r.fallbackReason.isEmpty ? NSNull() : r.fallbackReason, "cached": r.cached, "source": "server"]
    }

    static func summaryPlain(_ r: AssistSummaryResult, conversation: String, marks: SummaryDoneMarks) -> String {
        guard r.messageCount > 0 else { return "no messages in [\(conversation)] yet" }
        var lines = ["summary of [\(conversation)], \(r.messageCount) messages (seq \(r.fromSeq)-\(r.toSeq))"
                     + (r.covered < r.messageCount ? ", the newest \(r.covered) read" : "") + ", by \(r.engine) \(r.engineVersion):",
                     marks.text(r.summary, r.actions.map { (what: $0.what, who: $0.who, due: $0.due.isEmpty ? nil : $0.due as String?) })]
        if !r.openQuestions.isEmpty { lines.append("open questions:\n" + r.openQuestions.map { "- " + $0 }.joined(separator: "\n")) }
        if !r.fallbackReason.isEmpty { lines.append("note: " + r.fallbackReason) }
        return lines.joined(separator: "\n")
    }
}
