import Foundation

/// Rudeness carried by the shape of a phrase rather than a rude word: sarcasm markers ("Let me
/// guess, nobody tested it", "Classic."), rhetorical blame ("Did nobody test this?", "Is it really
/// that hard to ..."), dismissive orders ("Calm down.", "Fix it yourself.", "Merge it already."),
/// scare quotes around someone's work ("your 'fix'") and capitals stressing a repeat ("AGAIN").
extension ToneRules {
    /// Phrases that read as sarcasm, condescension or a jab wherever they stand.
    static let jabs = ["let me guess", "so-called", "nothing says", "what could possibly go wrong", "because that worked so well",
                       "worked so well last time", "well, that went well", "surprise, surprise", "surprise surprise", "big surprise",
                       "what a shock", "quelle surprise", "how convenient", "how original", "how shocking", "oh joy", "oh goody",
                       "love that for us", "bless your heart", "just saying.", "just saying,", "just sayin'", "not to be rude",
                       "don't take this the wrong way", "like i said", "as i told you", "i already told you", "told you already",
                       "i've told you", "i have told you", "i've already told you", "slipped your mind", "i shouldn't have to",
                       "i shouldn't need to", "it's literally in", "literally one line", "literally says", "good morning to you too",
                       "hello to you too", "nice to hear from you too", "the umpteenth", "nobody bothered", "no one bothered",
                       "anyone bother to", "anybody bother to", "you bother to", "you actually read", "you'd actually read",
                       "you actually tested", "you actually test", "you actually looked", "in advance for actually", "nobody cares", "no one cares",
                       "this is on you", "you can't be serious", "who signed off on this", "who reviewed this", "who merged this",
                       "no thanks to you", "did you not see", "did you not read", "did you not get", "read my message", "read my previous",
                       "read what i wrote", "say this again", "say it again", "do whatever you want", "have fun with that", "knock yourself out",
                       "love getting paged", "love being paged", "love waking up", "nothing like a 3am", "nothing like being",
                       "we've been over this", "we have been over this", "we went over this", "been through this already", "makes no sense",
                       "that's just wrong", "not how any of this works", "can we please not", "could we please not", "can you please not",
                       "in case anyone cares", "not that anyone cares", "maybe read", "maybe try reading",
                       "maybe check your", "try checking your", "was a good idea?", "who screened", "who hired", "who designed this",
                       "who thought this", "who let this", "are we really doing this"]
    /// Rhetorical questions that blame instead of asking (the "nobody" ones only about work
    /// someone skipped: "Did nobody test this?", not "Did nobody get the invite?").
    static let rhetorical = ["is it really that hard", "is it so hard to", "was that so hard", "why am i the only", "why is it always me",
                             "do i have to do everything", "do i have to spell", "do i need to spell"]
    static let nobody = ["did nobody", "does nobody", "did no one", "does no one", "has nobody", "has no one", "did anyone actually",
                         "does anyone actually", "is anyone actually", "why is nobody", "why does no one", "why doesn't anyone", "why doesn't anybody"]
    static let skippedWork: Set<String> = ["test", "tests", "tested", "check", "checked", "review", "reviewed", "read", "notice", "noticed", "think",
                                           "thought", "look", "looked", "run", "catch", "caught", "bother", "care", "listen", "proofread", "verify", "tell", "told", "warn", "warned",
                                           "answer", "answering", "respond", "responding", "picking", "acknowledge", "looking", "checking", "testing"]
    /// Work gone wrong that praise or thanks cannot be sincere for ("Thanks for ignoring my PR").
    static let failures: Set<String> = ["breaking", "ignoring", "missing", "forgetting", "skipping", "deleting", "wiping", "crashing", "losing", "ruining",
                                        "blocking", "leaking", "wasting", "interrupting", "ghosting"]
    static let praiseWords: Set<String> = ["thanks", "thank", "great", "nice", "good", "well", "way", "bravo", "kudos", "congrats", "love", "awesome", "fantastic", "brilliant"]
    static let badNews: Set<String> = ["missed", "broke", "lost", "late", "down", "failed", "delayed", "again", "nothing", "outage", "weekend", "overtime"]
    /// Orders that wave the reader off: a whole sentence, or the opening of one.
    static let dismissiveAlone: Set<String> = ["relax", "chill", "chill out", "drop it", "look it up", "that's on you", "grow up", "move on"]
    static let dismissive = ["calm down", "get over it", "go away", "live with it", "stop whining", "stop complaining", "quit complaining",
                             "quit whining", "leave me alone", "mind your own", "take it or leave it", "end of discussion", "end of story",
                             "case closed", "discussion over", "i said no", "not my circus", "not my headache", "not my responsibility",
                             "sounds like a you problem", "that's a you problem", "ever heard of"]
    /// A sentence that is only one of these is a sarcastic aside ("Classic.", "Figures.").
    static let asides: Set<String> = ["classic", "typical", "figures", "naturally", "shocking", "shocker", "big surprise", "what a surprise",
                                      "surprise surprise", "color me shocked", "how typical", "of course it did", "of course it does",
                                      "of course it is", "of course they did", "of course you did", "duh", "no duh", "hello", "not again",
                                      "still waiting", "i'll wait", "we're waiting", "tick tock", "any day now", "any time now", "suit yourself",
                                      "your funeral", "fun times", "just great", "great just great", "just perfect", "perfect just perfect",
                                      "just wonderful", "just fantastic", "wrong", "utter nonsense"]
    /// Words stressed in capitals that turn a sentence into exasperation ("I asked you TWICE").
    static let exasperatedCaps: Set<String> = ["AGAIN", "STILL", "ALREADY", "TWICE", "ONCE", "NOBODY", "ANYONE", "WHY", "ACTUALLY", "EVEN", "LITERALLY"]
    /// Self-directed uses of "yourself" that are kind, not dismissive.
    static let kindYourself: Set<String> = ["help", "enjoy", "introduce", "make", "treat", "pace", "care", "familiarize", "familiarise", "add", "assign", "book"]
    static let praiseable: Set<String> = ["help", "fix", "fixed", "review", "reviewed", "testing", "tested", "quick", "urgent", "plan", "process",
                                          "expert", "senior", "improvement", "feature", "done", "finished", "working", "stable", "update",
                                          "documentation", "docs", "feedback", "priority", "hotfix", "solution", "simple", "easy", "small", "minor", "tests"]

