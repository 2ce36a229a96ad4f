import Foundation

/// Clarity rules 1 and 2: pronouns and definite references the reader cannot resolve.
extension ClarityRules {
    /// "it's fine", "is it possible", "make it", "got it": "it" that refers to nothing.
    static let dummyItAfter: Set<String> = ["fine", "ok", "okay", "good", "great", "possible", "likely", "time", "worth", "hard",
                                            "easy", "important", "better", "weird", "unclear", "clear", "true", "late", "early",
                                            "been", "going", "getting", "a", "an", "too", "nice", "cool", "just", "only", "all",
                                            "raining", "fair", "looking", "seems", "looks", "turns", "depends", "sounds", "takes", "might", "may", "would", "'d", "could"]
    static let dummyItBefore: Set<String> = ["make", "got", "get", "if", "made", "nailed", "hate", "love", "whether", "keep"]
    /// Verbs and adjectives after which "that" introduces a clause ("I think that ...").
    static let clauseVerbs: Set<String> = ["think", "said", "says", "know", "sure", "hope", "believe", "mean", "noticed", "seems",
                                           "so", "such", "saw", "agree", "means", "guess", "assume", "realized", "realised", "shows",
                                           "confirm", "confirmed", "glad", "found", "heard", "check", "verify", "ensure", "given",
                                           "now", "except", "feel", "bet", "suspect", "suggest", "clear", "true", "possible"]
    static let clauseStarters: Set<String> = ["we", "i", "you", "it", "they", "he", "she", "the", "this", "there", "our", "my",
                                              "your", "everyone", "nobody", "someone", "all", "a", "an", "no", "none", "if", "its"]
    /// Things a team has exactly one of, so "the X" names them.
    static let unique: Set<String> = ["team", "office", "company", "world", "weekend", "morning", "afternoon", "evening", "rest",
                                      "same", "end", "way", "time", "moment", "day", "week", "past", "future", "internet",
                                      "standup", "stand-up", "meantime", "best", "first", "last", "next", "whole", "group",
                                      "chat", "channel", "thread", "floor", "kitchen", "weather", "holidays", "news", "other",
                                      "others", "latest", "start", "beginning", "top", "bottom", "middle", "idea", "update", "help", "heads-up",
                                      "link", "offer", "invite", "reminder", "note", "catch", "tip", "info", "feedback", "answer", "question", "call", "point"]
    static let boundaryAfterNoun: Set<String> = ["by", "before", "to", "and", "is", "are", "was", "were", "has", "have", "will",
                                                 "can", "should", "needs", "today", "tomorrow", "asap", "please", "now", "again",
                                                 "yet", "first", "tonight", "later", "soon", "so", "looks", "seems", "ready", "done",
                                                 "broke", "failed", "still", "up", "out", "back", "when", "if", "or", "but", "then", "at"]
    static let modifiersAfterNoun: Set<String> = ["for", "from", "about", "on", "in", "of", "with", "that", "which", "we", "you",
                                                  "i", "called", "named", "you're", "we're", "i'm", "they", "he", "she", "behind", "under"]

    static func isReferential(_ t: [Token], _ k: Int) -> Bool {
        let w = t[k].lower
        let next = k + 1 < t.count ? t[k + 1].lower : ""
        let prev = k > 0 ? t[k - 1].lower : ""
        let endsHere = t[k].endsClause || k + 1 == t.count
        switch w {
        case "it", "it's":
            if w == "it's" { return !endsHere && !dummyItAfter.contains(next) && !["not"].contains(next) }
            if dummyItBefore.contains(prev) { return false }
            if ["is", "was", "'s"].contains(next), k + 2 < t.count, dummyItAfter.contains(t[k + 2].lower) { return false }
            if dummyItAfter.contains(next) { return false }
            return true
        case "this", "that", "those", "these":
            if ["is", "was", "'s"].contains(next), k + 2 < t.count, ["the", "a", "an", "my", "our", "what", "how", "why", "exactly", "great", "awesome", "huge", "amazing", "fine", "perfect"].contains(t[k + 2].lower) { return false }
            if endsHere { return !clauseVerbs.contains(prev) || w != "that" }
            if w == "that" && (clauseVerbs.contains(prev) || clauseStarters.contains(next)) { return false }
            if w == "that" && k > 0 && !Verbs.work.contains(prev) && !["is", "was", "about", "with", "on", "of", "for", "to", "at", "from"].contains(prev) && k != 0 && !NounPhrases.stops.contains(next) { return false }
            return NounPhrases.stops.contains(next) || next == "'s" || ["back", "up", "down", "out", "off", "over", "through"].contains(next) || ["looks", "seems", "broke", "works", "is", "was"].contains(next) || next.hasSuffix("ed")
        case "that's", "this's":
            return !["fine", "ok", "okay", "great", "good", "right", "true", "it", "all", "awesome", "perfect", "amazing", "cool", "nice", "fair", "a", "why", "what", "how"].contains(next)
        case "they", "them", "they're", "they've":
            return true
        default:
            return false
        }
    }

