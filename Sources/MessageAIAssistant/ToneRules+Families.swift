import Foundation

/// The tone families of ASSISTANT.md read from the shape of a sentence rather than a fixed
/// phrase, so that new wordings of the same rudeness are caught: a repeat thrown back at the
/// reader ("As I said yesterday", "Again, ...", "for the fourth time"), sarcasm about skipped
/// work ("Apparently testing is optional now", "I'm sure it'll work this time"), mock praise
/// before bad news ("Nice work, team. Another missed deadline."), rhetorical refusals ("Why
/// should I?", "How would I know?") and blame for a counterfactual ("if you had tested it").
extension ToneRules {
    /// Texting forms read as the words they stand for ("fix it urself", "thx").
    static let texting: [String: String] = ["u": "you", "ur": "your", "urself": "yourself", "pls": "please", "plz": "please",
                                             "thx": "thanks", "ty": "thanks", "im": "i'm", "dont": "don't", "cant": "can't",
                                             "wont": "won't", "didnt": "didn't", "ive": "i've", "youre": "you're", "rn": "right now"]
    /// Words of a sentence in lower case with apostrophes kept ("i'm", "don't") and texting forms spelled out.
    static func words(_ s: String) -> [String] {
        Words.all(s.replacingPresent("’", with: "'").replacingPresent("'", with: "APOS"))
            .map { $0.replacingPresent("apos", with: "'") }.map { texting[$0] ?? $0 }
    }

    static let saidVerbs: Set<String> = ["said", "mentioned", "wrote", "explained", "stated", "noted", "answered", "told", "pointed", "asked", "flagged"]
    static let repeatMarks: Set<String> = ["already", "before", "yesterday", "twice", "again", "repeatedly", "multiple", "several", "literally", "times"]
    static let ordinals: Set<String> = ["second", "third", "fourth", "fifth", "sixth", "tenth", "nth", "umpteenth", "hundredth", "millionth",
                                        "2nd", "3rd", "4th", "5th"]
    static let askVerbs: Set<String> = ["asking", "asked", "ask", "saying", "said", "telling", "told", "reminding", "mentioning", "pinging",
                                        "explaining", "repeating", "bumping", "raising", "writing"]
    static let rhetoricalRefusals = ["why should i", "why would i", "why me", "how should i know", "how would i know", "how am i supposed to know",
                                     "how is that my problem", "how is that my job", "is that my job", "what do you want me to do", "do i look like"]
    static let skippedChores: Set<String> = ["optional", "anymore", "suggestion", "suggestions"]
    static let failedWork: Set<String> = ["failed", "broke", "broken", "breaking", "missed", "crashed", "outage", "again", "late", "slipped", "delayed", "down", "red"]
    static let fixedWork: Set<String> = ["fixed", "green", "back", "passing", "passed", "working", "resolved", "restored", "recovered", "thanks", "thank", "shipped", "launched"]
    static let mockPraiseOpeners = ["congrats", "congratulations", "way to go", "nice work", "great work", "good work", "great job", "nice job", "good job", "well done", "bravo",
                                    "kudos", "nice going", "stellar work", "amazing work", "fantastic work"]
    static let badNouns: Set<String> = ["outage", "outages", "hotfix", "hotfixes", "incident", "incidents", "rollback", "rollbacks", "pages", "paged",
                                        "overtime", "wake", "wakeup", "3am", "2am", "4am", "firefight", "firefighting", "mess", "downtime", "regressions"]
    /// Trouble nobody thanks for sincerely ("thanks for the hotfix" is sincere; "thanks for the outage" is not).
    static let thanklessNouns: Set<String> = ["outage", "outages", "wake", "wakeup", "mess", "downtime", "overtime", "headache", "regressions", "firefighting"]
    /// Chores whose skipping is mocked as "optional now".
    static let chores: Set<String> = ["testing", "tests", "review", "reviews", "reviewing", "docs", "documentation", "deadlines", "meetings", "standup",
                                      "standups", "notes", "process", "reading", "qa", "checklists", "runbooks"]
    /// What follows sincere praise for work ("Great job on the rollback", "Nice work handling the outage").
    static let praisedWork: Set<String> = ["on", "for", "with", "handling", "fixing", "getting", "catching", "finding", "tracking", "debugging",
                                           "turning", "pulling", "keeping", "everyone", "all", "y'all", "folks", "today", "tonight"]

