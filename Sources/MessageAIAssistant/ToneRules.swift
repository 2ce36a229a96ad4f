import Foundation

/// Tone: a draft that will read as rude. Terse refusals of a polite ask, harsh or blaming words,
/// shouting, passive-aggressive phrases. Not flagged: polite or neutral short replies, reasoned
/// critique, polite declines, acronyms, one enthusiastic word in capitals.
enum ToneRules {
    /// Always harsh, whatever the reasons given.
    static let insults: Set<String> = ["stupid", "idiot", "idiots", "idiotic", "moron", "morons", "dumb", "incompetent",
                                       "pathetic", "garbage", "trash", "crap", "crappy", "shit", "shitty", "wtf", "damn",
                                       "clueless", "lazy", "braindead", "brain-dead", "moronic", "worthless", "bs", "hell",
                                       "bullshit", "fuck", "fucking", "fucked", "screwed", "dumbest", "clown", "clowns", "stupidity", "imbecile", "jerk"]
    /// Harsh unless the sentence gives a reason ("this is a mess because the ids changed" is critique).
    static let harsh: Set<String> = ["mess", "ridiculous", "sloppy", "useless", "terrible", "awful", "horrible", "unacceptable",
                                     "embarrassing", "nonsense", "joke", "disaster", "amateur", "amateurish", "careless", "absurd", "insane",
                                     "pointless", "hopeless", "unbelievable", "shameful", "disgrace", "laughable", "inexcusable", "unprofessional",
                                     "half-baked", "half-assed", "shoddy", "subpar", "mediocre", "atrocious",
                                     "abysmal", "dreadful", "horrendous", "unusable", "incompetence", "lousy", "pitiful", "negligent",
                                     "irresponsible", "reckless"]
    static let blaming = ["who approved", "who wrote this", "who broke", "what were you thinking", "how hard can it be",
                          "how hard is it", "how many times", "are you kidding", "are you serious", "seriously?", "your fault",
                          "you broke", "you always", "you never", "do your job", "shut up", "waste of time", "why can't you",
                          "why didn't you", "why would you", "why would anyone", "can't you just", "for god's sake", "figure it out yourself",
                          "do it yourself", "not my problem", "not my job", "not my fault", "deal with it", "get it together",
                          "did you even", "do you even", "learn to", "you people", "i don't care", "whatever you say", "read the docs",
                          "you didn't even", "you clearly", "you obviously", "how did you", "how could you", "what is wrong with you",
                          "what's wrong with you", "are you blind", "can't believe you", "nobody asked", "who cares", "not my concern",
                          "stop wasting", "stop asking", "stop pinging", "learn how to", "did anyone even", "why is it always",
                          "why does nobody", "why do i have to", "i have to do everything", "you're wrong", "you are wrong",
                          "completely wrong", "totally wrong", "google it", "figure it out", "use your head", "not rocket science",
                          "how is this so hard", "how is that so hard", "get your act together", "sort yourselves out", "your mess",
                          "your problem", "not our problem", "why didn't anyone", "why hasn't anyone", "why has nobody", "why wasn't this",
                          "why isn't this done", "how on earth", "what the hell", "how is this possible", "how is it possible that", "rtfm", "do your homework",
                          "use your brain", "not my department", "above my pay grade", "what were they thinking", "who thought this was", "you should have", "you should've", "should have caught", "can you not", "i'm tired of", "tired of fixing",
                          "sick of", "fed up", "your mistakes", "can't believe nobody", "i can't believe you", "do what you want", "why is this still", "why is it still", "why is this broken again", "just do it", "just do your", "ask someone who cares", "fix your", "you messed up", "you screwed up"]
    static let passiveAggressive = ["as i already said", "as i said before", "as i've said", "as i have said", "as previously mentioned",
                                    "as per my last", "per my last", "as mentioned before", "as i mentioned before", "nice of you to",
                                    "thanks for nothing", "must be nice", "glad you could join", "glad you finally", "thanks for finally",
                                    "finally decided", "so good of you", "i guess some of us", "some of us actually", "some of us have to", "no offense, but",
                                    "no offense but", "with all due respect", "not sure why this is so hard", "if you had read",
                                    "if you'd read", "i'll do it myself then", "i'll just do it myself", "for the third time", "for once", "try reading", "try actually", "heard you the first", "always works out", "what could go wrong", "what a surprise", "color me surprised", "who could have guessed", "clearly doesn't matter", "clearly don't matter", "doesn't matter, i guess", "oh sure", "oh great", "yeah right", "sure, because", "yeah, because", "because that always", "thanks a lot for", "must have missed", "so glad you", "how nice of",
                                    "for the hundredth time", "once again", "not that anyone asked", "thanks for the heads up, i guess", "good luck with that",
                                    "sure, whatever", "k.", "fine, whatever", "whatever.", "wow, thanks",
                                    "per my previous", "as discussed multiple times", "as usual", "per usual", "yet again", "for the last time",
                                    "how many times do i have to", "if it's not too much trouble", "when you finally", "whenever you feel like it",
                                    "if you can be bothered", "not that it matters", "i guess i'll just", "fine, i'll do it myself", "i'll do it myself",
                                    "i'm sure you're very busy", "thanks for your input, i guess", "good to know you", "nice of you",
                                    "must be nice", "thanks for letting me know so", "appreciate you finally", "took you long enough", "about time",
                                    "glad you could make it", "nice of you to join", "look who finally", "look who's here", "some people",
                                    "certain people", "i'm not going to repeat myself", "to repeat myself", "as stated", "as clearly stated",
                                    "as noted above", "as mentioned above", "see above", "scroll up", "it's not that hard", "not that difficult",
                                    "if you had bothered", "if you'd bothered", "had you read", "i thought i was clear", "i thought i made it clear",
                                    "kind of you to", "so kind of you", "how generous", "good for you", "cool story", "thanks, i guess", "noted, i guess",
                                    "great job breaking", "nice job breaking", "well done breaking", "thanks for breaking", "so helpful, thanks"]
    static let sarcasticOpeners: Set<String> = ["great", "perfect", "wonderful", "fantastic", "awesome", "brilliant", "lovely", "oh", "wow", "nice", "cool", "love"]
    static let sarcasticTargets: Set<String> = ["another", "again", "outage", "broken", "broke", "breaking", "failing", "failed", "down", "more", "wasted", "ignoring", "ignored", "forgot",
                                                "meeting", "meetings", "bug", "bugs", "regression", "late", "delay", "delayed", "yet"]
    static let terseRefusals: Set<String> = ["no", "nope", "nah", "no way", "not now", "can't", "cannot", "busy", "fine", "whatever",
                                             "so", "and", "k", "not doing that", "no time", "not happening", "won't", "why", "pass", "meh", "obviously", "nope not me", "not me", "ask someone else",
                                             "too busy", "not a chance", "absolutely not", "hard no", "what", "i'm busy", "im busy", "no way",
                                             "later", "not today", "stop", "already done", "read the thread", "busy now", "not interested", "no can't", "can't now", "and", "so what", "your call", "not mine", "you do it", "you fix it", "do it then", "busy right now", "what do you want", "what now", "now what", "ugh", "sigh", "ugh fine", "fine i guess"]
    static let politeMarkers = ["sorry", "thanks", "thank you", "appreciate", "unfortunately", "afraid", "would love to",
                                "wish i could", "maybe next", "how about", "could we", "can we", "happy to", "but i can", "instead"]
    static let reasons = [" because ", " since ", " as it ", " so that ", " which means ", " due to ", " given ", " otherwise ", " - ", ": ", " — "]

