import Foundation

/// The thread's own sentences a summary may quote, each weighted by what ASSISTANT.md says a
/// returning reader needs: work reported done, changes of plan, dates and figures, the topic.
/// Sentences already told by a decision, an open item or an open question are left out.
enum SalientSentences {
    /// Words that say a plan changed ("moves to 2.5", "pushed to Monday", "dropped").
    static let changes: Set<String> = ["moved", "moves", "move", "moving", "postponed", "postpone", "pushed", "delayed", "delay", "slipped",
                                       "slips", "dropped", "dropping", "drop", "cancelled", "canceled", "cancel", "rescheduled", "instead",
                                       "switched", "switching", "replaced", "reverted", "revert", "rolled", "paused", "blocked", "blocker",
                                       "longer", "anymore", "changed", "change", "cut", "scrapped", "extended", "earlier", "later"]
    static let reasons = [" because ", " since ", " due to ", " so that ", " as the ", " which means "]

    static func candidates(_ judged: [MessageToJudge], _ founds: [[ActionRules.Found]], questions: [String], participants: [String]) -> [SummaryLine] {
        let names = Set(participants)
        var out: [SummaryLine] = []
        for (i, m) in judged.enumerated() {
            for (si, s) in Sentences.split(m.text).enumerated() {
                if Acknowledgements.isShortReply(s) || Words.content(s).count < 3 { continue }
                if founds[i].contains(where: { $0.sentence == si }) { continue }
                // (A sentence alone has no context: only its own words can mark a decision.)
                if DecisionRules.states(s) { continue }
                let short = Compress.sentence(s, names: names)
                if questions.contains(short) { continue }
                let weight = salience(s, message: i, sentence: si) + (answers(judged, message: i, sentence: si) ? 1 : 0)
                out.append(SummaryLine(text: "\(m.from.lowercased()): " + Compress.tight(Compress.clause(short)), order: i * 100 + si, salience: weight))
            }
        }
        return out
    }

    static func salience(_ s: String, message i: Int, sentence si: Int) -> Double {
        let words = Words.all(s)
        let lower = " " + s.lowercased() + " "
        var score = 1.0
        if i == 0 { score += si == 0 ? 1.5 : 0.75 }
        if !s.contains("?"), words.contains(where: { OpenActions.doneWords.contains($0) || Verbs.isPastOfWork($0) }) { score += 1 }
        if words.contains(where: { changes.contains($0) }) { score += 1 }
        if s.contains(where: \.isNumber) { score += 1 } else if DueDates.find(Tokenizer.tokens(s)) != nil { score += 0.5 }
        if reasons.contains(where: { lower.hasBytes($0) }) { score += 0.3 }
        if s.contains("?") { score *= 0.5 }
        return score
    }

    /// The first sentence of a reply to someone else's question answers it ("Which providers do we
    /// test?" — "Okta, Azure AD and Google Workspace"): what was settled there is a key point.
    static func answers(_ judged: [MessageToJudge], message i: Int, sentence si: Int) -> Bool {
        guard i > 0, si == 0, judged[i - 1].from.lowercased() != judged[i].from.lowercased() else { return false }
        return judged[i - 1].text.contains("?") && !judged[i].text.hasSuffix("?")
    }
}

/// Shortens a sentence for the summary without changing its words: greetings, thanks and
/// fillers at the start go ("Thanks, Li. Ok so we'll ship Monday" → "we'll ship Monday").
enum Compress {
    static let openers: Set<String> = ["ok", "okay", "so", "thanks", "thanks!", "hey", "hi", "also", "well", "alright", "right",
                                       "cool", "great", "sure", "yes", "yeah", "yep", "hmm", "btw", "fyi", "oh", "ah", "and", "anyway", "honestly", "quick", "update:",
                                       "morning", "heads", "up", "then", "perfect", "nice", "good", "ps", "fwiw"]
    /// Words a headline leaves out: they carry no content and a reader restores them.
    static let light: Set<String> = ["the", "a", "an", "just", "really", "actually", "basically", "quickly", "definitely", "totally", "literally"]

