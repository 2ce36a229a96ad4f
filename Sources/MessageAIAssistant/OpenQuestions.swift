import Foundation

/// Questions still open at the end of a thread: information questions (asks for work are action
/// items) that no later message from someone else answers.
enum OpenQuestions {
    static let deferrals = ["let me check", "get back to you", "not sure", "no idea", "good question", "i'll find out",
                            "i'll check", "don't know", "will check", "tbd", "need to check", "let me ask", "i'll ask", "no clue",
                            "good q", "come back to", "let's discuss", "let's park", "let's vote", "let's see what",
                            "let's see if", "let's hold", "let's figure", "i'll confirm", "still open", "i'll decide", "not decide"]
    /// Openers of a reply that moves on to something else: it answers nothing before it.
    static let topicChanges = ["another thing", "btw", "unrelated", "separately", "on another note", "different topic", "also,", "also:"]

    static func open(_ judged: [MessageToJudge], _ founds: [[ActionRules.Found]]) -> [String] {
        var out: [String] = []
        for (i, m) in judged.enumerated() {
            let found = founds[i]
            var last = -2
            for (si, s) in Sentences.split(m.text).enumerated() where s.hasSuffix("?") || unmarked(s) {
                if found.contains(where: { $0.sentence == si }) { continue }
                if Words.content(s).count < 2 { continue }
                // "can you ask acme which fixed ranges they need? 7/30/90 days?": a few words that ask
                // nothing of their own after an ask are that ask's detail, not a question.
                if si > 0, found.contains(where: { $0.sentence == si - 1 }), elliptical(s) { continue }
                if answered(s, asker: m.from, after: i, judged) || assigned(s, after: i, judged, founds) { continue }
                var q = Compress.sentence(s.trimmingSpaces(), names: Set(judged.map { $0.from.lowercased() }))
                if !q.hasSuffix("?") { q = q.trimming(" .!") + "?" }
                // Back-to-back questions of one message are one open question ("Who tells the partners? Is there a comms plan?").
                if last == si - 1, let prev = out.popLast() { out.append(prev + " " + q) } else { out.append(q) }
                last = si
            }
        }
        return out
    }

    /// Asks for work that nobody took and nobody did ("Can someone fix it before the demo?" and
    /// then silence): still open at the end, so a returning reader sees them with the questions.
    static func unansweredAsks(_ judged: [MessageToJudge], _ founds: [[ActionRules.Found]], unowned: [ActionItem], known: [String]) -> [String] {
        var out: [String] = []
        let names = Set(judged.map { $0.from.lowercased() })
        for (i, m) in judged.enumerated() {
            let sentences = Sentences.split(m.text)
            for f in founds[i] where f.sentence < sentences.count && unowned.contains(where: { $0.what == f.item.what }) {
                let object = Set(Words.content(f.item.what).dropFirst())
                let later = judged.dropFirst(i + 1)
                // "please expose total_count" — "let's park total_count": an ask whose last word puts it off is open.
                let parked = putOffLast(object, later)
                guard parked || sentences[f.sentence].hasSuffix("?") || asksAnyone(sentences[f.sentence]) else { continue }
                // Nobody spoke of it again: a later word of someone else about its object answers it somehow,
                // unless it puts it off ("canary only gets web traffic I think? not sure").
                if !parked && later.contains(where: { $0.from.lowercased() != m.from.lowercased() && !object.isDisjoint(with: Words.content($0.text)) && !putsOff($0.text.lowercased()) }) { continue }
                // "someone needs to tell the app teams" — "I'll post in #eng-announce today": the next speaker took it.
                if !sentences[f.sentence].hasSuffix("?"), let next = later.first(where: { $0.from.lowercased() != m.from.lowercased() }),
                   ["i'll ", "i will ", "i can ", "on it", "will do"].contains(where: { next.text.lowercased().hasPrefix($0) }) { continue }
                var q = Compress.sentence(sentences[f.sentence].trimmingSpaces(), names: names)
                // "X is flaky on CI. Can someone look at it?": the ask's "it" is the sentence before it.
                if f.sentence > 0, q.hasSuffix("?"), Words.all(q).contains(where: { ["it", "this", "them"].contains($0) }),
                   let ref = referent(sentences[f.sentence - 1]) { q = String(q.dropLast()) + " (" + ref + ")?" }
                if !known.contains(q) && !out.contains(q) { out.append(q) }
            }
        }
        return out
    }

