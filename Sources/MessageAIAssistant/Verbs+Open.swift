import Foundation

/// Verbs beyond the list: people ask for work with any verb ("Sanitize the input", "ping Ken and
/// reconcile the invoices"). A word not on the list is read as a verb where English leaves little
/// else: a plain lower-case word that is not a function word, an adverb, a past form or a plural,
/// directly followed by what a verb takes (an article, a possessive, an object pronoun, a particle).
extension Verbs {
    static let objectStarters: Set<String> = ["the", "a", "an", "our", "my", "your", "their", "his", "her", "its", "this", "that", "these",
                                              "those", "it", "them", "me", "us", "him", "up", "out", "back", "down", "off"]
    /// Words that open a sentence or follow "and" before an article without being verbs.
    static let notVerbs: Set<String> = [
        "thanks", "thank", "congrats", "kudos", "glad", "sad", "happy", "sorry", "sure", "maybe", "perhaps", "also", "per", "re", "regarding",
        "about", "after", "before", "during", "since", "until", "given", "like", "unlike", "despite", "once", "when", "while", "because",
        "though", "although", "yesterday", "today", "tomorrow", "tonight", "morning", "afternoon", "evening", "update", "reminder", "fyi", "note",
        "status", "good", "great", "nice", "cool", "love", "hope", "guess", "wish", "both", "either", "neither", "only", "even", "just", "not",
        "half", "most", "then", "so", "and", "but", "or", "yes", "no", "ok", "okay", "btw", "oh", "ah", "hmm", "well", "anyway", "honestly",
        "actually", "except", "plus", "via", "minus", "versus", "vs", "around", "across", "along", "against", "behind", "beside", "besides",
        "beyond", "inside", "outside", "near", "past", "toward", "towards", "upon", "within", "without", "throughout", "among", "onto", "into",
        "whereas", "whether", "same", "all", "any", "some", "every", "each", "what", "which", "who", "where", "why", "how", "there", "here",
        "never", "always", "already", "still", "again", "ideally", "apparently", "basically", "hopefully", "luckily", "sadly", "first", "next",
        "last", "now", "soon", "later", "meanwhile", "otherwise", "instead", "together", "welcome", "cheers", "oops", "wow", "yay", "lol",
        "please", "pls", "sounds", "looks", "seems", "feels", "turns", "everyone", "everybody", "someone", "somebody", "anyone", "nobody",
        "quick", "big", "small", "new", "old", "top", "main", "whole", "entire", "full", "due", "except", "worst", "best",
        "weird", "shame", "bummer", "strange", "curious", "interesting", "funny", "odd", "lunch", "coffee", "dinner", "breakfast", "pity",
        "awesome", "amazing", "crazy", "wild", "cute", "neat", "sweet", "bad", "unfortunate", "ugh", "true", "false", "fine", "alternatively",
        "leave", "trust", "count", "bear", "hang", "mind", "thank", "excuse", "pardon", "forgive", "believe", "imagine", "guess", "suppose",
    ]
    /// Finite verbs: after them the sentence is a statement ("Shame the demo broke"), not an order.
    static let finite: Set<String> = ["is", "are", "was", "were", "has", "have", "had", "got", "gets", "broke", "went", "goes", "looks", "seems",
                                      "passes", "fails", "failed", "passed", "works", "worked", "did", "does", "will", "can", "could", "should",
                                      "would", "might", "must", "isn't", "aren't", "wasn't", "doesn't", "didn't", "won't", "can't", "it's", "that's"]

    /// A word not on the list that stands where a verb stands: `t[i]` followed by an object.
    /// `opensSentence`: an order opening a sentence is never a question ("Lunch the usual place?").
    static func looksLikeVerb(_ t: [Token], at i: Int, opensSentence: Bool = false) -> Bool {
        guard i + 1 < t.count, !t[i].endsClause else { return false }
        let w = t[i].lower
        guard w.count >= 3, w.allSatisfy({ $0.isLetter || $0 == "-" }), !notVerbs.contains(w), !Words.function.contains(w),
              !w.hasSuffix("ly"), !w.hasSuffix("ed"), !w.hasSuffix("ing"), !(w.hasSuffix("s") && !w.hasSuffix("ss")),
              objectStarters.contains(t[i + 1].lower), !(opensSentence && t[t.count - 1].after.contains("?")) else { return false }
        return !t[(i + 1)...].contains { finite.contains($0.lower) }
    }

    /// "reconciling" → "reconcile", "sanitizing" → "sanitize", "testing" → "test", "planning" → "plan",
    /// for gerunds of verbs not on the list (the matching's stemmer reads "reconcil" and "reconcile" alike).
    static func guessBase(gerund w: String) -> String? {
        if let b = fromGerund(w) { return b }
        guard w.hasSuffix("ing"), w.count > 5 else { return nil }
        let stem = String(w.dropLast(3))
        let chars = Array(stem)
        let last = chars[chars.count - 1], before = chars[chars.count - 2]
        if last == before, !"lsz".contains(last), !"aeiou".contains(last) { return String(stem.dropLast()) }
        let vowels = "aeiouy"
        let thirdLast: Character = chars.count >= 3 ? chars[chars.count - 3] : "a"
        // A single vowel before the last consonant ("reconcil", "updat", "sanitiz"), or a consonant + l ("enabl").
        let endings = ["at", "iz", "yz", "ys", "uc", "rg", "dg", "nc", "ut", "il", "iv", "ov", "ar", "ir", "in", "ur", "ud", "id", "od", "ot", "ok", "ag"]
        if endings.contains(String(chars.suffix(2))), !vowels.contains(thirdLast) || ["iz", "yz", "rg", "dg", "nc"].contains(String(chars.suffix(2))) { return stem + "e" }
        if last == "l", "bcdgkpt".contains(before) { return stem + "e" }
        return stem
    }
}
