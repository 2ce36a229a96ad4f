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
    /// Each takeover as searched for, with the space or stop after it, built once.
    static let paddedTakeovers = takeovers.map { t in [" ", ",", ".", "!"].map { " " + t + $0 } }
    static let genericVerbs: Set<String> = ["do", "take", "handle", "own", "grab", "cover", "get"]

    /// Takeovers that only open a reply ("Can do.", "Will handle."): inside a sentence they are other words ("I can do the review").
    static let openingTakeovers = ["can do", "will handle", "will handle it", "doing it now", "doing it", "doing that now"]
    /// Acknowledgement words a reply may open with before its takeover or its verb ("ok, will restart ...").
    static let timeAfterTakeover: Set<String> = ["now", "after", "before", "by", "tonight", "today", "tomorrow", "in", "asap", "first", "eta", "right"]
    static let replyLeads: Set<String> = ["ok", "okay", "k", "kk", "sure", "yes", "yep", "ya", "yeah", "ack", "will", "i'll", "then"]

    /// The ask a short reply takes on, as the sender's items; nil when the reply is not a takeover.
    static func takeover(_ m: MessageToJudge, _ own: [Found]) -> [Found]? {
        let lower = " " + m.text.lowercased().replacingPresent("’", with: "'") + " "
        let words = Words.all(m.text.replacingPresent("'", with: "APOS").replacingPresent("’", with: "APOS")).map { $0.replacingPresent("apos", with: "'") }
        let body = Array(words.drop(while: { replyLeads.contains($0) && $0 != "will" }))
        // ... whole, or followed by a time ("doing it after the deploy"), never "doing it this way breaks ...".
        let opening = openingTakeovers.contains { p in
            let phrase = p.split(separator: " ").map(String.init)
            return body.starts(with: phrase) && (body.count == phrase.count || timeAfterTakeover.contains(body[phrase.count]))
        }
        guard !m.text.contains("?"), Words.all(m.text).count <= 14,
              opening || paddedTakeovers.contains(where: { $0.contains(where: lower.hasBytes) }),
              // Only a reply whose own items are the generic "do it" / "take that" (or none).
              own.allSatisfy({ genericVerbs.contains(OpenActions.firstWord($0.item.what)) && Words.content($0.item.what).count <= 2 || $0.item.who != m.from.lowercased() }),
              let ask = m.context.last(where: { $0.from.lowercased() != m.from.lowercased() }) else { return nil }
        let asked = found(MessageToJudge(from: ask.from, to: [m.from] + m.to.filter { $0.lowercased() != ask.from.lowercased() }, text: ask.text,
                                         context: []))
        let me = m.from.lowercased()
        var forMe = asked.filter { $0.item.who == "recipient" || $0.item.who == me || $0.item.who == "everyone" }
        // "who's writing the template for the async doc?" — "I'll do it": the work the question names.
        if forMe.isEmpty, let work = whoAsks(ask.text) {
            forMe = [Found(item: ActionItem(what: work, who: "recipient", due: nil), sentence: 0, trigger: Trigger(verb: 0, owner: .sender))]
        }
        guard !forMe.isEmpty else { return nil }
        let due = dueText(Tokenizer.tokens(m.text), from: 0, to: Tokenizer.tokens(m.text).count)?.text
        return forMe.map { f in
            Found(item: ActionItem(what: f.item.what, who: me, due: due ?? f.item.due), sentence: 0, trigger: Trigger(verb: 0, owner: .sender))
        }
    }

    /// The work a "who" question puts to the group ("who's writing the copy?" → "write the copy",
    /// "who will update the runbook?" → "update the runbook"); nil for questions of who did or is something.
    static func whoAsks(_ text: String) -> String? {
        guard let q = Sentences.split(text).last(where: { $0.hasSuffix("?") }) else { return nil }
        let words = q.trimming(" ?").split(separator: " ").map(String.init)
        let lower = words.map { $0.lowercased().replacingPresent("’", with: "'") }
        let k: Int
        if lower.first == "who's" || lower.first == "whos" { k = 1 }
        else if lower.first == "who", lower.count > 2, ["is", "will", "can", "wants"].contains(lower[1]) { k = lower[1] == "wants" && lower[2] == "to" ? 3 : 2 }
        else { return nil }
        guard k < lower.count - 1 else { return nil }
        let verb = Verbs.fromGerund(lower[k]) ?? (Verbs.work.contains(lower[k]) && !lower[k].hasSuffix("ing") ? lower[k] : nil)
        guard let v = verb else { return nil }
        return ([v] + words[(k + 1)...]).joined(separator: " ")
    }

    /// A reply whose one item repeats the asked verb with no object of its own ("will restart after
    /// the 08:00 backup", "restarting them now") owns the asked work, with the reply's time if any.
    static func repeatedVerb(_ m: MessageToJudge, _ own: [Found]) -> [Found]? {
        let me = m.from.lowercased()
        guard !m.text.contains("?"), Words.all(m.text).count <= 12,
              let ask = m.context.last(where: { $0.from.lowercased() != me }) else { return nil }
        let asked = found(MessageToJudge(from: ask.from, to: [m.from] + m.to.filter { $0.lowercased() != ask.from.lowercased() }, text: ask.text, context: []))
            .filter { $0.item.who == "recipient" || $0.item.who == me || $0.item.who == "everyone" }
        guard asked.count == 1, let a = asked.first else { return nil }
        let verb = OpenActions.firstWord(a.item.what)
        let tokens = Tokenizer.tokens(m.text)
        let w = tokens.map(\.lower)
        let body = Array(w.drop(while: { replyLeads.contains($0) }))
        // The verb itself ("restart after ...") or its gerund ("restarting them now") opens what is left.
        guard let first = body.first, first == verb || Verbs.fromGerund(first) == verb else { return nil }
        let rest = Set(body.dropFirst().prefix(2))
        guard rest.isEmpty || !rest.isDisjoint(with: timeAfterTakeover.union(["it", "them", "that", "those", "this"])),
              own.allSatisfy({ $0.item.who == me }) else { return nil }
        let due = dueText(tokens, from: 0, to: tokens.count)?.text
        return [Found(item: ActionItem(what: a.item.what, who: me, due: due ?? a.item.due), sentence: 0, trigger: Trigger(verb: 0, owner: .sender))]
    }
}