    static func flags(_ m: MessageToJudge) -> [Flag] {
        var flags: [Flag] = []
        if let f = shouting(m.text) { flags.append(f) }
        let text = spelledOut(m.text.replacingPresent("’", with: "'"))
        let lower = " " + text.lowercased() + " "
        let words = Words.all(text)
        let polite = politeMarkers.contains { lower.hasBytes($0) }
        let reasoned = reasons.contains { lower.hasBytes($0) }
        // Hyphenated entries ("half-baked", "brain-dead") are two words to `Words.all`: matched on the text.
        if let w = words.first(where: { insults.contains($0) }) ?? insults.first(where: { $0.contains("-") && lower.hasBytes(" " + $0) }) {
            flags.append(Flag(.harsh, "'\(w)' attacks the person or their work: say what is wrong and why"))
        } else if let w = words.first(where: { harsh.contains($0) }) ?? harsh.first(where: { $0.contains("-") && lower.hasBytes(" " + $0) }), !reasoned {
            flags.append(Flag(.harsh, "'\(w)' judges without a reason: say what is wrong and what would fix it"))
        }
        if let p = blaming.first(where: { lower.hasBytes(p(spaced: $0)) }) {
            flags.append(Flag(.harsh, "'\(p)' reads as blame: describe the problem, not the person"))
        }
        if let p = passiveAggressive.first(where: { lower.hasBytes(p(spaced: $0)) }) {
            flags.append(Flag(.passiveAggressive, "'\(p.trimmingCharacters(in: .punctuationCharacters.union(.whitespaces)))' reads as passive-aggressive: say the point plainly"))
        }
        if let f = sarcasm(text) ?? mockPraise(text) ?? exasperation(text) ?? dismissal(text) ?? families(text) ?? flatPraise(text, m) ?? asides(text, m, polite: polite) ?? jabsAndTags(text) { flags.append(f) }
        // "Why did you merge this?!" — a question or complaint shouted with stacked punctuation.
        if flags.isEmpty, !polite, ["?!", "!?", "!!!", "??"].contains(where: { text.contains($0) }),
           !Words.all(text).contains(where: { ["great", "awesome", "amazing", "congrats", "wow", "yay", "nice", "love", "cool", "excited", "thanks", "wait"].contains($0) }) {
            flags.append(Flag(.harsh, "'\(["?!", "!?", "!!!", "??"].first(where: { text.contains($0) })!)' makes it read as anger: ask or state it calmly"))
        }
        // "Stop pushing broken code." — an order to stop, with no please or reason.
        if let first = Sentences.split(text).first.map(Tokenizer.tokens), first.count >= 2, first[0].lower == "stop",
           Verbs.fromGerund(first[1].lower) != nil || first[1].lower.hasSuffix("ing"), !polite, !reasoned {
            flags.append(Flag(.harsh, "'stop \(first[1].raw)' reads as an order: say what went wrong and what you need instead"))
        }
        if Sentences.split(text).first.map({ ["obviously", "whatever", "clearly"].contains(Words.all($0).joined(separator: " ")) }) == true {
            flags.append(Flag(.passiveAggressive, "a bare '\(Sentences.split(text)[0])' reads as dismissive: say what you mean plainly"))
        }
        if flags.isEmpty, let f = terse(text, m, polite: polite) { flags.append(f) }
        var seen = Set<Flag.Kind>()
        return flags.filter { seen.insert($0.kind).inserted }
    }

