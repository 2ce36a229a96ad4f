import Foundation

/// Rudeness that no single word carries: exasperation ("Your code broke prod. Again."),
/// condescension ("Let me spell it out for you"), mock thanks ("Thanks for letting me know two
/// days late"), a pointed "finally", and a praise word standing alone before a complaint
/// ("Fantastic. Another weekend spent on hotfixes.").
extension ToneRules {
    static let condescending = ["let me spell it out", "spell it out for you", "explain this again", "explain it again", "not going to explain",
                                "what's confusing about", "what is confusing about", "captain obvious", "said no one ever", "said nobody ever",
                                "real professional", "very professional", "real mature", "very mature", "so mature", "real classy", "very classy",
                                "told you this", "told you that", "told you so", "check your work", "you even", "don't bother", "no time for this",
                                "don't have time for this", "who on earth", "who the hell", "whoever wrote this", "whoever merged", "whoever approved",
                                "whoever did this", "the worst", "waste of a", "complete waste", "total waste", "is this a joke", "give me a break",
                                "spare me", "grow up", "try harder", "do better", "basic stuff", "it's not rocket", "even a child", "for the love of",
                                "i give up", "why bother", "blame qa", "blame me", "as usual", "thanks for nothing",
                                "just wow", "at least pretend", "at least try", "you had one job", "one simple thing", "how many more times"]
    static let standalonePraise: Set<String> = ["fantastic", "great", "wonderful", "perfect", "brilliant", "lovely", "awesome", "terrific", "marvelous", "splendid", "super"]
    static let badEvents: Set<String> = ["another", "more", "again", "down", "broken", "broke", "failed", "failing", "outage", "hotfix", "hotfixes",
                                         "weekend", "overtime", "late", "delayed", "missed", "crashed", "red"]

    static func exasperation(_ text: String) -> Flag? {
        let lower = " " + text.lowercased().replacingPresent("’", with: "'") + " "
        if let p = condescending.first(where: { lower.hasBytes(" " + $0) }) {
            return Flag(.passiveAggressive, "'\(p)' talks down to the reader: say what you need plainly")
        }
        let sentences = Sentences.split(text)
        for (k, s) in sentences.enumerated() {
            let w = Words.all(s)
            // "Great job ignoring the checklist": praise for a failure.
            if let p = w.firstIndex(where: { ["job", "work", "done"].contains($0) }), p > 0, ["great", "nice", "good", "well", "fantastic", "brilliant"].contains(w[p - 1]),
               w[(p + 1)...].prefix(3).contains(where: { ["ignoring", "breaking", "missing", "forgetting", "skipping", "ignored", "broke", "missed", "forgot", "again"].contains($0) }) {
                return Flag(.passiveAggressive, "praise for a failure reads as sarcasm: say what went wrong plainly")
            }
            // "Obviously that won't work.": a dismissive opener on a refusal.
            if ["obviously", "clearly"].contains(w.first ?? ""), w.contains(where: { ["won't", "wont", "not", "doesn't", "can't", "never", "isn't", "t"].contains($0) }) {
                return Flag(.passiveAggressive, "'\(w[0])' before a 'no' reads as dismissive: give the reason instead")
            }
            // "Again." or "..., again?" said on its own: exasperation at a repeat.
            if w == ["again"] || (w.count >= 3 && w.last == "again" && s.lowercased().range(of: ", again") != nil) || w == ["seriously", "again"] {
                return Flag(.passiveAggressive, "'again' said on its own reads as exasperation: say what went wrong and what you need")
            }
            // "Thanks for letting me know two days late."
            // (Sincere thanks "for staying late" name what the person did; mock thanks are for news that came late.)
            let news = w.contains(where: { ["know", "telling", "heads", "warning", "notice", "update", "reply", "replying", "answer", "answering"].contains($0) })
            if w.first == "thanks" || w.starts(with: ["thank", "you"]), w.contains("for"),
               w.contains(where: { ["finally", "nothing", "eventually"].contains($0) }) || (news && w.contains(where: { ["late", "after", "again"].contains($0) })) {
                return Flag(.passiveAggressive, "thanks for something late reads as sarcasm: say what the delay cost")
            }
            // "Glad someone finally noticed." — a pointed "finally" at a person.
            if w.contains("finally"), w.contains(where: { ["you", "someone", "somebody", "anyone", "nobody", "you've", "they"].contains($0) }),
               !w.contains(where: { ["thanks", "thank", "congrats", "great", "yay", "awesome"].contains($0) }) || w.contains("glad") {
                return Flag(.passiveAggressive, "'finally' aimed at a person reads as a jab: say what you need next time")
            }
            // "Fantastic. Another weekend spent on hotfixes."
            if w.count == 1, standalonePraise.contains(w[0]), k + 1 < sentences.count,
               Words.all(sentences[k + 1]).prefix(3).contains(where: { badEvents.contains($0) }) {
                return Flag(.passiveAggressive, "'\(w[0])' before bad news reads as sarcasm: say what went wrong plainly")
            }
            // "Your code broke prod", "your change failed again": blaming the person for the breakage.
            if let y = w.firstIndex(of: "your"), w[(y + 1)...].prefix(4).contains(where: { ["broke", "breaks", "crashed", "killed", "failed", "ruined", "destroyed"].contains($0) }) {
                return Flag(.harsh, "'your ... \(w[(y + 1)...].first(where: { ["broke", "breaks", "crashed", "killed", "failed", "ruined", "destroyed"].contains($0) })!)' blames the person: describe what broke and what is needed")
            }
        }
        return nil
    }
}
