import Foundation

/// More shapes of sarcasm and passive aggression: a praise or "fun" tag beside bad news
/// ("Deploy failed again. Fun."), wishing aloud that someone had done the work ("If only
/// someone had tested it", "Would've been nice to know"), "as you would know if ...", blame
/// with a person as the subject ("somebody clearly didn't", "you're the one who").
extension ToneRules {
    static let pointedPhrases = ["if only someone", "if only somebody", "if only anyone", "if only you", "if only there was a way", "if only there were a way",
                                 "would've been nice to know", "would have been nice to know", "would've been nice to get", "would have been nice to get",
                                 "would be nice if someone actually", "would be nice if anyone actually", "would be nice if people actually",
                                 "would be nice if you actually", "nice if someone bothered", "someone clearly", "somebody clearly", "nobody clearly",
                                 "you clearly", "they clearly", "whoever clearly", "clearly nobody", "clearly no one", "you're the one who broke",
                                 "you're the one who merged", "you're the one who approved", "you're the one who pushed", "you were the one who broke",
                                 "you were the one who merged", "you were the one who approved", "because you didn't", "because you never", "since you didn't",
                                 "because someone didn't", "because somebody didn't", "because nobody bothered", "whose job was it", "whose job is it",
                                 "say it one more time", "say this one more time", "explain it one more time", "one last time", "i'm sure you had a good reason",
                                 "i'm sure there's a good reason", "i'm sure there is a good reason", "since you asked so nicely", "asked so nicely",
                                 "if you were paying attention", "if you'd been paying attention", "if you had been paying attention", "as you would know",
                                 "as you'd know", "as you should know", "as everyone knows", "as anyone can see", "i assume you read", "i assume you've read",
                                 "presumably you read", "assuming you read", "assuming you actually", "look who's awake", "look who decided",
                                 "look who showed up", "i guess we'll just", "i guess we just",
                                 "keep explaining", "keep repeating myself", "tired of explaining", "tired of repeating", "that's literally what",
                                 "literally what the", "i think you'll find", "who's actually", "who is actually", "why is this my problem", "how is this my problem",
                                 "why is that my problem", "why is this my job", "who even", "what even is", "next time maybe", "maybe next time try",
                                 "next time actually", "next time try", "maybe try testing", "maybe test before", "maybe check before", "maybe read before"]
    /// A clause that is only praise or "fun": sarcastic when the rest of the message is bad news.
    static let praiseTags: Set<String> = ["great", "love it", "love that", "love this", "fun", "so fun", "what fun", "how fun", "fun times", "good times",
                                          "nice", "neat", "cool", "awesome", "perfect", "wonderful", "fantastic", "lovely", "amazing", "yay", "woohoo",
                                          "splendid", "terrific", "super", "excellent", "good stuff", "sweet", "brilliant", "just lovely", "so great"]

    static func jabsAndTags(_ text: String) -> Flag? {
        let all = words(text)
        let bare = " " + all.joined(separator: " ") + " "
        if let p = pointedPhrases.first(where: { bare.hasBytes(" " + $0 + " ") }) {
            return Flag(.passiveAggressive, "'\(p)' reads as a jab: say what you need plainly")
        }
        if bare.hasPrefix(" as i said ") && text.lowercased().hasPrefix("as i said,") {
            return Flag(.passiveAggressive, "'As I said' throws the point back as a repeat: restate it plainly")
        }
        // "Friendly reminder that the cutoff was yesterday": a reminder that points at a miss.
        if let r = all.firstIndex(of: "reminder"), r > 0, ["friendly", "gentle", "quick", "another", "kind"].contains(all[r - 1]),
           all[(r + 1)...].contains(where: { ["still", "already", "yesterday", "second", "third", "overdue"].contains($0) }) || bare.hasBytes(" was due ") || bare.hasBytes(" were due ") {
            return Flag(.passiveAggressive, "a 'reminder' about a miss reads as passive-aggressive: ask for what you need and by when")
        }
        // "Would be great if interviewers actually sent feedback on time."
        if all.contains("actually") || bare.hasBytes(" for once ") || bare.hasBytes(" bothered "),
           [" would be nice if ", " would be great if ", " would be good if ", " would be helpful if ", " it'd be nice if ", " it'd be great if ",
            " would be lovely if "].contains(where: { bare.hasBytes($0) }) {
            return Flag(.passiveAggressive, "wishing aloud that people 'actually' did it reads as a jab: ask for what you need")
        }
        if text.contains("🙃"), all.contains("you") || all.contains("your") {
            return Flag(.passiveAggressive, "the upside-down smile at the reader reads as sarcasm: say what you mean")
        }
        // "Pager went off at 3am again. Fun." / "prod is down, awesome"
        let clauses = text.split(whereSeparator: { ",;.!?…—".contains($0) || $0.isNewline }).map { words(String($0)).joined(separator: " ") }.filter { !$0.isEmpty }
        if clauses.count >= 2, let tag = clauses.first(where: praiseTags.contains) {
            let rest = clauses.filter { $0 != tag }.joined(separator: " ").replacingPresent("down to", with: "to").split(separator: " ").map(String.init)
            if rest.contains(where: { ["failed", "broke", "broken", "down", "crashed", "outage", "again", "paged", "pager", "missed", "slipped", "delayed", "red"].contains($0) || badNouns.contains($0) }),
               !rest.contains(where: { fixedWork.contains($0) || ["over", "mitigated", "up", "sorry", "congrats", "welcome", "i", "i'll", "i'm", "we'll", "let's", "my"].contains($0) }) {
                return Flag(.passiveAggressive, "'\(tag)' beside bad news reads as sarcasm: say what went wrong plainly")
            }
        }
        return nil
    }
}
