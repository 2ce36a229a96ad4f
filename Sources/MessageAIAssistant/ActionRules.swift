import Foundation

/// Action items of one message: for each sentence, a request or commitment pattern gives the
/// verb and the owner; the phrase runs from the verb to the due date or the end of the clause;
/// "and" followed by another verb starts a second item ("tag it and post the notes").
enum ActionRules {
    static let leadingFillers: Set<String> = ["also", "and", "so", "then", "btw", "oh", "ok", "okay", "sure", "yes", "yeah",
                                              "yep", "great", "cool", "thanks", "alright", "right", "perfect", "awesome",
                                              "but", "fine", "np", "absolutely", "of", "course", "agreed", "noted", "gotcha", "one", "more", "thing"]
    static let phraseStops: Set<String> = ["so", "because", "since", "if", "when", "once", "while", "but", "then", "before",
                                           "after", "by", "until", "till", "asap", "please", "thanks", "or", "today",
                                           "tomorrow", "tonight", "now", "soon", "later", "first", "sometime", "whenever",
                                           "eod", "as", "unless", "so", "otherwise", "though", "ok", "thx", "pls", "instead"]
    static let pronouns: Set<String> = ["it", "this", "that", "them", "those", "these"]

    struct Found { var item: ActionItem; var sentence: Int; var trigger: Trigger }

    static func items(_ m: MessageToJudge) -> [ActionItem] { found(m).map(\.item) }

    static func members(_ m: MessageToJudge) -> Set<String> {
        Set(([m.from] + m.to + m.context.map(\.from)).map { $0.lowercased() })
    }

    static func found(_ m: MessageToJudge) -> [Found] {
        let sentences = Sentences.split(m.text)
        let members = members(m)
        var carried: Addressee = .unnamed
        var out: [Found] = []
        var dues: [String?] = []
        for (si, s) in sentences.enumerated() {
            let t = Tokenizer.tokens(s)
            let (vocative, afterVocative) = Addressee.leading(t, members: members)
            if vocative != .unnamed { carried = vocative }
            var start = afterVocative
            while start < t.count, leadingFillers.contains(t[start].lower), t.count - start > 2 { start += 1 }
            let due = dueText(t)
            dues.append(due?.text)
            guard let trigger = Triggers.find(t, from: start, members: members, sentence: s) else { continue }
            var addressee = carried
            if let mention = Addressee.mentioned(t, members: members), vocative == .unnamed { addressee = .name(mention) }
            let who: String
            switch trigger.owner {
            case .sender: who = m.from.lowercased()
            case .addressee: who = addressee.owner(in: m)
            case .group: who = m.isGroup ? "recipient" : (m.to.first?.lowercased() ?? "recipient")
            case .member(let name): who = name
            }
            for what in phrases(t, trigger, stopAt: due?.start, message: m, sentenceIndex: si, sentences: sentences) {
                out.append(Found(item: ActionItem(what: what, who: who, due: due?.text), sentence: si, trigger: trigger))
            }
        }
        // "Could you review the deck? Ideally by Friday." — a due date alone in the next sentence.
        for k in out.indices where out[k].item.due == nil {
            let si = out[k].sentence
            if si + 1 < dues.count, let d = dues[si + 1], !out.contains(where: { $0.sentence == si + 1 }) { out[k].item.due = d }
        }
        return out
    }

    static func dueText(_ t: [Token]) -> (text: String, start: Int)? {
        guard let d = DueDates.find(t) else { return nil }
        if DueDates.vague.contains(d.text.lowercased()) { return nil }
        return d
    }

    /// The verb phrases of a trigger, split at "and <verb>" and ", <verb>".
    static func phrases(_ t: [Token], _ trig: Trigger, stopAt due: Int?, message: MessageToJudge,
                        sentenceIndex: Int, sentences: [String]) -> [String] {
        var out: [String] = []
        var verb = trig.verb
        if let p = trig.passiveObject {
            let base = Passive.base(t[verb].lower) ?? t[verb].lower
            let object = t[p].map(\.raw).joined(separator: " ")
            return [base + " " + resolve(object, message: message, sentenceIndex: sentenceIndex, sentences: sentences)]
        }
        while verb < t.count {
            var words: [String] = [baseForm(t[verb].lower)]
            var j = verb + 1
            var next: Int?
            if t[verb].endsClause { j = t.count }
            while j < t.count {
                if let d = due, j == d { break }
                let w = t[j].lower
                if (w == "and" || w == "then" || w == "&"), j + 1 < t.count {
                    var k = j + 1
                    if t[k].lower == "then" || t[k].lower == "also", k + 1 < t.count { k += 1 }
                    if Verbs.work.contains(t[k].lower) && !pronouns.contains(t[k].lower) { next = k; break }
                }
                if phraseStops.contains(w) && j > verb + 1 { break }
                if ["i", "we", "you", "they"].contains(w) && j > verb + 1 { break }
                words.append(pronouns.contains(w) ? resolve(t[j].raw, message: message, sentenceIndex: sentenceIndex, sentences: sentences) : t[j].raw)
                if t[j].endsClause {
                    if t[j].after.hasPrefix(","), j + 1 < t.count {
                        var k = j + 1
                        if t[k].lower == "and" || t[k].lower == "then", k + 1 < t.count { k += 1 }
                        if Verbs.work.contains(t[k].lower) { next = k }
                    }
                    break
                }
                j += 1
            }
            if words.count > 9 { words = Array(words.prefix(9)) }
            out.append(words.joined(separator: " "))
            guard let n = next else { break }
            verb = n
        }
        return out
    }

    static func baseForm(_ w: String) -> String {
        if let b = Verbs.fromGerund(w) { return b }
        if Verbs.work.contains(w) { return w }
        return Verbs.base(w) ?? w
    }

    /// A pronoun replaced by what it stands for, when the message or its context says.
    static func resolve(_ pronoun: String, message: MessageToJudge, sentenceIndex: Int, sentences: [String]) -> String {
        guard pronouns.contains(pronoun.lowercased()) else { return pronoun }
        if let a = References.antecedent(message: message, sentenceIndex: sentenceIndex, sentences: sentences) { return a }
        return pronoun
    }
}
