import Foundation

/// Who a thread's work belongs to in the end: an acceptance in other words is the asked work, an
/// offer counts once someone takes it up, an ask its owner declines leaves them, and a promise to
/// report back is part of the check it follows.
extension OpenActions {
    /// Words that open a reply taking on an ask ("Sure, ...", "Ok, ...", "👍 ..."); "also" adds other work.
    static let acceptances: Set<String> = ["sure", "yes", "yep", "yeah", "ya", "ok", "okay", "k", "kk", "absolutely", "np", "ack", "gladly", "roger",
                                           "claro", "vale", "oui", "ja", "klar", "certo"]
    static let acceptancePhrases = ["will do", "can do", "on it", "of course", "no problem", "d'accord", "por supuesto"]

    static func accepts(_ text: String) -> Bool {
        let t = text.trimmingSpaces()
        if t.hasPrefix("👍") || t.hasPrefix("🙋") { return true }
        let words = Words.all(t)
        guard let first = words.first, !words.contains("also") else { return false }
        let lower = t.lowercased()
        return acceptances.contains(first) || acceptancePhrases.contains { lower.hasPrefix($0) }
    }

    /// An own item said as an offer ("I can write the validation scripts", "I could take the
    /// demo") rather than a promise, and not in reply to an ask of its sender.
    static func offers(_ found: ActionRules.Found, in m: MessageToJudge) -> Bool {
        guard found.item.who == m.from.lowercased() else { return false }
        let sentences = Sentences.split(m.text)
        guard found.sentence < sentences.count else { return false }
        let words = Words.all(sentences[found.sentence].replacingPresent("’", with: "'"))
        guard let k = words.firstIndex(of: "i"), k + 1 < words.count, ["can", "could"].contains(words[k + 1]) else { return false }
        // Only "I can ..." opening the sentence (after "Sure," or a name): "if you want, I can ..." is the rules' conditional.
        return words[..<k].allSatisfy { ActionRules.replyLeads.contains($0) || ["and", "also", "btw"].contains($0) }
            && !m.context.contains { $0.from.lowercased() != m.from.lowercased() && Words.all($0.text).contains(m.from.lowercased()) }
    }

    /// Words of the next other speaker that take an offer up ("Great, please do", "Thanks Ken", "Yes please", "👍").
    static let uptake: Set<String> = ["great", "thanks", "thank", "please", "yes", "perfect", "awesome", "sure", "ok", "okay", "cool", "nice", "go",
                                      "brilliant", "lovely", "excellent", "sounds", "gracias", "merci", "danke", "yay", "ty", "thx"]

    static func takenUp(after i: Int, in judged: [MessageToJudge]) -> Bool {
        guard let next = judged.dropFirst(i + 1).first(where: { $0.from.lowercased() != judged[i].from.lowercased() }) else { return false }
        let t = next.text.trimmingSpaces()
        if ["👍", "🙏", "🙌", "❤️", "✅"].contains(where: { t.hasPrefix($0) }) { return true }
        return Words.all(t).prefix(3).contains { uptake.contains($0) }
    }

    static let declines = ["i can't", "i cannot", "can't do", "can't take", "won't be able", "not able to", "no bandwidth", "no capacity",
                           "i'm out ", "i'm off ", "not me", "i'll pass", "have to pass", "i'd rather not", "not this week", "not today"]

    /// The message in which the owner of an ask turns it down, with no work of their own in it.
    static func declined(_ e: Entry, _ judged: [MessageToJudge], _ founds: [[ActionRules.Found]]) -> Int? {
        for k in judged.indices.dropFirst(e.message + 1).prefix(3) where judged[k].from.lowercased() == e.item.who {
            let lower = " " + judged[k].text.lowercased().replacingPresent("’", with: "'") + " "
            guard declines.contains(where: { lower.hasBytes($0) }), !founds[k].contains(where: { $0.item.who == e.item.who }) else { return nil }
            return k
        }
        return nil
    }

    static func reportsBack(_ what: String) -> Bool {
        let w = what.lowercased()
        // "get back" is "get back to you" with its last words dropped as a phrase cannot end on "to".
        return ["get back to", "come back to", "report back", "circle back", "follow up with you", "let you know"].contains { w.hasPrefix($0) }
            || ["get back", "come back"].contains(w)
    }
}
