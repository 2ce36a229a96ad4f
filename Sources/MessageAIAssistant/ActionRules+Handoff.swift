import Foundation

/// A handoff: the member an ask was given to passes it on ("Actually Sam will do the alert, he owns
/// the alerting config", "Ivan knows the queue code better, he should review it"). The asked work
/// is the named member's, not the sender's: ASSISTANT.md's owner is who takes the work on.
extension ActionRules {
    static let handoffModals: Set<String> = ["will", "should", "can", "could", "ll"]
    static let thirdPersons: Set<String> = ["he", "she", "they"]

    /// The member the sender hands their ask to, if the message does: a member's name, then (maybe
    /// after a clause about them) the name or "he"/"she" with "will"/"should"/"can" and the asked
    /// verb or a generic one ("do", "take", "handle").
    static func handedTo(_ m: MessageToJudge, askedVerbs: Set<String>) -> String? {
        guard !m.text.contains("?"), !m.to.isEmpty else { return nil }
        let me = m.from.lowercased()
        let others = Set(m.to.map { $0.lowercased() }).subtracting([me])
        let words = Words.all(m.text.lowercased().replacingPresent("’", with: "'").replacingPresent("'ll", with: " ll"))
        guard let k = words.firstIndex(where: { others.contains($0) }) else { return nil }
        let name = words[k]
        // "Sam will do the alert" / "..., he should review it": the subject, its modal, the verb.
        for j in k..<words.count where j == k || thirdPersons.contains(words[j]) {
            guard j + 2 < words.count, handoffModals.contains(words[j + 1]) else { continue }
            let verb = words[j + 2]
            if genericVerbs.contains(verb) || askedVerbs.contains(verb) { return name }
        }
        return nil
    }

    /// The sender's ask handed to another member, as that member's items (the ask's own words).
    static func handoff(_ m: MessageToJudge) -> [Found]? {
        let me = m.from.lowercased()
        // Most messages name no other member beside a modal: skip them before reading the ask (a summary asks for every message).
        guard [" will ", " should ", " can ", " could ", "'ll ", "’ll "].contains(where: { m.text.hasBytes($0) }), !m.text.hasBytes("?"),
              case let lower = m.text.lowercased(), m.to.contains(where: { $0.lowercased() != me && lower.hasBytes($0.lowercased()) }),
              Words.all(m.text).count <= 20, let ask = m.context.last(where: { $0.from.lowercased() != me }) else { return nil }
        let asked = found(MessageToJudge(from: ask.from, to: [m.from] + m.to.filter { $0.lowercased() != ask.from.lowercased() }, text: ask.text, context: []))
            .filter { $0.item.who == me }
        guard !asked.isEmpty, let name = handedTo(m, askedVerbs: Set(asked.map { OpenActions.firstWord($0.item.what) })) else { return nil }
        let tokens = Tokenizer.tokens(m.text)
        let due = dueText(tokens, from: 0, to: tokens.count)?.text
        return asked.map { Found(item: ActionItem(what: $0.item.what, who: name, due: due ?? $0.item.due), sentence: 0, trigger: Trigger(verb: 0, owner: .member(name))) }
    }
}