    static let askOpeners: Set<String> = ["is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "will", "would", "who", "what",
                                          "when", "where", "why", "how", "which", "has", "have", "shall", "may", "any", "anyone", "anybody"]

    /// A question of at most four words that opens with neither a verb of asking nor a wh-word ("7/30/90 days?").
    static func elliptical(_ s: String) -> Bool {
        let words = Words.all(s)
        guard let first = words.first else { return true }
        return words.count <= 4 && !askOpeners.contains(first)
    }

    /// "someone should check why the canary didn't catch this": an ask of nobody in particular, a
    /// question of who will do it though it has no "?".
    static func asksAnyone(_ s: String) -> Bool {
        let lower = s.lowercased()
        return ["someone should ", "someone needs to ", "somebody should ", "someone has to ", "someone must "].contains { lower.hasPrefix($0) }
    }

    /// What a message's sentence before an ask names, as a bracket for the ask's pronoun: its first
    /// clause without a short label ("drive-by: webhook_retry_test is flaky on CI, failed twice" →
    /// "webhook_retry_test is flaky on CI"); nil for a question or a clause of fewer than two words.
    static func referent(_ s: String) -> String? {
        guard !s.hasBytes("?") else { return nil }
        var text = Substring(s.trimmingSpaces())
        if let colon = text.firstIndex(of: ":"), text[..<colon].split(separator: " ").count <= 2 { text = text[text.index(after: colon)...] }
        if let comma = text.firstIndex(of: ",") { text = text[..<comma] }
        let clause = String(text).trimmingSpaces().trimming(" .!")
        return Words.content(clause).count >= 2 && Words.all(clause).count <= 10 ? clause : nil
    }

    /// An open question without the bracket `referent` added ("Can someone look at it (X is flaky)?").
    static func withoutReferent(_ q: String) -> String {
        guard q.hasSuffix(")?"), let open = q.range(of: " (", options: .backwards) else { return q }
        return String(q[..<open.lowerBound]) + "?"
    }

    /// "Who reviews the async change?" — "Tom, can you review it?": a question of who does the work
    /// is answered when the next messages give that work to a member by name.
    static func assigned(_ question: String, after i: Int, _ judged: [MessageToJudge], _ founds: [[ActionRules.Found]]) -> Bool {
        let words = Words.all(question)
        guard words.first == "who" || words.prefix(3).contains("who") && words.first != "do" else { return false }
        let asked = Set(Words.content(question))
        let names = Set(judged.map { $0.from.lowercased() })
        return founds.indices.dropFirst(i + 1).prefix(3).contains { k in
            founds[k].contains { f in names.contains(f.item.who) && asked.contains(Words.stem(OpenActions.firstWord(f.item.what))) }
        }
    }

    static func answered(_ question: String, asker: String, after i: Int, _ judged: [MessageToJudge]) -> Bool {
        let q = Set(Words.content(question))
        let later = judged.dropFirst(i + 1)
        if later.contains(where: { $0.from.lowercased() == asker.lowercased() && ["never mind", "nevermind", "ignore that", "scratch that"].contains(where: $0.text.lowercased().contains) }) { return true }
        if putOffLast(q, later) { return false }
        var firstReply = true
        // Who put it off ("let me check with their team"): their own later word on it is the answer.
        var deferrer: String? = nil
        for m in later where m.from.lowercased() != asker.lowercased() {
            let lower = m.text.lowercased()
            let deferral = putsOff(lower)
            let words = Set(Words.content(m.text))
            if q.intersection(words).count >= 2 && !deferral { return true }
            if !deferral, let d = deferrer, d == m.from.lowercased(), !q.isDisjoint(with: words), !firstSentenceAsks(m.text) { return true }
            if deferral && deferrer == nil { deferrer = m.from.lowercased() }
            // The next person to speak answers unless they ask something back first, put it off, or say
            // nothing in words ("👀").
            // (Read only of the first reply: every later message is asked about every question.)
            if firstReply && !deferral && !firstSentenceAsks(m.text) && !saysNothing(m.text) && !departs(lower)
                && !topicChanges.contains(where: { lower.hasPrefix($0) || lower.hasBytes(". " + $0) || lower.hasBytes(": " + $0) }) {
                return true
            }
            // "yes pls, can you do it gabriela?": a yes answers, whatever it asks next.
            if firstReply && !deferral, let w = Words.all(m.text).first, ["yes", "yep", "yeah", "no", "nope", "sure"].contains(w) { return true }
            firstReply = false
        }
        return false
    }

