import Foundation

/// What one message does to an open question, for `CallHintRule`: asks one, pushes back on an
/// answer (not understood, not working, not agreed), or settles it. Phrases are matched on whole
/// words of the lower-cased text with apostrophes dropped ("don't" is "dont").
enum CallHintCues {
    struct Reading {
        /// The message holds a question of at least two words that is not small talk.
        var asksQuestion: Bool
        /// The message holds a question mark at all ("huh?", "which one?").
        var asks: Bool
        var pushesBack: Bool
        /// Thanks, understood, it works, agreed, a laugh or a thumbs-up, with no new question,
        /// no pushback and no negation in it.
        var closes: Bool
    }

    static let pushback = [
        // Not understood.
        "what do you mean", "what does that mean", "dont understand", "do not understand", "dont get it", "dont follow",
        "not following", "confused", "confusing", "lost me", "which one", "which ones", "you mean", "i mean", "meaning what",
        "not sure what", "not sure which", "not sure how", "sorry what", "huh", "wait what", "unclear", "not clear",
        "what exactly", "how so", "say again", "come again",
        // Not working.
        "still", "doesnt work", "didnt work", "does not work", "did not work", "not working", "same error", "same thing",
        "same problem", "no luck", "didnt help", "doesnt help", "did not help", "fails", "failed", "failing", "broken",
        "refused", "cant find", "cant see", "cant reproduce", "cant get", "no difference", "nothing changed",
        // Not agreed.
        "not quite", "thats not", "that is not", "disagree", "i dont think", "dont think so", "not what i", "the other one",
        "wrong", "doesnt make sense", "makes no sense",
    ]
    /// Pushback only as the message's first word ("No, the other one", "But that breaks the export").
    static let pushbackOpeners: Set<String> = ["no", "nope", "but", "nah", "hmm", "hm", "actually", "wait"]

    static let closers = [
        "thanks", "thank you", "thx", "ty", "cheers", "got it", "gotcha", "makes sense", "understood", "i see", "that works",
        "works now", "it works", "works for me", "worked", "that did it", "that was it", "fixed", "solved", "resolved",
        "sounds good", "agreed", "deal", "perfect", "great", "awesome", "nice", "cool", "love it", "will do", "on it",
        "lol", "haha", "hahaha", "lmao", "glad", "congrats", "no worries", "all good",
    ]
    static let closingEmoji = ["👍", "🙏", "🎉", "😂", "🤣", "😄", "😀", "🙂", "😊", "❤️", "✅", "🙌", "💯"]
    /// Short answers that settle a question when they are the whole message ("ok", "ok!").
    static let shortClosers: Set<String> = ["ok", "okay", "k", "kk", "sure", "yes", "yep", "yup", "right", "exactly", "done"]
    static let negations: Set<String> = ["not", "never", "no", "nope", "dont", "doesnt", "didnt", "isnt", "wasnt", "cant", "wont",
                                         "nothing", "neither", "nor", "without"]
    /// Questions people ask to be friendly, not to settle anything.
    static let smallTalk = ["how are you", "how r u", "hows it going", "how was your", "how is your", "hows your", "and you",
                            "you too", "whats up", "wanna grab", "want to grab", "how about you", "how did it go"]

    /// A phrase as words, padded for a whole-word search: split once, not on every message.
    struct Phrase {
        let first: String
        let padded: String
        let single: Bool
        init(_ p: String) { first = String(p.split(separator: " ")[0]); padded = " " + p + " "; single = !p.contains(" ") }
    }

    static let pushbackPhrases = pushback.map(Phrase.init)
    static let closerPhrases = closers.map(Phrase.init)
    static let smallTalkPhrases = smallTalk.map(Phrase.init)

    static func read(_ text: String) -> Reading {
        let words = normalised(text)
        let present = Set(words)
        var joined: String?
        // The whole-phrase search runs only when the phrase's first word is there at all.
        func has(_ p: Phrase) -> Bool {
            guard present.contains(p.first) else { return false }
            if p.single { return true }
            if joined == nil { joined = " " + words.joined(separator: " ") + " " }
            return joined!.contains(p.padded)
        }
        let asks = text.contains("?") || text.contains("？")
        let realQuestion = asks && words.count >= 2 && !smallTalkPhrases.contains(where: has)
        let pushes = pushbackPhrases.contains(where: has) || words.first.map(pushbackOpeners.contains) == true
        let negated = words.contains(where: negations.contains)
        let settles = closerPhrases.contains(where: has) || (!text.isASCIIOnly && closingEmoji.contains(where: text.contains))
            || (words.count <= 2 && words.first.map(shortClosers.contains) == true)
        return Reading(asksQuestion: realQuestion, asks: asks, pushesBack: pushes, closes: settles && !asks && !pushes && !negated)
    }

    /// Lower-cased words: letters and digits, apostrophes dropped inside a word.
    static func normalised(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber {
                current.append(ch)
            } else if ch == "'" || ch == "’" {
                continue
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// The question as the hint names it: its first sentence with a question mark, whole words,
    /// at most `maxQuestion` characters (an ellipsis says it was shortened).
    static let maxQuestion = 60

    static func question(_ text: String) -> String {
        let sentences = Sentences.split(text).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        let q = sentences.first { $0.contains("?") || $0.contains("？") } ?? text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard q.count > maxQuestion else { return q }
        let head = q.prefix(maxQuestion)
        let cut = head.lastIndex(of: " ").map { head[..<$0] } ?? head
        return cut.trimmingCharacters(in: .whitespaces.union(.punctuationCharacters)) + "…"
    }
}
