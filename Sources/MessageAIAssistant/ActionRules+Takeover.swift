import Foundation

/// A reply that takes on an earlier ask ("Can someone update the FAQ page?" — "I've got it.",
/// "On it, done by 4", "Sure, I can do that tomorrow"): the sender commits to the asked work,
/// so the item is the ask's own words with the sender as owner and the reply's time if it gives one.
extension ActionRules {
    static let takeovers = ["i've got it", "i got it", "i've got this", "i got this", "on it", "leave it with me", "mine", "consider it done",
                            "i'll take it", "i'll take that", "i'll take this", "i can take it", "i can take that", "i'll do it", "i'll do that",
                            "i can do it", "i can do that", "i'll handle it", "i'll handle that", "i can handle it", "i'll own it", "i'll grab it",
                            "i'll cover it", "i'll cover that", "will do", "i'll get it done", "i'll get that done", "ack", "acked", "roger", "copy that",
                            "sure thing", "wilco", "i'll do this", "i'll handle this"]
    static let genericVerbs: Set<String> = ["do", "take", "handle", "own", "grab", "cover", "get"]

    /// The ask a short reply takes on, as the sender's items; nil when the reply is not a takeover.
    static func takeover(_ m: MessageToJudge, _ own: [Found]) -> [Found]? {
        let lower = " " + m.text.lowercased().replacingOccurrences(of: "’", with: "'") + " "
        guard !m.text.contains("?"), Words.all(m.text).count <= 14,
              takeovers.contains(where: { lower.hasBytes(" " + $0 + " ") || lower.hasBytes(" " + $0 + ",") || lower.hasBytes(" " + $0 + ".") || lower.hasBytes(" " + $0 + "!") }),
              // Only a reply whose own items are the generic "do it" / "take that" (or none).
              own.allSatisfy({ genericVerbs.contains(OpenActions.firstWord($0.item.what)) && Words.content($0.item.what).count <= 2 || $0.item.who != m.from.lowercased() }),
              let ask = m.context.last(where: { $0.from.lowercased() != m.from.lowercased() }) else { return nil }
        let asked = found(MessageToJudge(from: ask.from, to: [m.from] + m.to.filter { $0.lowercased() != ask.from.lowercased() }, text: ask.text,
                                         context: []))
        let me = m.from.lowercased()
        let forMe = asked.filter { $0.item.who == "recipient" || $0.item.who == me || $0.item.who == "everyone" }
        guard !forMe.isEmpty else { return nil }
        let due = dueText(Tokenizer.tokens(m.text), from: 0, to: Tokenizer.tokens(m.text).count)?.text
        return forMe.map { f in
            Found(item: ActionItem(what: f.item.what, who: me, due: due ?? f.item.due), sentence: 0, trigger: Trigger(verb: 0, owner: .sender))
        }
    }
}