    /// "which one", "that one": fine with one candidate, unclear with two.
    static func oneFlag(_ t: [Token], _ m: MessageToJudge, _ si: Int, _ sentences: [String]) -> Flag? {
        guard let k = t.indices.dropFirst().first(where: { t[$0].lower == "one" && ["which", "that", "this", "the", "other"].contains(t[$0 - 1].lower) }) else { return nil }
        let candidates = References.candidates(m, before: sentences[..<si])
        guard let (a, b) = competing(candidates), !resolvedInMessage(a, b, sentences, si) else { return nil }
        return Flag(.pronoun, "'\(t[k - 1].lower) one' could mean \(a) or \(b): say which")
    }

    /// Another sentence of the draft names the thing ("Yes, that one. The 3.1 build from this morning.").
    static func resolvedInMessage(_ a: String, _ b: String, _ sentences: [String], _ si: Int) -> Bool {
        let head = a.split(separator: " ").first.map { String($0).lowercased() } ?? ""
        let heads = Set([a, b].map { String($0.split(separator: " ").last ?? "").lowercased() } + [head])
        return sentences.enumerated().contains { $0.offset != si && NounPhrases.of($0.element).contains { heads.contains($0.head) } }
    }

    static func pronounFlag(_ t: [Token], _ m: MessageToJudge, _ si: Int, _ sentences: [String]) -> Flag? {
        if let f = oneFlag(t, m, si, sentences) { return f }
        guard let k = t.indices.first(where: { isReferential(t, $0) }) else { return nil }
        let word = t[k].raw.lowercased().replacingPresent("'s", with: "")
        // "Ramen it is then.", "Thursday it is": the choice names itself.
        if word == "it", k > 0, k + 1 < t.count, t[k + 1].lower == "is", k + 2 == t.count || (k + 3 == t.count && t[k + 2].lower == "then") { return nil }
        let earlierInSentence = NounPhrases.find(Array(t[..<k])).filter { !NounPhrases.light.contains($0.head) }
        if !earlierInSentence.isEmpty || t[..<k].contains(where: { $0.isCapitalized && $0.raw != t.first?.raw && !["I"].contains($0.raw) }) { return nil }
        let candidates = References.candidates(m, before: sentences[..<si])
        if ["they", "them", "they're", "they've"].contains(word), hasPeople(m, sentences[..<si]) || !candidates.isEmpty { return nil }
        if candidates.isEmpty {
            return Flag(.pronoun, "'\(word)' has nothing to refer to here: name what you mean")
        }
        if let (a, b) = competing(candidates) ?? (["it", "this", "that"].contains(word) ? coordinated(m) : nil), !resolvedInMessage(a, b, sentences, si) {
            return Flag(.pronoun, "'\(word)' could mean \(a) or \(b): say which")
        }
        return nil
    }

    /// Two things named together in the latest message ("I pushed the login fix and the cache
    /// change"): a singular "it" after that could be either.
    static func coordinated(_ m: MessageToJudge) -> (String, String)? {
        guard let last = m.context.last else { return nil }
        for s in Sentences.split(last.text) {
            let lower = " " + s.lowercased() + " "
            let found = NounPhrases.of(s).filter { !NounPhrases.light.contains($0.head) && !NounPhrases.timeHeads.contains($0.head) }
            for (a, b) in zip(found, found.dropFirst()) where a.head != b.head {
                let (ta, tb) = (a.text.lowercased(), b.text.lowercased())
                if lower.hasBytes(" " + ta + " and " + tb) || lower.hasBytes(" " + ta + " or " + tb) {
                    return (NounPhrases.objectText(a).lowercased(), NounPhrases.objectText(b).lowercased())
                }
            }
        }
        return nil
    }

