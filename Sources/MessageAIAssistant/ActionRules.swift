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
    /// Words a phrase cut short would end on: an article, a preposition, a conjunction, a possessive.
    /// (Not "in", "on", "is": "log in", "from now on" and "Thursday it is" end whole.)
    static let dangling: Set<String> = ["the", "a", "an", "and", "or", "nor", "of", "with", "to", "for", "from", "by", "at", "into", "onto",
                                        "via", "per", "than", "as", "my", "our", "your", "their", "its", "&", "+", "-", "—"]

    struct Found { var item: ActionItem; var sentence: Int; var trigger: Trigger }

    static func items(_ m: MessageToJudge) -> [ActionItem] { found(m).map(\.item) }

    /// Memoised per call: a summary asks again for the items of a message it already read
    /// (as context of the next messages, as the ask a reply takes over).
    static func found(_ m: MessageToJudge) -> [Found] { TextMemo.found(m, findAll) }

    private static func findAll(_ m: MessageToJudge) -> [Found] {
        // Work starts with its verb: "per-tenant only please, I don't want ..." asks nothing of anyone.
        // (The first word read off the bytes: this runs for every message.)
        findEvery(m).filter { f in
            let first = f.item.what.utf8.prefix { $0 != 32 }
            return first.count > 5 || !subjectWords.contains(String(decoding: first, as: UTF8.self).lowercased())
        }
    }

    static let subjectWords: Set<String> = ["i", "we", "you", "they", "he", "she", "i'm", "we're", "i've"]

    private static func findEvery(_ m: MessageToJudge) -> [Found] {
        // "Actually Sam will do the alert": the sender's ask passed on is the named member's.
        if !m.context.isEmpty, let handed = handoff(m) { return handed }
        let own = written(m)
        // ("Roger that" is no order to roger anything: the takeover's own words make no item.)
        if !m.context.isEmpty, let taken = takeover(m, own) {
            return taken + own.filter { $0.item.who != m.from.lowercased() && !["roger", "copy", "ack", "wilco"].contains(OpenActions.firstWord($0.item.what)) }
        }
        // "ok, will restart after the backup": the asked verb again without its object takes the ask on.
        if !m.context.isEmpty, let taken = repeatedVerb(m, own) { return taken }
        return own
    }

    static func members(_ m: MessageToJudge) -> Set<String> {
        Set(([m.from] + m.to + m.context.map(\.from)).map { $0.lowercased() })
    }

    /// The asks and commitments the message's own words make.
    static func written(_ m: MessageToJudge) -> [Found] {
        let sentences = Sentences.split(m.text)
        let members = members(m)
        var carried: Addressee = .unnamed
        var out: [Found] = []
        var dues: [String?] = []
        var ownList: (due: String?, sentence: Int)? = nil
        for (si, s) in sentences.enumerated() {
            let t = Tokenizer.tokens(s)
            let (vocative, afterVocative) = Addressee.leading(t, members: members)
            if vocative != .unnamed { carried = vocative }
            var start = afterVocative
            while start < t.count, leadingFillers.contains(t[start].lower), t.count - start > 2 { start += 1 }
            let due = dueText(t, from: 0, to: t.count)
            dues.append(due?.text)
            // "Todo for me today:" then list items: the sender's own work, due when the label says.
            if t.last?.after.hasPrefix(":") == true, Triggers.isOwnListLabel(t.map(\.lower)) { ownList = (due?.text, si); continue }
            guard var trigger = Triggers.find(t, from: start, members: members, sentence: s) else { continue }
            var listDue: String? = nil
            if let l = ownList, trigger.owner == .addressee, vocative == .unnamed, trigger.verb == start { trigger.owner = .sender; listDue = l.due }
            var addressee = carried
            if let mention = Addressee.mentioned(t, members: members), vocative == .unnamed { addressee = .name(mention) }
            // "@ken @li can you both ...": asked of several people, so of the group.
            if t.filter({ $0.lower.hasPrefix("@") && $0.lower.count > 1 }).count > 1 { addressee = .group }
            let who: String
            switch trigger.owner {
            case .sender: who = m.from.lowercased()
            case .addressee: who = addressee.owner(in: m)
            case .group: who = m.isGroup ? "recipient" : (m.to.first?.lowercased() ?? "recipient")
            case .member(let name): who = name
            }
            var pieces = phrases(t, trigger, message: m, sentenceIndex: si, sentences: sentences, members: members)
            // A due date written after coordinated asks covers them all ("tag it and post the notes
            // by 5pm"), one written before the first verb ("By Friday, ...") covers the sentence.
            var carry: String? = nil
            for k in pieces.indices.reversed() {
                if let d = pieces[k].due { carry = d } else { pieces[k].due = carry }
            }
            if let d = due, d.start < trigger.verb { for k in pieces.indices where pieces[k].due == nil { pieces[k].due = d.text } }
            if let d = listDue { for k in pieces.indices where pieces[k].due == nil { pieces[k].due = d } }
            // "Let's decide: we use the existing flag", "Final call: we keep the replicas": a decision
            // for the group is no one's work (ASSISTANT.md); one that names a member still is.
            if DecisionRules.states(s), !pieces.contains(where: { $0.owner != nil }), who == "recipient" { continue }
            // "I'm going to grab lunch", "I'll grab coffee with Li": social plans, not work (README).
            for p in pieces where !isSocial(p.what) && !isStatus(p.what, sentence: t) && !isHappening(p.what) {
                out.append(Found(item: ActionItem(what: p.what, who: p.owner ?? who, due: p.due), sentence: si, trigger: trigger))
            }
            // "Yuki, draft the community post by Wednesday and I'll approve it": the order to the
            // named member comes before the sender's own part; two verbs, two owners, two items.
            if trigger.owner == .sender, vocative != .unnamed, trigger.verb > start,
               let cut = (start..<trigger.verb).first(where: { t[$0].lower == "and" && $0 + 1 < t.count && ["i", "i'll", "i’ll"].contains(t[$0 + 1].lower) }),
               cut > start + 1, case let head = Array(t[..<cut]),
               let order = Triggers.find(head, from: start, members: members, sentence: s), order.owner == .addressee {
                let owner = carried.owner(in: m)
                for p in phrases(head, order, message: m, sentenceIndex: si, sentences: sentences, members: members) where !isSocial(p.what) {
                    out.append(Found(item: ActionItem(what: p.what, who: p.owner ?? owner, due: p.due ?? dueText(head, from: 0, to: head.count)?.text),
                                     sentence: si, trigger: order))
                }
            }
        }
        // "Could you review the deck? Ideally by Friday." — a due date alone in the next sentence.
        for k in out.indices where out[k].item.due == nil {
            let si = out[k].sentence
            if si + 1 < dues.count, let d = dues[si + 1], !out.contains(where: { $0.sentence == si + 1 }) { out[k].item.due = d }
        }
        return out
    }

    /// The due date written between `from` and `to`; a time after "to" is a destination
    /// ("move it to next sprint"), not a due date.
    static func dueText(_ t: [Token], from: Int, to: Int) -> (text: String, start: Int)? {
        var i = from
        while i < to {
            guard let d = DueDates.find(Array(t[i..<to])) else { return nil }
            let start = i + d.start
            if start > 0 && ["to", "into", "from", "since", "until"].contains(t[start - 1].lower) && !["by", "before"].contains(t[start].lower) {
                i = start + 1
                continue
            }
            // "the Friday on-call shift": a day naming a thing, not a due date.
            if start > 0, ["the", "our", "my", "your", "this", "that"].contains(t[start - 1].lower), t[start].lower != "the",
               !t[start].endsClause, start + 1 < to, !DueDates.continuations.contains(t[start + 1].lower) {
                i = start + 1
                continue
            }
            if DueDates.vague.contains(d.text.lowercased()) { return nil }
            return (d.text, start)
        }
        return nil
    }

    struct Piece { var what: String; var owner: String?; var due: String? }

    /// The verb phrases of a trigger, split at "and <verb>", ", <verb>" and "and Omar will <verb>".
    static func phrases(_ t: [Token], _ trig: Trigger, message: MessageToJudge, sentenceIndex: Int,
                        sentences: [String], members: Set<String>) -> [Piece] {
        if let p = trig.passiveObject {
            let base = Passive.base(t[trig.verb].lower) ?? t[trig.verb].lower
            let object = t[p].map(\.raw).joined(separator: " ")
            let resolved = object.split(separator: " ").count == 1 ? resolve(object, t, p.lowerBound, message, sentenceIndex, sentences) : object
            return [Piece(what: base + " " + lowerDeterminer(resolved), owner: nil, due: dueText(t, from: trig.verb, to: t.count)?.text)]
        }
        var out: [Piece] = []
        var verb = trig.verb
        var owner: String? = nil
        while verb < t.count {
            var j = verb + 1
            var next: (Int, String?)? = nil
            // Where this item ends: the next coordinated verb, or the end of the sentence.
            var end = t.count
            var k = verb + 1
            while k < t.count {
                if let n = coordinated(t, at: k, members: members) { next = n.next; end = n.end; break }
                k += 1
            }
            let due = dueText(t, from: verb + 1, to: end)
            var words: [String] = [baseForm(t[verb].lower)]
            if t[verb].endsClause { j = end }
            while j < end {
                if let d = due, j == d.start { break }
                // "do that on Friday": the word that opens the due date belongs to it, not to the object.
                if let d = due, j + 1 == d.start, ["on", "at", "in", "by", "before", "until", "for", "this", "next"].contains(t[j].lower) { break }
                let w = t[j].lower
                if phraseStops.contains(w) && j > verb + 1 { break }
                if w == "and", j + 1 < t.count, ["get", "let", "see", "go", "come", "try", "then", "i", "we", "you", "it's", "that's"].contains(t[j + 1].lower) { break }
                // (After "that" the subject opens what is told: "tell the teams that they move to 3.3".)
                if ["i", "we", "you", "they"].contains(w) && j > verb + 1 && t[j - 1].lower != "that" { break }
                // "will add both": the two things the message before named, when "both" is the whole object.
                if w == "both", words.count == 1, j + 1 == end || due.map({ $0.start == j + 1 }) == true, let pair = References.pair(message) {
                    words.append(pair)
                } else {
                    words.append(pronouns.contains(w) ? reference(t[j].raw, after: words, t, j, message, sentenceIndex, sentences) : t[j].raw)
                }
                if t[j].endsClause { break }
                j += 1
            }
            // Too long for a line: cut where a modifier begins ("for ...", "explaining ...", "which ..."),
            // never inside the object ("explaining the" would leave half of "explaining the crash").
            if words.count > 10 {
                let bare = words.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
                let boundary = (3...10).reversed().first { k in
                    k < bare.count && (dangling.contains(bare[k]) && !["the", "a", "an"].contains(bare[k]) || ["that", "which", "who", "so", "because", "since", "while"].contains(bare[k])
                        || bare[k].hasSuffix("ing") && bare[k].count > 5) && !dangling.contains(bare[k - 1])
                }
                words = Array(words.prefix(boundary ?? 10))
            }
            // A phrase ends on a word that can end one: never "share the specs with the" (a resolved
            // reference is several words in one element, so the words are counted one by one).
            words = words.joined(separator: " ").split(separator: " ").map(String.init)
            while words.count > 1, let last = words.last, dangling.contains(last.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
                words.removeLast()
            }
            out.append(Piece(what: words.joined(separator: " "), owner: owner, due: due?.text))
            guard let n = next else { break }
            verb = n.0
            owner = n.1
        }
        return out
    }

    /// A second ask starting at `k`: "and rebuild ...", ", post ...", "and Omar will review ...",
    /// "and Li, please update ...". Returns the verb's index and its new owner.
    static func coordinated(_ t: [Token], at k: Int, members: Set<String>) -> (next: (Int, String?), end: Int)? {
        let w = t[k].lower
        let afterComma = t[k - 1].after.hasPrefix(",")
        guard w == "and" || w == "then" || w == "&" || afterComma else { return nil }
        var i = w == "and" || w == "then" || w == "&" ? k + 1 : k
        if i < t.count, ["then", "also", "and", "please"].contains(t[i].lower) { i += 1 }
        guard i < t.count else { return nil }
        if (Verbs.work.contains(t[i].lower) || Verbs.looksLikeVerb(t, at: i) && !t[i].isCapitalized) && !pronouns.contains(t[i].lower) && i + 1 <= t.count
            && !(i + 1 < t.count && ["is", "was", "are", "has"].contains(t[i + 1].lower)) { return ((i, nil), k) }
        let name = t[i].lower.hasPrefix("@") ? String(t[i].lower.dropFirst()) : t[i].lower
        if members.contains(name) || t[i].lower.hasPrefix("@") {
            var v = i + 1
            while v < t.count, ["will", "to", "can", "should", "please", "pls", "could"].contains(t[v].lower) { v += 1 }
            if v > i + 1 || t[i].after.hasPrefix(","), v < t.count, Verbs.work.contains(t[v].lower) { return ((v, name), k) }
            // "..., Ken sets up the rig": a list of assignments.
            if v == i + 1, v < t.count, let b = Verbs.base(t[v].lower), b != t[v].lower { return ((v, name), k) }
        }
        return nil
    }

    static func baseForm(_ w: String) -> String {
        if let b = Verbs.guessBase(gerund: w) { return b }
        if Verbs.work.contains(w) { return w }
        if let b = Verbs.base(w) { return b }
        // "reconciles" → "reconcile", "pushes" → "push", "carries" → "carry".
        guard w.count > 4, w.hasSuffix("s"), !w.hasSuffix("ss"), !w.hasSuffix("us"), !w.hasSuffix("is") else { return w }
        if w.hasSuffix("ies") { return String(w.dropLast(3)) + "y" }
        if ["ches", "shes", "xes", "zes", "sses"].contains(where: { w.hasSuffix($0) }) { return String(w.dropLast(2)) }
        return String(w.dropLast())
    }

    /// A pronoun replaced by what it stands for: the last thing named before it in the same
    /// sentence, else what the message or its context says.
    static func resolve(_ pronoun: String, _ t: [Token], _ at: Int, _ message: MessageToJudge, _ sentenceIndex: Int, _ sentences: [String]) -> String {
        guard pronouns.contains(pronoun.lowercased()) else { return pronoun }
        let plural = ["them", "those", "these"].contains(pronoun.lowercased())
        let earlier = NounPhrases.find(Array(t[..<at])).filter { !NounPhrases.light.contains($0.head) }
        if let p = earlier.last(where: { $0.head.hasSuffix("s") == plural }) ?? earlier.last { return lowerDeterminer(NounPhrases.objectText(p)) }
        if let a = References.antecedent(message: message, sentenceIndex: sentenceIndex, sentences: sentences) { return lowerDeterminer(a) }
        return pronoun
    }

    /// A pronoun's referent, unless it is the words just before it: in "tell the two prospects that SSO
    /// lands in Q2" the "that" joins a clause, and resolving it repeated the object ("tell the two
    /// prospects the two prospects SSO ..."); a phrase never says its object twice.
    static func reference(_ pronoun: String, after words: [String], _ t: [Token], _ at: Int, _ message: MessageToJudge, _ sentenceIndex: Int, _ sentences: [String]) -> String {
        let r = resolve(pronoun, t, at, message, sentenceIndex, sentences)
        guard r != pronoun, words.count > 1 else { return r }
        return (" " + words.dropFirst().joined(separator: " ").lowercased()).hasSuffix(" " + r.lowercased()) ? pronoun : r
    }

    static let socialVerbs: Set<String> = ["grab", "get", "have", "take", "go", "head", "catch", "join", "do"]
    static let socialThings: Set<String> = ["lunch", "coffee", "dinner", "breakfast", "drinks", "drink", "beer", "beers", "tea", "gym", "walk",
                                            "nap", "break", "vacation", "holiday", "run", "snack", "food", "pizza", "yoga", "swim"]

    static let durations: Set<String> = ["sec", "second", "seconds", "min", "mins", "minute", "minutes", "moment", "hour", "hours", "bit", "tick", "day"]

    /// A status line, not work: "give me 5 minutes", "one sec", a sentence of a single verb ("Clear.").
    static func isStatus(_ what: String, sentence t: [Token]) -> Bool {
        let w = what.lowercased().split(separator: " ").map(String.init)
        if t.count == 1 && w.count == 1 { return true }
        guard w.count >= 3, w.count <= 6, w[0] == "give", w[1] == "me", let last = w.last else { return false }
        return durations.contains(last.trimmingCharacters(in: .punctuationCharacters))
    }

    static func isSocial(_ what: String) -> Bool {
        let w = what.lowercased().split(separator: " ").map(String.init)
        // A goodbye ("talk soon", "speak later", "see you tomorrow") is no work.
        if w.count <= 3, let v = w.first, ["talk", "speak", "see", "chat", "catch"].contains(v),
           w.dropFirst().allSatisfy({ ["soon", "later", "tomorrow", "you", "then", "ya", "monday", "next", "week", "up"].contains($0.trimming(".!")) }) { return true }
        guard let v = w.first, socialVerbs.contains(v) else { return false }
        return w.dropFirst().first(where: { !["a", "an", "the", "some", "my", "our", "quick"].contains($0) }).map(socialThings.contains) ?? false
    }

    static func lowerDeterminer(_ s: String) -> String {
        guard let first = s.split(separator: " ").first, NounPhrases.determiners.contains(first.lowercased()) else { return s }
        return first.lowercased() + s.dropFirst(first.count)
    }
}
