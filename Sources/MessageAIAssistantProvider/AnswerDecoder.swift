import Foundation
import MessageAIAssistant

/// Turns the model's JSON object into the assistant's answers, checking what can be checked:
/// an item citing a message the model was not shown is dropped (it was made up), and `who`
/// must be a participant or a role. Missing fields take the "nothing found" value; an object
/// with none of the asked-for fields is not an answer at all (nil).
enum AnswerDecoder {
    static func judgement(_ obj: [String: Any], for m: MessageToJudge, shown: Range<Int>, engine: EngineInfo) -> Judgement? {
        let known = ["actions", "clarity_flag", "tone_flag", "decision", "clarity", "tone"]
        guard known.contains(where: { obj[$0] != nil }) else { return nil }
        var names = Set(([m.from] + m.to).map(normalizedName))
        names.formUnion(["sender", "recipient"])
        let groupWords: Set<String> = ["everyone", "team", "all", "group", "everybody", "someone", "anyone"]
        var actions: [ActionItem] = []
        for raw in Lenient.list(obj["actions"] ?? obj["action_items"]) {
            guard var item = actionItem(raw, shown: shown, defaultWho: "recipient") else { continue }
            // The local engine's convention: people by name, "recipient" only for a whole group.
            if groupWords.contains(item.who) { item.who = "recipient" }
            if item.who == "sender" { item.who = normalizedName(m.from) }
            if !m.isGroup, let only = m.to.first, item.who == "recipient" { item.who = normalizedName(only) }
            guard names.contains(item.who), !actions.contains(item) else { continue }
            actions.append(item)
        }
        let clarity = flag(obj, prefix: "clarity", defaultKind: .reference, defaultReason: "the reader may have to ask what is meant")
        let tone = flag(obj, prefix: "tone", defaultKind: .harsh, defaultReason: "this may read as rude")
        return Judgement(actions: actions, clarity: clarity.map { [$0] } ?? [], tone: tone.map { [$0] } ?? [],
                         decision: decision(obj["decision"]), engine: engine)
    }

    static func summary(_ obj: [String: Any], for t: ThreadToSummarize, shown: Range<Int>, engine: EngineInfo) -> ThreadSummary? {
        let keyPoints = Lenient.texts(obj["key_points"] ?? obj["keyPoints"] ?? obj["points"]).map(\.text)
        let text: String
        if let s = Lenient.string(obj["summary"]) {
            text = s
        } else if let bullets = obj["summary"] as? [Any], !Lenient.texts(bullets).isEmpty {
            text = Lenient.texts(bullets).map { "- " + $0.text }.joined(separator: "\n")
        } else if !keyPoints.isEmpty {
            text = keyPoints.map { "- " + $0 }.joined(separator: "\n")
        } else {
            return nil
        }
        var names = Set((t.participants + t.messages[shown].map(\.from)).map(normalizedName))
        names.insert("everyone")
        var actions: [ActionItem] = []
        for raw in Lenient.list(obj["actions"] ?? obj["action_items"]) {
            guard var item = actionItem(raw, shown: shown, defaultWho: nil) else { continue }
            if ["team", "all", "group", "everybody"].contains(item.who) { item.who = "everyone" }
            guard names.contains(item.who), !actions.contains(item) else { continue }
            actions.append(item)
        }
        func cited(_ v: Any?) -> [String] {
            Lenient.texts(v).filter { $0.message.map(shown.contains) ?? true }.map(\.text)
        }
        return ThreadSummary(summary: text, keyPoints: keyPoints.isEmpty ? [text] : keyPoints,
                             decisions: cited(obj["decisions"]), actions: actions,
                             openQuestions: cited(obj["open_questions"] ?? obj["openQuestions"] ?? obj["questions"]),
                             coveredMessages: shown.count, engine: engine)
    }

    /// nil when there is no text, or when it is only a piece of the draft: a rewrite keeps the
    /// draft's meaning, and a fragment ("the thing" for "can u do the thing by tmrw", as the
    /// real-model run answered) or a few words left of a long draft would drop most of it.
    static func rewrite(_ obj: [String: Any], draft: String, engine: EngineInfo) -> Rewrite? {
        guard let text = Lenient.string(obj["text"] ?? obj["rewrite"] ?? obj["message"] ?? obj["draft"]) else { return nil }
        let draftLength = draft.trimmingCharacters(in: .whitespacesAndNewlines).count
        if text.count < draftLength && draft.lowercased().contains(text.lowercased()) { return nil }
        if text.count * 3 < draftLength { return nil }
        return Rewrite(text: text, engine: engine)
    }

    /// nil when the item has no `what`, or cites a message index outside `shown`.
    static func actionItem(_ raw: Any, shown: Range<Int>, defaultWho: String?) -> ActionItem? {
        guard let d = raw as? [String: Any], let what = Lenient.string(d["what"] ?? d["task"] ?? d["action"]) else { return nil }
        if let index = Lenient.int(d["message"] ?? d["index"] ?? d["msg"]), !shown.contains(index) { return nil }
        guard let who = Lenient.string(d["who"] ?? d["owner"] ?? d["assignee"]).map(normalizedName) ?? defaultWho else { return nil }
        return ActionItem(what: what, who: who, due: Lenient.string(d["due"] ?? d["deadline"]).map(trimmedDue))
    }

    static func flag(_ obj: [String: Any], prefix: String, defaultKind: Flag.Kind, defaultReason: String) -> Flag? {
        let nested = obj[prefix] as? [String: Any]
        guard Lenient.bool(obj["\(prefix)_flag"] ?? obj[prefix]) else { return nil }
        let kindText = Lenient.string(obj["\(prefix)_kind"] ?? nested?["kind"]) ?? ""
        let kind = Flag.Kind.allKinds.first { $0.rawValue.lowercased() == kindText.lowercased().replacingOccurrences(of: "_", with: "").replacingOccurrences(of: "-", with: "") } ?? defaultKind
        return Flag(kind, Lenient.string(obj["\(prefix)_reason"] ?? nested?["reason"]) ?? defaultReason)
    }

    static func decision(_ v: Any?) -> String? {
        if let d = v as? [String: Any] { return Lenient.string(d["text"] ?? d["decision"]) }
        if let b = v as? NSNumber, String(cString: b.objCType) == "c" { return nil }
        guard let s = Lenient.string(v), !["false", "no"].contains(s.lowercased()) else { return nil }
        return s
    }

    static func normalizedName(_ s: String) -> String {
        var n = s.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        while n.hasPrefix("@") { n.removeFirst() }
        return n
    }

    static func trimmedDue(_ s: String) -> String {
        for prefix in ["by ", "before ", "due "] where s.lowercased().hasPrefix(prefix) { return String(s.dropFirst(prefix.count)) }
        return s
    }
}

extension Flag.Kind {
    static let allKinds: [Flag.Kind] = [.pronoun, .reference, .owner, .timing, .terse, .harsh, .shouting, .passiveAggressive]
}
