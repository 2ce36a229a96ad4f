import Foundation

/// Noun phrases that can be referred back to: "the 2.3 hotfix branch", "our retry change",
/// "PR #412". Found by shape (a determiner and the words up to a verb or preposition), which is
/// enough to say whether a pronoun has an antecedent and whether it has two.
struct NounPhrase: Equatable {
    var words: [String]   // as written, determiner included
    var head: String      // last word, lower case
    var modifiers: [String]
    var text: String { words.joined(separator: " ") }
}

enum NounPhrases {
    static let determiners: Set<String> = ["the", "a", "an", "our", "my", "your", "their", "his", "her", "this", "that", "these", "those", "its"]
    static let stops: Set<String> = [
        "is", "are", "was", "were", "'s", "has", "have", "had", "will", "can", "could", "should", "would", "needs", "need",
        "looks", "seems", "broke", "failed", "passed", "got", "went", "came", "do", "does", "did", "to", "for", "from", "in",
        "on", "at", "by", "with", "of", "into", "about", "before", "after", "and", "or", "but", "so", "because", "if",
        "that", "which", "who", "when", "than", "as", "it", "we", "i", "you", "they", "he", "she", "now", "today",
        "tomorrow", "yesterday", "tonight", "again", "too", "already", "still", "yet", "just", "last", "since", "until",
        "please", "instead", "first", "be", "been", "isn't", "wasn't", "doesn't", "didn't", "won't", "can't", "landed",
        "merged", "shipped", "fixed", "pushed", "started", "finished", "went", "keeps", "kept", "caused", "causes", "through",
        "both", "each", "either", "also", "only", "all",
    ]
    /// Heads that name a time, not a thing ("this week", "the morning").
    static let timeHeads: Set<String> = ["week", "morning", "afternoon", "evening", "night", "day", "month", "year", "time",
                                         "weekend", "quarter", "sprint", "moment", "end", "minute", "hour", "way", "rest", "same"]

    /// Heads of phrases that name no thing ("a look", "a chance").
    static let light: Set<String> = ["look", "chance", "sec", "second", "minute", "moment", "bit", "lot", "few", "while", "try", "go", "stab", "pass", "favor", "favour", "quick"]

    /// The noun phrases of one sentence, found once per call (`TextMemo`).
    static func of(_ sentence: String) -> [NounPhrase] { TextMemo.phrases(sentence) { find(Tokenizer.tokens($0)) } }

    static func find(_ t: [Token]) -> [NounPhrase] {
        var out: [NounPhrase] = []
        var i = 0
        while i < t.count {
            guard determiners.contains(t[i].lower), !t[i].endsClause else { i += 1; continue }
            var j = i + 1
            var words = [t[i].raw]
            while j < t.count, j - i <= 5, !stops.contains(t[j].lower), !determiners.contains(t[j].lower),
                  !(j > i + 1 && t[j].lower.hasSuffix("ed") && t[j].lower.count > 4) {
                words.append(t[j].raw)
                if t[j].endsClause { j += 1; break }
                j += 1
            }
            if words.count >= 2 {
                let head = words.last!.lowercased()
                if !timeHeads.contains(head) && !DueDates.days.contains(head) && !DueDates.isOrdinal(head) {
                    out.append(NounPhrase(words: words, head: head, modifiers: words.dropFirst().dropLast().map { $0.lowercased() }))
                }
            }
            i = max(j, i + 1)
        }
        // "Build 412", "Option B": a word and a number or letter that name one of several.
        for k in t.indices.dropFirst() where (t[k].isNumber && !DueDates.isClock(t[k].lower)) || (t[k].raw.count == 1 && t[k].raw.first!.isUppercase && t[k].raw != "I" && t[k].raw != "A") {
            let prev = t[k - 1]
            guard prev.raw.first?.isLetter == true, !prev.endsClause, !stops.contains(prev.lower), !determiners.contains(prev.lower) else { continue }
            out.append(NounPhrase(words: [prev.raw, t[k].raw], head: prev.lower, modifiers: [t[k].lower]))
        }
        // Names of things written without a determiner: "PR #412", "v2.3", "INC-2231".
        for (k, tok) in t.enumerated() where tok.raw.hasPrefix("#") || (tok.raw.contains { $0.isNumber } && tok.raw.contains { $0.isLetter } && !DueDates.isClock(tok.lower) && !DueDates.isOrdinal(tok.lower)) {
            let prev = k > 0 && t[k - 1].isAllCaps ? [t[k - 1].raw] : []
            out.append(NounPhrase(words: prev + [tok.raw], head: tok.lower, modifiers: []))
        }
        return out
    }

    /// The phrase without its leading determiner when that is "the"/"a" ("the notes" stays as written).
    static func objectText(_ p: NounPhrase) -> String {
        var w = p.words
        if let f = w.first?.lowercased(), ["this", "that", "these", "those"].contains(f) { w[0] = "the" }
        return w.joined(separator: " ")
    }
}