    static func sentence(_ s: String, names: Set<String> = []) -> String {
        var words = s.split(separator: " ").map(String.init)
        while words.count > 3, let f = words.first {
            let bare = f.lowercased().trimmingCharacters(in: .punctuationCharacters)
            // Openers, and a vocative ("Omar, how long ...?").
            guard openers.contains(bare) || (["no", "nope", "yes"].contains(bare) || names.contains(bare)) && f.hasSuffix(",") else { break }
            words.removeFirst()
        }
        if let f = words.first, let c = f.first, c.isLowercase, !f.hasPrefix("@") { words[0] = c.uppercased() + f.dropFirst() }
        // "That was the old web app; nobody asked": a clause cut at its ";" ends as a sentence, not mid-way.
        if let l = words.last, l.hasSuffix(";") { words[words.count - 1] = String(l.dropLast()) + "." }
        return words.joined(separator: " ")
    }

    /// A decision's outcome without the words around it that only lead up to it: a reversal's opener
    /// ("Scratch that: ..."), a reason before ", so we ..." and a "Given the poll, ..." (the line states
    /// what was settled; the thread gave the reasons).
    static func outcome(_ d: String) -> String {
        var text = d.trimmingSpaces()
        let lower = text.lowercased().replacingPresent("’", with: "'")
        for lead in ["scratch that: ", "scratch that, ", "change of plan: ", "change of plan, "] where lower.hasPrefix(lead) {
            text = String(text.dropFirst(lead.count))
        }
        let low = text.lowercased()
        if let r = low.range(of: ", so we "), Words.all(String(low[..<r.lowerBound])).count >= 3,
           case let rest = String(text[text.index(text.startIndex, offsetBy: low.distance(from: low.startIndex, to: r.lowerBound) + 5)...]),
           Words.content(rest).count >= 3 {
            return rest
        }
        if low.hasPrefix("given "), let comma = text.firstIndex(of: ","), Words.all(String(text[..<comma])).count <= 5,
           case let rest = String(text[text.index(after: comma)...]).trimmingSpaces(), Words.content(rest).count >= 3 {
            return rest
        }
        return text
    }

    static let copulas: Set<String> = ["is", "are", "was", "were"]
    static let tails = [" so far", " from now on", " right now", " at all", " for now", " this time around", " this time"]
    static let askOpeners = ["do we know ", "does anyone know ", "do you know ", "any idea ", "anyone know ", "quick question: ", "question: ",
                             "what about ", "how about ", "are we ", "do we ", "is there ", "are there ", "should we ", "can we ", "will we ", "do i "]

    /// A decision without the words that only say it is one ("Let's move the backup" → "Move the backup").
    static func decision(_ d: String) -> String {
        let s = sentence(outcome(d))
        for lead in ["let's ", "lets ", "we'll ", "we will ", "we're ", "we are ", "we "] where s.lowercased().hasPrefix(lead) && s.count > lead.count + 8 {
            let rest = s.dropFirst(lead.count)
            return rest.prefix(1).uppercased() + rest.dropFirst()
        }
        return s
    }

    /// An open question without the asking around it ("Do we know why the lag spiked?" → "Why the lag spiked?").
    static func question(_ q: String) -> String {
        let lower = q.lowercased()
        guard let o = askOpeners.first(where: { lower.hasPrefix($0) }), q.count > o.count + 8 else { return q }
        let rest = q.dropFirst(o.count)
        return rest.prefix(1).uppercased() + rest.dropFirst()
    }

    /// Words that only hedge ("I think", "probably"). Qualifiers that change what is said ("at
    /// least a week", "for now", "roughly 20 hours") stay: a summary must not say more than the thread.
    static let hedges: [[String]] = [["i", "think"], ["i'd", "say"], ["i", "guess"], ["i", "believe"], ["probably"], ["maybe"], ["kind", "of"],
                                     ["sort", "of"], ["honestly"], ["basically"], ["actually"], ["i", "mean"], ["to", "be", "honest"],
                                     ["if", "you", "ask", "me"], ["in", "my", "opinion"]]

    static let hedgeStarts = Set(hedges.map { $0[0] })