    static func hasPeople(_ m: MessageToJudge, _ earlier: ArraySlice<String>) -> Bool {
        let text = (m.context.map(\.text) + earlier).joined(separator: " ").lowercased()
        return ["team", "folks", "people", "customers", "users", "clients", "they", "designers", "engineers", "vendor", "legal"].contains { text.contains($0) }
    }

    /// Two things of the same kind named in the context ("the cache change" and "the retry change").
    static func competing(_ c: [NounPhrase]) -> (String, String)? {
        for (i, a) in c.enumerated() {
            for b in c[(i + 1)...] where a.head == b.head && a.modifiers != b.modifiers && !a.modifiers.isEmpty && !b.modifiers.isEmpty {
                return (NounPhrases.objectText(a).lowercased(), NounPhrases.objectText(b).lowercased())
            }
        }
        return nil
    }

    /// Things of which a team always has several, so "the doc" alone does not say which.
    static let artifacts: Set<String> = ["doc", "docs", "document", "bug", "bugs", "fix", "numbers", "figures", "ticket", "tickets",
                                         "spreadsheet", "sheet", "version", "deck", "slides", "draft", "report", "issue", "issues",
                                         "change", "changes", "thing", "things", "stuff", "data", "results", "script", "error",
                                         "errors", "screenshot", "mockup", "mockups", "designs", "pr", "branch", "build", "file",
                                         "files", "list", "email", "problem", "feature", "task", "request", "patch", "config",
                                         "tests", "test", "metrics", "dashboard", "graph", "chart", "query", "job"]
    /// Adjectives that do not tell one doc from another ("the updated numbers", "the new version").
    static let weakModifiers: Set<String> = ["updated", "new", "latest", "old", "other", "final", "current", "last", "revised", "big", "small", "same"]

    static func referenceFlag(_ t: [Token], _ m: MessageToJudge, _ si: Int, _ sentences: [String]) -> Flag? {
        if let f = t.first?.lower, ["thanks", "thank", "congrats", "welcome"].contains(f) { return nil }
        let others = sentences.enumerated().filter { $0.offset != si }.map(\.element)
        let known = Set((m.context.map(\.text) + others).flatMap { Words.content($0) })
        for k in t.indices where ["the", "those", "these", "that", "this"].contains(t[k].lower) && !t[k].endsClause && k + 1 < t.count {
            if t[k].lower == "that" && k > 0 && clauseVerbs.contains(t[k - 1].lower) { continue }
            var h = k + 1
            while h + 1 < t.count, weakModifiers.contains(t[h].lower), !t[h].endsClause { h += 1 }
            let noun = t[h]
            let n = noun.lower
            guard artifacts.contains(n), n != "one" || t[k].lower != "the" else { continue }
            let followed = h + 1 < t.count && !noun.endsClause ? t[h + 1].lower : ""
            if modifiersAfterNoun.contains(followed) || (followed.first?.isNumber ?? false) || followed.hasPrefix("#") { continue }
            // A compound whose last word was named ("a flag" ... "the feature flag"): the thing
            // is the flag, which the reader knows.
            if !followed.isEmpty, !noun.endsClause, known.contains(Words.stem(followed)) { continue }
            if !noun.endsClause, h + 1 < t.count, t[h + 1].isCapitalized, !["I"].contains(t[h + 1].raw) { continue }
            // Earlier words of the sentence or the context say which ("the Figma link ... the file").
            if known.contains(Words.stem(n)) || Words.content(t[..<k].map(\.raw).joined(separator: " ")).contains(Words.stem(n)) { continue }
            let phrase = t[k...h].map { $0.raw }.joined(separator: " ").lowercased()
            return Flag(.reference, "'\(phrase)' is never named: say which \(noun.raw) (a name, a link or a number)")
        }
        return nil
    }
}
