import Foundation
import MessageAIAssistant

/// The chat messages sent for each task. The rules are ASSISTANT.md's, shortened; the answer's
/// shape is spelled out because not every server honours `response_format`. Messages are
/// numbered so that each item can cite the one it came from, which lets the engine drop items
/// citing messages it never showed.
enum Prompts {
    struct Prompt {
        var system: String
        var user: String
        /// The message indices the model was shown.
        var shown: Range<Int>
    }

    static let actionRules = """
        An action item is work someone is asked or has committed to do after the message: requests, \
        assignments, and the sender's own commitments ("I'll ..."). Not: hypotheticals, wishes, work \
        already done, questions that only ask for information, conditional offers, status reports. \
        "what": a short phrase starting with the message's own verb in base form, naming the object, \
        references resolved ("tag the 2.3 hotfix branch", not "tag it"); two verbs are two items. \
        "due": the shortest time expression as written ("5pm", "Friday EOD"), no leading "by", or null.
        """

    static func judge(_ m: MessageToJudge, budget: Int) -> Prompt {
        let system = """
            You review one chat message for a messaging app. Answer with one JSON object only, no prose:
            {"actions":[{"what":"...","who":"...","due":null,"message":N}],"clarity_flag":false,\
            "clarity_kind":null,"clarity_reason":null,"tone_flag":false,"tone_kind":null,"tone_reason":null,"decision":null}
            \(actionRules) "who": "sender", "recipient" (in a group: work for everyone or nobody in particular), \
            or a member's name in lower case. "message": the number of the message the item comes from.
            clarity_flag: true when the reader will have to ask what is meant: a pronoun (it, this, that, \
            they) with no antecedent in the message or earlier messages, a bare "the doc"/"the bug" never \
            identified, a request with no owner in a group, or deliberately vague timing ("sometime"). \
            Not for short replies or the sender's own commitments. clarity_kind: pronoun, reference, owner or timing.
            tone_flag: true when it will read as rude: terse reply to a polite ask ("No."), harsh or blaming \
            words, whole sentences in capitals, passive-aggressive phrasing. Never for neutral or polite \
            messages, reasoned disagreement, acronyms. tone_kind: terse, harsh, shouting or passiveAggressive.
            decision: the decision's text when the message records a decision made ("we'll go with X", \
            "Decision: ..."), else null (not for questions, leanings, proposals, pending choices).
            """
        var lines = ["Task: judge the last message.", "Sender: \(m.from.lowercased())",
                     "\(m.isGroup ? "Group members" : "Recipient"): \(m.to.map { $0.lowercased() }.joined(separator: ", "))"]
        // The context is cut to the budget like a thread, oldest first; the message always stays.
        let shown = covered(m.context + [ChatLine(from: m.from, text: m.text)], budget: budget)
        if shown.count > 1 {
            lines.append("Earlier messages, oldest first:")
            for i in shown.dropLast() { lines.append("[\(i)] \(m.context[i].from.lowercased()): \(oneLine(m.context[i].text))") }
        }
        lines.append("Message to judge:")
        lines.append("[\(m.context.count)] \(m.from.lowercased()): \(oneLine(m.text))")
        return Prompt(system: system, user: lines.joined(separator: "\n"), shown: shown)
    }

    static func summarize(_ t: ThreadToSummarize, budget: Int) -> Prompt {
        let system = """
            You summarise a chat thread for someone returning after a day away. Answer with one JSON object only, no prose:
            {"summary":"...","key_points":["..."],"decisions":[{"text":"...","message":N}],\
            "actions":[{"what":"...","who":"name","due":null,"message":N}],"open_questions":[{"text":"...","message":N}]}
            summary: at most 30% of the thread's words, using the thread's own words: key points, decisions, \
            open work with owners and dates, questions still open. key_points: the same as short bullets.
            actions: work still open at the end (leave out work reported done). \(actionRules) \
            "who": a participant's name in lower case, or "everyone".
            decisions: outcomes agreed in the thread. open_questions: questions still unanswered at the end.
            "message": the number of the message an item comes from.
            """
        let shown = covered(t.messages, budget: budget)
        var lines = ["Task: summarise the thread.", "Participants: \(t.participants.map { $0.lowercased() }.joined(separator: ", "))"]
        if shown.lowerBound > 0 { lines.append("(The \(shown.lowerBound) oldest messages are left out.)") }
        lines.append("Messages, oldest first:")
        for i in shown { lines.append("[\(i)] \(t.messages[i].from.lowercased()): \(oneLine(t.messages[i].text))") }
        return Prompt(system: system, user: lines.joined(separator: "\n"), shown: shown)
    }

    /// `problems`: what the local rules found wrong with the draft, to steer the rewrite.
    static func rewrite(_ m: MessageToJudge, problems: [String]) -> Prompt {
        let system = """
            You help someone improve a chat message before they send it. Rewrite the draft so it is clear \
            (name what "it"/"this"/"the doc" refers to when the earlier messages say; say who should do \
            what and by when when the draft says) and kind (polite, no blame, no capitals shouting), keeping \
            its meaning, its language and its facts; add nothing it does not say. Keep it about as short. \
            Answer with one JSON object only: {"text":"the rewritten message"}
            """
        var lines = ["Task: rewrite the draft.", "Sender: \(m.from.lowercased())", "To: \(m.to.map { $0.lowercased() }.joined(separator: ", "))"]
        if !m.context.isEmpty {
            lines.append("Earlier messages, oldest first:")
            for (i, c) in m.context.enumerated() { lines.append("[\(i)] \(c.from.lowercased()): \(oneLine(c.text))") }
        }
        lines.append("Draft:")
        lines.append(oneLine(m.text))
        if !problems.isEmpty { lines.append("Problems found in the draft: " + problems.joined(separator: "; ")) }
        return Prompt(system: system, user: lines.joined(separator: "\n"), shown: 0..<(m.context.count + 1))
    }

    /// The newest messages that fit the token budget (at least the newest one, so a single long
    /// message still gets an answer; the server bounds message size).
    static func covered(_ messages: [ChatLine], budget: Int) -> Range<Int> {
        var used = 0
        var start = messages.count
        while start > 0 {
            let cost = estimatedTokens(messages[start - 1])
            if used + cost > budget, start < messages.count { break }
            used += cost
            start -= 1
        }
        return start..<messages.count
    }

    /// A deliberately high estimate (a byte in three; real tokenisers average about four
    /// characters of English, one to two per CJK character = three bytes) plus the line's
    /// number and name, so a thread cut to the budget does not overflow the model's context.
    static func estimatedTokens(_ line: ChatLine) -> Int {
        (line.text.utf8.count + 2) / 3 + (line.from.utf8.count + 2) / 3 + 4
    }

    /// Newlines inside a message would let it pose as another numbered line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " / ")
    }
}