    static func dismissal(_ text: String) -> Flag? {
        let lower = " " + text.lowercased().replacingPresent("’", with: "'") + " "
        if let p = jabs.first(where: { lower.hasBytes(" " + $0) }) {
            return Flag(.passiveAggressive, "'\(p)' reads as a jab: say the point plainly")
        }
        if lower.hasSuffix(" just saying ") || lower.hasBytes("what part of") && ["unclear", "don't you", "didn't you", "do you not", "confusing", "you don't understand", "you didn't understand", "isn't clear", "wasn't clear"].contains(where: { lower.hasBytes($0) }) {
            return Flag(.passiveAggressive, "that reads as a jab: say the point plainly")
        }
        if let p = rhetorical.first(where: { lower.hasBytes(" " + $0) })
            ?? nobody.first(where: { lower.hasBytes(" " + $0) && Words.all(lower).contains(where: skippedWork.contains) }) {
            return Flag(.harsh, "'\(p) ...?' blames instead of asking: say what went wrong and what you need")
        }
        let polite = politeMarkers.contains { lower.hasBytes($0) }
        for s in Sentences.split(text) {
            let t = Tokenizer.tokens(s)
            let w = t.map(\.lower)
            guard !w.isEmpty else { continue }
            let phrase = Words.all(s.replacingPresent("'", with: "APOS").replacingPresent("’", with: "APOS"))
                .map { $0.replacingPresent("apos", with: "'") }.joined(separator: " ")
            if asides.contains(phrase) && (phrase != "hello" || s.contains("?")) {
                return Flag(.passiveAggressive, "a bare '\(s.trimmingCharacters(in: .whitespaces))' reads as sarcasm: say what went wrong plainly")
            }
            // "Thanks for ignoring my PR", "Nice going breaking main": praise for a failure.
            if w.contains(where: praiseWords.contains), let k = w.firstIndex(where: failures.contains), k > 0,
               ["for", "job", "work", "going", "done", "on", "at", "go"].contains(w[k - 1]) {
                return Flag(.passiveAggressive, "praise for '\(w[k])' reads as sarcasm: say what went wrong plainly")
            }
            // "Thanks to you, we missed the launch", "Because of you the build is down".
            if phrase.hasPrefix("thanks to you") || phrase.hasPrefix("because of you"), w.contains(where: badNews.contains) {
                return Flag(.harsh, "it blames the person: describe what went wrong and what is needed")
            }
            // "Really? You pushed to main on a Friday?"
            if phrase == "really", s.contains("?"), Sentences.split(text).count > 1, lower.hasBytes(" you") {
                return Flag(.passiveAggressive, "a bare 'Really?' before a question reads as sarcasm: ask it plainly")
            }
            let opened = ["just ", "oh ", "please ", "so ", "ok ", "okay ", "well "].reduce(phrase) { p, lead in p.hasPrefix(lead) ? String(p.dropFirst(lead.count)) : p }
            if let d = dismissiveAlone.contains(opened) ? opened : dismissive.first(where: { opened == $0 || opened.hasPrefix($0 + " ") }) {
                return Flag(.harsh, "'\(d)' waves the reader off: say what you can or cannot do and why")
            }
            let start = ["just", "please", "go"].contains(w[0]) && w.count > 1 ? 1 : 0
            let imperative = Verbs.work.contains(w[start])
            // "Fix it yourself.", "Look it up yourself." — an order that hands the work back.
            if imperative, w.last == "yourself", w.count <= 6, !kindYourself.contains(w[start]), !polite {
                return Flag(.harsh, "'\(s.trimmingCharacters(in: .whitespaces))' hands the work back: say what you can or cannot do and why")
            }
            // "Merge it already." — impatience at an order not yet done.
            if imperative, w.last == "already", w.count <= 7, !polite {
                return Flag(.passiveAggressive, "'... already' reads as impatience: say when you need it and why")
            }
            // "Thanks for your 'help'", "the 'fix' broke checkout": scare quotes around someone's work.
            for (k, tok) in t.enumerated() where k > 0 && praiseable.contains(tok.lower) && (tok.before.contains("'") || tok.before.contains("\"") || tok.before.contains("“"))
                && (tok.after.contains("'") || tok.after.contains("\"") || tok.after.contains("”")) {
                let owner = ["your", "his", "her", "their", "so-called"].contains(w[k - 1])
                let broke = ["the", "this", "that"].contains(w[k - 1]) && w.contains(where: { ["broke", "broken", "breaks", "failed", "caused", "crashed", "took", "made"].contains($0) })
                if owner || broke { return Flag(.passiveAggressive, "'\(tok.raw)' in quotes mocks the work: say what is wrong with it") }
            }
            // "I asked you TWICE", "Why is it broken AGAIN": one word in capitals stressing a repeat or a blame.
            if t.count >= 3, t.contains(where: { !$0.isAllCaps }), !w.contains(where: { ["nice", "great", "thanks", "good", "glad", "happy", "yay", "awesome", "love"].contains($0) }), let c = t.first(where: { $0.isAllCaps && exasperatedCaps.contains($0.raw) }) {
                return Flag(.passiveAggressive, "'\(c.raw)' in capitals reads as exasperation: write it in normal case")
            }
        }
        return nil
    }
}