    private static func p(spaced s: String) -> String { s.first?.isLetter == true ? " " + s : s }

    /// The text with texting forms spelled out ("fix it urself" -> "fix it yourself"), punctuation kept.
    static func spelledOut(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { chunk -> String in
            let core = chunk.trimmingCharacters(in: .punctuationCharacters)
            guard let long = texting[core.lowercased()], let r = chunk.range(of: core) else { return String(chunk) }
            return chunk.replacingCharacters(in: r, with: long)
        }.joined(separator: " ")
    }

    /// "Great, another outage." — praise words opening a sentence about something going wrong.
    static func sarcasm(_ text: String) -> Flag? {
        for s in Sentences.split(text) {
            let t = Tokenizer.tokens(s)
            guard t.count >= 2, sarcasticOpeners.contains(t[0].lower), t[0].after.contains(",") || t[0].after.contains("!") || t[0].after.contains(".") || t[0].lower == "oh" || t[1].lower == "another" else { continue }
            let positive = t.contains { ["thanks", "fixed", "green", "works", "passed", "resolved", "back", "thank", "i'll", "i'm", "we'll", "let"].contains($0.lower) }
            if t.dropFirst().prefix(3).contains(where: { sarcasticTargets.contains($0.lower) })
                || (!positive && t.dropFirst().contains(where: { sarcasticTargets.contains($0.lower) || ["nobody", "never", "no-one"].contains($0.lower) })) {
                return Flag(.passiveAggressive, "'\(t[0].raw), \(t[1].raw) ...' reads as sarcasm: say what went wrong plainly")
            }
        }
        return nil
    }