    /// Drops the hedges of `hedges`, keeping the punctuation of a dropped last word on the word before.
    static func dehedge(_ s: String) -> String {
        var words = s.split(separator: " ").map(String.init)
        // Lower case without surrounding punctuation, once per word (kept in step with `words`).
        var bare = words.map { w in String(w.lowercased().replacingPresent("’", with: "'").unicodeScalars.filter { $0 == "'" || !$0.isPunctuationMark }) }
        var k = 0
        while k < words.count {
            guard hedgeStarts.contains(bare[k]),
                  let h = hedges.first(where: { h in k + h.count <= words.count && h.indices.allSatisfy { bare[k + $0] == h[$0] } }), words.count - h.count >= 3 else { k += 1; continue }
            let lastWord = words[k + h.count - 1]
            let trailing = String(lastWord.reversed().prefix { ",.;:!?".contains($0) }.reversed())
            words.removeSubrange(k..<(k + h.count))
            bare.removeSubrange(k..<(k + h.count))
            if !trailing.isEmpty, k > 0 {
                // "the timezone conversion, I guess." → "the timezone conversion."
                while let l = words[k - 1].last, ",;:".contains(l) { words[k - 1].removeLast() }
                if !",.;:!?".contains(words[k - 1].last ?? " ") { words[k - 1] += trailing.hasPrefix(",") && k < words.count ? "," : String(trailing.last!) }
            }
        }
        return words.joined(separator: " ")
    }

    /// A long sentence cut before a trailing clause that explains or pads (", which ...", ", so ...",
    /// " because ..."), when what is left still names at least four things.
    static func clause(_ s: String) -> String {
        guard Words.all(s).count > 12 else { return s }
        let lower = s.lowercased()
        for cut in [", which ", ", so ", " so that ", ", since ", " because ", ", as ", " - ", " — ", ", just "] where lower.hasBytes(cut) {
            guard let r = lower.range(of: cut) else { continue }
            let head = String(s[..<s.index(s.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: r.lowerBound))])
            if Words.content(head).count >= 4 { return head + (s.hasSuffix("?") ? "?" : ".") }
        }
        return s
    }

    /// Headline style: articles, intensifiers and copulas dropped ("the login fix is merged" → "login fix merged").
    static func tight(_ s: String) -> String {
        var s = dehedge(s)
        for t in tails { s = s.replacingPresent(t, with: "") }
        let words = s.split(separator: " ").map(String.init)
        let question = s.contains("?")
        let kept = words.enumerated().filter { k, w in
            let l = w.lowercased()
            if hasMark(w) || k + 1 == words.count { return true }
            if light.contains(l) { return false }
            // "is" after a noun and before more words; never in a question ("what is left?").
            if copulas.contains(l), k > 0, !question, !["it", "that", "this", "there", "what", "which", "who"].contains(words[k - 1].lowercased()) { return false }
            return true
        }.map(\.element)
        guard !kept.isEmpty else { return s }
        var out = whole(kept)
        if let f = out.first, let c = f.first, c.isLowercase, !f.hasPrefix("@"), s.first?.isUppercase == true { out[0] = c.uppercased() + f.dropFirst() }
        return out.joined(separator: " ")
    }

    /// Whether a word holds one of ",.;:!?" — on the bytes when it is ASCII (each byte a whole
    /// Character there), as Characters otherwise: the summary asks it of every word of every line.
    static func hasMark(_ w: String) -> Bool {
        if w.isASCIIOnly { return w.utf8.contains { $0 == 0x2C || $0 == 0x2E || $0 == 0x3B || $0 == 0x3A || $0 == 0x21 || $0 == 0x3F } }
        return w.contains { ",.;:!?".contains($0) }
    }

    /// No line ends clipped: a dropped tail or hedge ("finish the docs and right now") must not
    /// leave "and", "the" or "with" last; the end mark of a dropped word moves to the word before.
    static func whole(_ words: [String]) -> [String] {
        var out = words
        while out.count > 1, let last = out.last {
            let bare = last.lowercased().trimming(".!?,;:")
            guard ActionRules.dangling.contains(bare) || bare.isEmpty else { break }
            out.removeLast()
            let mark = last.last.map(String.init).flatMap { ".!?".contains($0) ? $0 : nil } ?? ""
            while let l = out[out.count - 1].last, ",;:".contains(l) { out[out.count - 1].removeLast() }
            if !mark.isEmpty, !".!?".contains(out[out.count - 1].last ?? " ") { out[out.count - 1] += mark }
        }
        return out
    }
}