    /// "Great." answering "The API is down again": flat praise for bad news reads as sarcasm.
    /// An exclamation mark ("Great!") or any other word makes it sincere or neutral.
    static func flatPraise(_ text: String, _ m: MessageToJudge) -> Flag? {
        let w = words(text)
        guard (1...3).contains(w.count), !text.contains("!"), w.contains(where: standalonePraise.contains),
              w.allSatisfy({ standalonePraise.contains($0) || ["just", "oh", "cool", "nice", "so"].contains($0) }),
              let last = m.context.last, last.from.lowercased() != m.from.lowercased() else { return nil }
        let news = words(last.text)
        guard news.contains(where: { ["failed", "broke", "broken", "down", "crashed", "again", "paged"].contains($0) || badNouns.contains($0) }), !news.contains(where: fixedWork.contains),
              !news.contains(where: { ["looking", "investigating", "mitigated", "rolled", "workaround", "fix", "sorry"].contains($0) }) else { return nil }
        return Flag(.passiveAggressive, "a flat '\(text.trimmingCharacters(in: .whitespacesAndNewlines))' to bad news reads as sarcasm: say what it costs you or what you need")
    }

    static func families(_ text: String) -> Flag? {
        let sentences = Sentences.split(text)
        let all = words(text)
        let joined = " " + all.joined(separator: " ") + " "
        let reasoned = reasons.contains { (" " + text.lowercased() + " ").hasBytes($0) }
        let polite = politeMarkers.contains { joined.hasBytes($0) }
        for (k, s) in sentences.enumerated() {
            let w = words(s)
            guard let first = w.first else { continue }
            let phrase = w.joined(separator: " ")
            // "As I said yesterday", "I literally said this", "as I explained twice": a point thrown back as a repeat.
            if let v = w.firstIndex(where: saidVerbs.contains), v > 0, ["i", "i've"].contains(w[v - 1]) || (v > 1 && w[v - 2] == "i" && ["already", "literally", "just", "have", "'ve"].contains(w[v - 1])) {
                let around = w[max(0, v - 3)..<min(w.count, v + 5)]
                let thrownBack = (v >= 2 && w[v - 2] == "as") || (v >= 3 && w[v - 3] == "as") || w[(v + 1)...].prefix(2).contains(where: { ["this", "that", "it", "you"].contains($0) })
                if thrownBack, around.contains(where: repeatMarks.contains), !w.contains("sorry") {
                    return Flag(.passiveAggressive, "'\(w[max(0, v - 2)...v].joined(separator: " ")) ...' throws the point back as a repeat: restate it plainly")
                }
            }
            // "Again, the freeze is Friday." — a sentence opened by a bare "Again," repeats at the reader.
            if first == "again", w.count >= 3, !reasoned, !polite, Tokenizer.tokens(s).first?.after.contains(",") == true,
               !w.contains(where: { ["thanks", "thank", "congrats", "sorry", "great", "welcome"].contains($0) }) {
                return Flag(.passiveAggressive, "a leading 'Again,' reads as exasperation: state the point without it")
            }
            // "for the fourth time", "this is the third time I'm asking".
            if let o = w.firstIndex(where: ordinals.contains), o + 1 < w.count, w[o + 1] == "time",
               (o > 1 && w[o - 1] == "the" && w[o - 2] == "for" && !["second", "2nd"].contains(w[o]))
                || w[(o + 2)...].prefix(2).contains(where: { ["i", "i'm", "i've", "we've", "you've"].contains($0) }) && w[(o + 2)...].prefix(4).contains(where: askVerbs.contains) {
                return Flag(.passiveAggressive, "counting the repeats ('\(w[o]) time') reads as exasperation: ask once, plainly")
            }
            // "Why should I?", "How would I know?" — a question that refuses instead of answering.
            if !polite, let r = rhetoricalRefusals.first(where: { phrase == $0 || (phrase.hasPrefix($0 + " ") && $0 == "do i look like") }) {
                return Flag(.terse, "'\(r)?' refuses by a question: say what you can or cannot do and why")
            }
            // "Apparently testing is optional now", "I guess we don't do reviews anymore".
            if w.contains(where: skippedChores.contains) && (w.contains("apparently") || w.contains("guess"))
                || (w.contains("optional") && w.contains("now") && w.contains(where: chores.contains)) {
                return Flag(.passiveAggressive, "sarcasm about skipped work: say what was skipped and what you need")
            }
            // "I'm sure it'll work this time", "Surely this time".
            if phrase.contains("this time"), phrase.contains("i'm sure") || phrase.contains("i am sure") || w.contains("surely") {
                return Flag(.passiveAggressive, "'... this time' reads as sarcasm: say what worries you")
            }
            // "So we're just ignoring the spec now?"
            if let j = w.firstIndex(of: "just"), j > 0, ["we're", "you're", "they're", "we", "you"].contains(w[j - 1]), j + 1 < w.count, w[j + 1].hasSuffix("ing"),
               w.last == "now" || w.last == "anymore" {
                return Flag(.passiveAggressive, "'... just \(w[j + 1]) now' reads as sarcasm: say what should happen instead")
            }
            // "Let's try this again.", "Sure, if you say so." — condescension as a whole sentence.
            if ["let's try this again", "let me try this again", "one more time", "let me say it again", "let me repeat", "it's not that complicated",
                "it's not that difficult", "it's not complicated", "it's really not that hard", "it's really not that complicated"].contains(phrase)
                || phrase.hasSuffix("if you say so") && (w.count == 4 || ["sure", "ok", "okay", "fine", "right", "whatever", "yeah"].contains(first)) {
                return Flag(.passiveAggressive, "'\(phrase)' talks down to the reader: say the point plainly")
            }
            // "Fine, I guess.", "Whatever works, I guess." — a grudging yes.
            if phrase.hasSuffix(" i guess"), ["fine", "sure", "ok", "okay", "whatever", "great", "cool", "good", "k"].contains(first) {
                return Flag(.passiveAggressive, "a trailing 'I guess' makes the yes grudging: agree plainly or say what bothers you")
            }
            // "Nice work, team. Another missed deadline." / "Way to go, the deploy failed again."
            if let o = mockPraiseOpeners.first(where: { phrase == $0 || phrase.hasPrefix($0 + " ") }) {
                let rest = (w + (k + 1 < sentences.count ? words(sentences[k + 1]) : []))
                let after = w.dropFirst(o.split(separator: " ").count).first(where: { $0 != "team" && $0 != "guys" })
                if rest.contains(where: { ["failed", "broke", "broken", "missed", "crashed", "slipped", "again", "another"].contains($0) }),
                   !rest.contains(where: fixedWork.contains), !praisedWork.contains(after ?? "") {
                    return Flag(.passiveAggressive, "praise beside a failure reads as sarcasm: say what went wrong plainly")
                }
            }
            // "Unreal. Three outages in one week." — a one-word exclamation before bad news.
            if w.count == 1, ["unreal", "incredible", "amazing", "nice", "cool", "excellent", "superb", "beautiful"].contains(first), k + 1 < sentences.count {
                let next = words(sentences[k + 1])
                if next.contains(where: { badNouns.contains($0) || failedWork.contains($0) || badEvents.contains($0) }), !next.contains(where: fixedWork.contains) {
                    return Flag(.passiveAggressive, "'\(first)' before bad news reads as sarcasm: say what went wrong plainly")
                }
            }
            // "Thanks for the 3am wake-up call", "Thanks for another weekend of hotfixes".
            if first == "thanks" || w.starts(with: ["thank", "you"]), let f = w.firstIndex(of: "for"), f + 1 < w.count,
               ["the", "another", "this", "that", "yet", "more", "all"].contains(w[f + 1]), w[(f + 2)...].prefix(4).contains(where: thanklessNouns.contains) {
                return Flag(.passiveAggressive, "thanks for trouble reads as sarcasm: say what went wrong plainly")
            }
            // "Can't wait for another outage."
            if phrase.hasPrefix("can't wait") || phrase.hasPrefix("cannot wait") || phrase.hasPrefix("just what we need") || phrase.hasPrefix("just what i need")
                || phrase.hasPrefix("exactly what we need"), w.contains(where: badNouns.contains) || !phrase.hasPrefix("can") && w.contains(where: { ["another", "more"].contains($0) }) && !w.contains(where: fixedWork.contains) {
                return Flag(.passiveAggressive, "'\(w.prefix(3).joined(separator: " ")) ...' about bad news reads as sarcasm: say what worries you")
            }
        }
        // "Thanks for the heads up... a day late." — mock thanks across a trailing fragment.
        if all.first == "thanks" || all.starts(with: ["thank", "you"]), all.contains(where: { ["heads", "update", "warning", "notice", "reply"].contains($0) }),
           sentences.count > 1, words(sentences.last ?? "").contains(where: { ["late", "later", "after"].contains($0) }) {
            return Flag(.passiveAggressive, "thanks for something late reads as sarcasm: say what the delay cost")
        }
        let blame = [" wouldn't have happened if ", " would not have happened if ", " if you had just ", " if you'd just ", " if you had bothered ",
                     " whose bright idea ", " whose idea was this ", " whose idea was that ", " who's responsible for this ", " who is responsible for this ",
                     " who's to blame ", " who is to blame ", " who did this ", " what's so hard ", " what is so hard ", " so hard to understand ",
                     " hard to understand about ", " is that too much to ask ", " is it too much to ask ", " was that too much to ask ", " could have been an email ", " could've been an email ",
                     " reading is hard ", " reading comprehension ", " you should know better ", " should know this by now ", " should know by now ",
                     " for those who didn't ", " for those of you who didn't ", " for anyone who didn't ", " for those who haven't ",
                     " interesting choice ", " bold choice ", " bold move "]
        if let p = blame.first(where: { joined.hasBytes($0) }), !(p.hasPrefix(" bold") || p.hasPrefix(" interesting")) || !all.contains(where: { ["like", "love", "works", "nice", "great", "thanks"].contains($0) }) {
            return Flag(.harsh, "'\(p.trimmingCharacters(in: .whitespaces))' blames or talks down: describe the problem and what you need")
        }
        // "Some of us were up at 3am fixing this." — a contrast with the reader's effort.
        if let u = all.indices.first(where: { $0 + 2 < all.count && all[$0] == "some" && all[$0 + 1] == "of" && all[$0 + 2] == "us" }),
           all[(u + 3)...].prefix(5).contains(where: { ["actually", "stayed", "fixing", "cleaning", "worked", "bother", "bothered", "asleep", "sleep", "sleeping"].contains($0) })
            || all[(u + 3)...].prefix(2).contains("up") {
            return Flag(.passiveAggressive, "'some of us ...' contrasts the reader's effort with yours: say what you need from them")
        }
        // "the spec, which nobody read": work skipped by everyone, said in passing.
        if let n = all.indices.first(where: { $0 > 0 && ["which", "that"].contains(all[$0 - 1]) && ["nobody", "no-one"].contains(all[$0]) }),
           n + 1 < all.count, skippedWork.contains(all[n + 1]) {
            return Flag(.passiveAggressive, "'\(all[n - 1]) nobody \(all[n + 1])' is a jab: say what should be read or checked")
        }
        // "You keep breaking the build."
        if let y = all.firstIndex(of: "keep"), y > 0, ["you", "they", "your"].contains(all[y - 1]) || (y > 1 && all[y - 2] == "your"), y + 1 < all.count,
           ["breaking", "forgetting", "missing", "ignoring", "skipping", "losing", "dropping", "interrupting"].contains(all[y + 1]) {
            return Flag(.harsh, "'\(all[y - 1]) keep \(all[y + 1])' blames the person: describe what happened and what is needed")
        }
        return nil
    }
}