    /// "Love how nobody read the doc", "So glad we never test": praise around a complaint.
    static func mockPraise(_ text: String) -> Flag? {
        for s in Sentences.split(text) {
            let w = Words.all(s)
            let opener = w.prefix(3).joined(separator: " ")
            guard ["love how", "love that", "i love how", "i love that", "so glad", "good thing", "gotta love", "got to love", "glad to see", "good to see",
                   "nice to see", "great to see", "love to see", "love it when", "i love it when", "always love"].contains(where: { opener.hasPrefix($0) }) else { continue }
            if w.contains(where: { ["nobody", "never", "no", "again", "still", "forgot", "ignored", "broke", "broken", "optional", "skipped", "missed", "failed", "down", "crashed", "outage"].contains($0) }),
               !w.contains(where: fixedWork.contains) {
                return Flag(.passiveAggressive, "'\(s.trimmingCharacters(in: .whitespaces))' reads as sarcasm: say what went wrong plainly")
            }
        }
        return nil
    }

    /// A bare "No." or "Not now." answering a polite ask.
    static func terse(_ text: String, _ m: MessageToJudge, polite: Bool) -> Flag? {
        let words = Words.all(text.replacingPresent("'", with: "APOS")).map { $0.replacingPresent("apos", with: "'") }
        let phrase = words.joined(separator: " ")
        let refusalStart = ["no", "nope", "nah", "can't", "won't", "not"].contains(words.first ?? "")
            && !["no worries", "no problem", "no thanks", "no rush", "no need", "not yet", "not sure", "no idea", "not really", "no prob", "not a problem"].contains { phrase.hasPrefix($0) }
        let alternative = ["but", "maybe", "how about", "instead", "tomorrow", "later today", "next week", "after", "because", "since"].contains { (" " + phrase + " ").contains(" " + $0 + " ") }
        let explained = ["it's", "it is", "that's", "we", "i'm", "there's", "they"].contains { words.dropFirst().first == $0 }
        // "Read the spec.", "Check the wiki." — a bare pointer elsewhere instead of an answer.
        let redirect = words.count <= 3 && ["read", "check", "google", "search", "see"].contains(words.first ?? "") && ["the", "it", "your"].contains(words.dropFirst().first ?? "")
        // "too busy, ask someone else": every clause a bare refusal.
        let clauses = text.lowercased().split(whereSeparator: { ",;.".contains($0) }).map { Words.all(String($0).replacingPresent("'", with: "APOS")).map { $0.replacingPresent("apos", with: "'") }.joined(separator: " ") }.filter { !$0.isEmpty }
        let refusals = words.count <= 6 && clauses.count > 1 && clauses.allSatisfy(terseRefusals.contains)
        let exact = words.count <= 4 && (terseRefusals.contains(phrase) || redirect) || refusals
        guard !polite, exact || (refusalStart && words.count <= 6 && !alternative && !explained) else { return nil }
        guard let last = m.context.last(where: { $0.from.lowercased() != m.from.lowercased() }) else { return nil }
        let ask = spelledOut(last.text).lowercased()
        let request = ["please", "could you", "can you", "would you", "mind", "can someone", "could someone", "could we", "can we", "any chance",
                       "would it be possible", "when you get a chance", "do you have time", "are you able", "is it possible"].contains { ask.contains($0) }
        // Any ask the rules read as work for this reader counts too ("Got a sec to look at the flaky test?").
        // A question put to the reader or to anyone ("anyone free to take the 2am page?") asks too.
        let putToReader = ask.contains("?") && Words.all(ask).contains { ["you", "anyone", "anybody", "someone", "somebody"].contains($0) }
        let asked = request || putToReader || ActionRules.found(MessageToJudge(from: last.from, to: [m.from], text: last.text)).contains { $0.trigger.owner != .sender }
        guard asked || (exact && ask.contains("?")) else { return nil }
        return Flag(.terse, "a bare '\(text.trimmingCharacters(in: .whitespacesAndNewlines))' answers a polite ask abruptly: add a reason or what you can do instead")
    }
}
