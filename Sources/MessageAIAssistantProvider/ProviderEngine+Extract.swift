import Foundation
import MessageAIAssistant

/// Messages of one conversation whose action items and decisions the model extracts in one
/// call. `context` (earlier messages) is shown for reference only; nothing is taken from it.
public struct MessagesToExtract: Sendable, Equatable {
    public var participants: [String]
    public var context: [ChatLine]
    public var messages: [ChatLine]
    public init(participants: [String], context: [ChatLine] = [], messages: [ChatLine]) {
        self.participants = participants; self.context = context; self.messages = messages
    }
}

/// What the model found in one message.
public struct ExtractedItems: Sendable, Equatable {
    public var actions: [ActionItem] = []
    public var decision: String?
}

/// What the model found in each message of a batch. `items[i]` belongs to `messages[i]`; nil
/// for a message the prompt left out (cut to the token budget): keep what the local engine found.
public struct ExtractedBatch: Sendable, Equatable {
    public var items: [ExtractedItems?]
    public var engine: EngineInfo
}

extension ProviderEngine {
    /// One call for the whole batch. No fallback here: on failure the caller keeps the local
    /// engine's items (already stored) and says why.
    public func extractResult(_ batch: MessagesToExtract) -> Result<ExtractedBatch, ProviderFailure> {
        guard !batch.messages.isEmpty else { return .success(ExtractedBatch(items: [], engine: info)) }
        let prompt = Prompts.extract(batch, budget: config.threadTokenBudget)
        return call("extract", prompt, maxTokens: config.maxAnswerTokens) { obj in
            AnswerDecoder.extracted(obj, for: batch, shown: prompt.shown, engine: self.info)
        }
    }
}

extension Prompts {
    /// Context lines are numbered first, then the messages to extract from; `shown` holds the
    /// numbers of the messages to extract from that fit the budget (newest first).
    static func extract(_ b: MessagesToExtract, budget: Int) -> Prompt {
        let system = """
            You extract action items and decisions from the numbered chat messages of a conversation. \
            Answer with one JSON object only, no prose:
            {"actions":[{"what":"...","who":"name","due":null,"message":N}],"decisions":[{"text":"...","message":N}]}
            \(actionRules) "who": a participant's name in lower case, or "everyone" for work given to the whole group.
            decisions: a decision made ("we'll go with X", "Decision: ..."), not questions, leanings or proposals.
            "message": the number of the message the item comes from; only the messages under "Messages to \
            extract from" count, the earlier ones are context.
            """
        let all = b.context + b.messages
        let fits = covered(all, budget: budget)
        let first = max(fits.lowerBound, b.context.count)
        var lines = ["Task: extract items.", "Participants: \(b.participants.map { $0.lowercased() }.joined(separator: ", "))"]
        if fits.lowerBound < b.context.count {
            lines.append("Earlier messages (context), oldest first:")
            for i in fits.lowerBound..<b.context.count { lines.append("[\(i)] \(all[i].from.lowercased()): \(oneLine(all[i].text))") }
        }
        lines.append("Messages to extract from, oldest first:")
        for i in first..<all.count { lines.append("[\(i)] \(all[i].from.lowercased()): \(oneLine(all[i].text))") }
        return Prompt(system: system, user: lines.joined(separator: "\n"), shown: first..<all.count)
    }
}

extension AnswerDecoder {
    /// Items citing no message, context or a message never shown are dropped; so are owners
    /// who are not participants ("everyone" and the cited message's "sender" aside).
    static func extracted(_ obj: [String: Any], for b: MessagesToExtract, shown: Range<Int>, engine: EngineInfo) -> ExtractedBatch? {
        guard obj["actions"] != nil || obj["decisions"] != nil || obj["action_items"] != nil else { return nil }
        let offset = b.context.count
        var items: [ExtractedItems?] = b.messages.indices.map { shown.contains($0 + offset) ? ExtractedItems() : nil }
        let names = Set(b.participants.map(normalizedName))
        for raw in Lenient.list(obj["actions"] ?? obj["action_items"]) {
            guard let d = raw as? [String: Any], let n = Lenient.int(d["message"] ?? d["index"] ?? d["msg"]),
                  shown.contains(n), var item = actionItem(raw, shown: shown, defaultWho: "everyone") else { continue }
            let from = normalizedName(b.messages[n - offset].from)
            if item.who == "sender" { item.who = from }
            if ["team", "all", "group", "everybody", "recipient"].contains(item.who) { item.who = "everyone" }
            guard item.who == "everyone" || names.contains(item.who), items[n - offset]?.actions.contains(item) == false else { continue }
            items[n - offset]?.actions.append(item)
        }
        for t in Lenient.texts(obj["decisions"]) {
            guard let n = t.message, shown.contains(n), items[n - offset]?.decision == nil else { continue }
            items[n - offset]?.decision = t.text
        }
        return ExtractedBatch(items: items, engine: engine)
    }
}
