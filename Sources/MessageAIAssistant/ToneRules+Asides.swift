import Foundation

/// Rudeness in the asides of chat writing, where punctuation and capitals are often dropped:
/// an eye-roll or upside-down smile beside a complaint, a sarcastic tag at the end of a status
/// ("build's red again, shocker"), a short "not my shift" to an ask, blame for work done
/// "without telling anyone", exasperated "why do we keep ...", and the punctuation-free forms
/// of the comma phrases ("sure whatever").
extension ToneRules {
    /// Tags that make the sentence they end (or open) sarcastic.
    static let sarcasticTags = ["classic", "typical", "shocker", "big surprise", "what a surprise", "surprise surprise", "figures", "go figure",
                                "color me shocked", "colour me shocked", "who knew", "how shocking", "what else is new", "love that for us", "love this for us", "living the dream", "this is fine"]
    static let exasperatedWhy = ["why do we keep", "why are we still", "why does this keep", "why is this always", "why do i always", "why am i always",
                                 "why do you always", "why do you keep", "how is this still", "how is it still", "how are we still", "why are you asking me",
                                 "why ask me", "why is this on me", "why is that on me", "don't ping me", "don't @ me", "stop tagging me",
                                 "another day another", "what's the worst that could happen", "what is the worst that could happen",
                                 "if you'd actually", "if you had actually", "if anyone had actually", "if someone had bothered", "if anyone had bothered",
                                 "wouldn't be in this mess", "wouldn't be here if", "thanks to whoever", "thanks to someone", "courtesy of whoever",
                                 "tried reading", "bother reading", "bothered reading", "who could have seen",
                                 "who could've seen", "saw that coming", "never saw that coming", "didn't see that coming", "why am i the one", "wasting my time",
                                 "wasting our time", "wasting everyone's time", "why are we wasting", "could do better", "i guess i'm"]
    static let curses: Set<String> = ["ffs", "smh", "jfc", "stfu", "gtfo", "omfg", "ffs"]
    /// "not my shift" and the like, as a whole short reply: the ask is waved off without a reason.
    static let notMine: Set<String> = ["job", "problem", "team", "service", "code", "shift", "rotation", "pr", "bug", "fault", "concern", "department",
                                       "issue", "thing", "responsibility", "area", "project", "ticket", "week", "turn"]
    static let doneWithout: Set<String> = ["telling", "asking", "checking", "testing", "tests", "review", "reviewing", "reading", "approval", "warning",
                                           "notice", "looking"]