    /// A reply that puts a question off ("not sure", "depends on the references", "not me, I'm out").
    static func putsOff(_ lower: String) -> Bool {
        deferrals.contains { lower.hasBytes($0) } || lower.hasPrefix("depends") || lower.hasPrefix("it depends") || lower.hasPrefix("not me")
    }

    /// "amount_cents: let's vote next week": the last word on a question's topic puts it off, so it is
    /// open at the end whatever was said before.
    static func putOffLast(_ q: Set<String>, _ later: ArraySlice<MessageToJudge>) -> Bool {
        guard q.count >= 2, let last = later.last(where: { sharesTwo($0.text, q) }) else { return false }
        return putsOff(last.text.lowercased())
    }

    /// Whether a text holds two different words of `q`, without building a set of its words (every
    /// question reads every later message).
    static func sharesTwo(_ text: String, _ q: Set<String>) -> Bool {
        var first: String? = nil
        for w in Words.content(text) where q.contains(w) {
            if let f = first { if f != w { return true } } else { first = w }
        }
        return false
    }

    /// "What about X? Still tight." asks back; "Helps, but it's still 2.5 weeks. What does Acme need?" answers first.
    static func firstSentenceAsks(_ text: String) -> Bool {
        guard text.hasBytes("?") else { return false }
        return Sentences.split(text).first?.hasSuffix("?") ?? false
    }

    /// A question typed without its mark, as chat often is ("does anyone have the logo in svg",
    /// "which font are we using"): an asking word, then the one asked, and a few more words.
    static func unmarked(_ s: String) -> Bool {
        guard !s.hasBytes("?"), let b = s.utf8.first, "dDiIaAwWhHcC".utf8.contains(b) else { return false }
        // (The first word off the bytes before the sentence is cut into words: "I'll ..." and "the ..." are most.)
        let head = String(decoding: s.utf8.prefix { $0 != 32 && $0 != 44 }, as: UTF8.self).lowercased()
        guard ["does", "do", "did", "is", "are", "was", "were", "can", "could", "would", "will", "has", "have", "anyone", "anybody",
               "which", "what", "when", "where", "who", "how", "why"].contains(head) else { return false }
        let words = Words.all(s)
        guard words.count >= 4, words.count <= 16 else { return false }
        // (Not "is it just me or ...", "when I pushed on it he said ...": the one asked is someone, and a
        // question word is followed by its verb.)
        let subjects: Set<String> = ["anyone", "anybody", "someone", "we", "you", "they", "there"]
        let verbs: Set<String> = ["do", "does", "did", "is", "are", "was", "were", "can", "could", "should", "will", "would", "have", "has"]
        switch words[0] {
        case "does", "do", "did", "is", "are", "was", "were", "can", "could", "would", "will", "has", "have": return subjects.contains(words[1])
        case "anyone", "anybody": return true
        case "which", "what", "when", "where", "who", "how", "why": return verbs.contains(words[1]) && !s.hasBytes("!")
        default: return false
        }
    }

    /// A reply that leaves ("gotta run, standup", "sorry, next loop starting, have to run", "lunch, back in 30"):
    /// the question before it is still open.
    static let departures = ["gotta run", "got to run", "have to run", "gotta go", "have to go", "gtg", "brb", "afk", "back later", "back in ",
                             "jump to another call", "jumping on a call", "going into a call", "going into a meeting", "heading out", "signing off",
                             "logging off", "catch up tonight", "catch up later", "will catch up", "next loop starting", "ttyl", "off for the day"]
    static func departs(_ lower: String) -> Bool { departures.contains { lower.hasBytes($0) } }

    /// A reply with no word ("👀", "🙏"): it answers nothing. (A "✅" report of one's own work often
    /// answers a question too, "I updated the runbook, it uses terraform now ✅", and dev4's key points
    /// fell when it was counted out, so only a wordless reply is.)
    static func saysNothing(_ text: String) -> Bool { Words.all(text).isEmpty }
}