    static func asides(_ text: String, _ m: MessageToJudge, polite: Bool) -> Flag? {
        let all = words(text)
        let bare = " " + all.joined(separator: " ") + " "
        if let c = all.first(where: curses.contains) {
            return Flag(.harsh, "'\(c)' reads as anger at the reader: say what is wrong and what you need")
        }
        if let p = exasperatedWhy.first(where: { bare.hasBytes(" " + $0 + " ") }) {
            return Flag(.passiveAggressive, "'\(p)' reads as exasperation or blame: say what went wrong and what you need")
        }
        // The comma phrases written without punctuation ("sure whatever", "thanks i guess").
        if let p = passiveAggressive.first(where: { $0.contains(", ") && bare.hasBytes(" " + words($0).joined(separator: " ") + " ") }) {
            return Flag(.passiveAggressive, "'\(p)' reads as passive-aggressive: say the point plainly")
        }
        let fromOther = m.context.last.map { $0.from.lowercased() != m.from.lowercased() } ?? false
        let reply = fromOther || all.contains("you") || all.contains("your")
        if (text.contains("🙄") || text.contains("😒")) && reply {
            return Flag(.passiveAggressive, "the eye-roll reads as contempt: say what bothers you")
        }
        if text.contains("🙃"), all.contains(where: { ["great", "love", "perfect", "awesome", "fun", "nice", "cool", "wonderful", "fantastic", "amazing", "thanks", "yay"].contains($0) }),
           !all.contains(where: fixedWork.subtracting(["thanks"]).contains) {
            return Flag(.passiveAggressive, "the upside-down smile makes the praise sarcastic: say what went wrong plainly")
        }
        for s in Sentences.split(text) {
            let w = words(s)
            let phrase = w.joined(separator: " ")
            // "build's red again, shocker" / "classic. the pager again": a sarcastic tag on a status.
            let raw = s.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: " .!?…").union(.whitespaces))
            if w.count > 2, let t = sarcasticTags.first(where: { tag in [",", " -", " —", ":"].contains(where: { raw.hasPrefix(tag + $0) || raw.hasSuffix($0 + " " + tag) }) })
                ?? (text.contains("🔥") && phrase.hasPrefix("this is fine") ? "this is fine" : nil) {
                return Flag(.passiveAggressive, "'\(t)' makes the news sarcastic: say what went wrong plainly")
            }
            // "Did anyone actually test this on mobile?", "are you even listening": a question that doubts the reader did the work.
            if ["did", "does", "do", "has", "have", "is", "are", "was"].contains(w.first ?? ""), w.count > 3,
               w.prefix(3).contains(where: { ["anyone", "anybody", "you", "nobody", "somebody", "someone", "they", "u"].contains($0) }),
               w.contains(where: { ["actually", "even", "bother", "bothered"].contains($0) }) || phrase.hasSuffix(" at all"),
               w.contains(where: { skippedWork.contains($0) || ["listening", "reading", "tested", "reviewed"].contains($0) }), !polite {
                return Flag(.harsh, "asking whether anyone even did the work reads as blame: say what is missing")
            }
            // "Apparently nobody reads the alerts."
            if w.first == "apparently" || w.last == "apparently", w.contains(where: { ["nobody", "never", "optional", "anymore"].contains($0) }) || phrase.contains("no one") {
                return Flag(.passiveAggressive, "'apparently ...' about skipped work reads as sarcasm: say what is missing")
            }
            // "Clearly says in the doc", "as the runbook clearly states".
            if let c = w.firstIndex(of: "clearly"), w[(c + 1)...].prefix(2).contains(where: { ["says", "said", "states", "stated", "written", "marked", "documented",
                                                                                                   "labelled", "labeled", "explains", "explained", "shows", "mentioned"].contains($0) }) {
                return Flag(.passiveAggressive, "'clearly ...' implies the reader should have known: point to it plainly")
            }
            // "Seriously, who merged this?" — "seriously" opening a blame or a repeat.
            if w.first == "seriously", w.count > 1, w.contains(where: { ["you", "who", "again", "nobody", "anyone", "still", "why"].contains($0) }),
               !w.contains(where: { ["thanks", "thank", "great", "impressive", "amazing", "good", "nice", "love", "saved", "incredible", "best", "awesome",
                                                    "appreciate", "grateful", "congrats", "well"].contains($0) }) {
                return Flag(.passiveAggressive, "'seriously' opening a question reads as exasperation: ask it plainly")
            }
            // "Who changed the schema without telling anyone?", "you merged it without review".
            if let o = w.firstIndex(of: "without"), o > 1, o + 1 < w.count, doneWithout.contains(w[o + 1]),
               w.prefix(o).contains(where: { ["who", "you", "whoever", "somebody", "someone", "they"].contains($0) }),
               !w.prefix(o).contains(where: { ["can", "could", "please", "would", "should", "let's", "we", "i", "i'll", "i'm"].contains($0) }) {
                return Flag(.harsh, "'... without \(w[o + 1])' reads as blame: say what went wrong and what you need")
            }
            // "Sure, let's just skip the tests." — an agreement that mocks the plan.
            if ["sure", "yeah", "yes", "right", "great", "ok", "okay"].contains(w.first ?? ""), let j = w.firstIndex(of: "just"), j > 0, ["let's", "we'll", "we"].contains(w[j - 1]),
               w[(j + 1)...].prefix(4).contains(where: { ["skip", "ignore", "pretend", "hope", "pray", "yolo", "wing", "without"].contains($0) }) {
                return Flag(.passiveAggressive, "'... let's just \(w[j + 1])' reads as sarcasm: say what worries you")
            }
        }
        // "not my shift." — a short reply that waves off an ask without a reason or another way.
        if fromOther, !polite, (3...4).contains(all.count) || all.count == 3, all.starts(with: ["not", "my"]), notMine.contains(all[2]),
           !all.contains(where: { ["but", "maybe", "try", "ask", "sorry"].contains($0) }) {
            return Flag(.terse, "'not my \(all[2])' waves the ask off: say who can help or why you can't")
        }
        return nil
    }
}
