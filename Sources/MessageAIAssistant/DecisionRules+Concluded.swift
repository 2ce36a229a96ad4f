import Foundation

/// Two ways a discussion's conclusion is said in a few words once the others have spoken, with no
/// marker of ASSISTANT.md's list: an option repeated with "then" ("postmortem tomorrow 10:00 CET?" —
/// "can we do 17:00 CET?" — "17:00 CET then"), and the proposer's own "ok, <terms>" after another
/// member approved them ("200?" — "200 is fine" — "ok, max limit 200, default 50"). Each needs
/// the option to have been on the table: a member other than the speaker named it just before.
extension DecisionRules {
    /// Openers before the choice that say nothing of it ("ok monday then", "fine, 17:00 then").
    static let conclusionFillers: Set<String> = ["ok", "okay", "alright", "fine", "so", "cool", "great", "sure", "right", "yes", "yep", "yeah", "good", "fair"]
    /// Words before an "X it is" that say nothing of the choice: the fillers, and a sigh ("sigh, fine, X it is").
    static let choiceLeadIns = conclusionFillers.union(["sigh", "ugh", "hmm", "meh", "welp"])
    /// First words of a "... then" that is no choice: a farewell, a time ("see you then", "until then"), or a clause.
    static let notChoices: Set<String> = ["see", "talk", "bye", "until", "since", "and", "by", "only", "what", "even", "back", "i", "we", "you",
                                          "it", "that", "but", "let's", "lets", "speak", "catch", "chat", "good", "thanks", "thank", "not", "no"]

    /// The text without the symbols it ends in ("next_page_token it is 😅" → "next_page_token it is").
    static func withoutTrailingSymbols(_ s: String) -> Substring {
        // (Most sentences end in a letter, a digit or a stop: one byte tells, before any Character is read.)
        if let b = s.utf8.last, b < 128, b == 46 || b == 33 || b == 41 || (48...57).contains(b) || (65...90).contains(b) || (97...122).contains(b) { return s[...] }
        var end = s.endIndex
        while end > s.startIndex, case let c = s[s.index(before: end)], !(c.isLetter || c.isNumber || c == "." || c == "!" || c == ")") {
            end = s.index(before: end)
        }
        return s[..<end]
    }

    /// "17:00 CET then" after another member put 17:00 CET up: the option taken, with the question it
    /// answers ("17:00 CET (postmortem tomorrow 10:00 CET)"), or nil.
    static func concluded(_ s: String, _ m: MessageToJudge) -> String? {
        // (Most sentences hold no "then": bytes first.)
        guard !m.context.isEmpty, s.hasBytes("then"), !s.hasBytes("?") else { return nil }
        // "ok thursday then, I withdraw the saturday idea": the conclusion is the clause before the comma.
        if let comma = s.firstIndex(of: ","), s[..<comma].lowercased().hasSuffix(" then"), s[s.index(after: comma)...].contains(where: \.isLetter) {
            return concluded(String(s[..<comma]), m)
        }
        guard s.utf8.count <= 48 else { return nil }
        var words = withoutTrailingSymbols(s.trimmingSpaces()).lowercased().replacingPresent("’", with: "'").trimming(" .!")
            .split(separator: " ").map { String($0).trimming(",") }
        guard words.count >= 2, words.last == "then" else { return nil }
        words.removeLast()
        var lead = 0
        while lead < words.count, conclusionFillers.contains(words[lead]) { lead += 1 }
        let option = Array(words[lead...])
        // (An option is a few words naming a thing or a time, never a clause's "until then", "by then".)
        guard (1...5).contains(option.count), let first = option.first, !notChoices.contains(first),
              !option.contains(where: { ["until", "till", "by", "before", "after", "when", "if"].contains($0) }),
              !ActionRules.dangling.contains(option[option.count - 1]) else { return nil }
        let chosen = Set(Words.content(option.joined(separator: " ")))
        guard !chosen.isEmpty else { return nil }
        let me = m.from.lowercased()
        // The option was on the table: another member named it in the messages before.
        guard m.context.contains(where: { $0.from.lowercased() != me && !chosen.isDisjoint(with: Words.content($0.text)) }) else { return nil }
        // As written, without the fillers and the "then": "17:00 CET".
        let raw = s.trimmingSpaces().split(separator: " ")
        guard raw.count >= option.count + 1 else { return nil }
        let text = raw[lead..<(lead + option.count)].joined(separator: " ").trimming(",")
        // The question the choice answers: the nearest asking sentence that does not already name the
        // option taken and says something besides it ("when do we need it live", "postmortem tomorrow 10:00 CET?").
        for line in m.context.reversed() {
            // (An ask of someone's work, "can you write the timeline?", is no choice being made.)
            for q in Sentences.split(line.text).reversed() where asks(q) && !q.lowercased().hasBytes("you") {
                let words = Set(Words.content(q))
                guard !chosen.isSubset(of: words), words.subtracting(chosen).count >= 2 else { continue }
                return text + " (" + DecisionRules.option(q, choice: chosen) + ")"
            }
        }
        // Else the sentence that put the options up ("line art or the 3D renders?"): a later reversal
        // of either option then replaces this choice.
        for line in m.context.reversed() {
            for q in Sentences.split(line.text).reversed() where Agreement.namesAlternatives(q) && !chosen.isDisjoint(with: Words.content(q)) {
                return text + " (" + DecisionRules.option(q, choice: chosen) + ")"
            }
        }
        // With no question it answers, "monday then" tells a reader nothing of what was settled.
        return nil
    }

    /// "i'd say private now, rewrite later" — "ok, private now, rewrite later": a yes that says the other
    /// member's proposal again is its acceptance; the words are the proposal's (two thirds of them in the
    /// message just before, by someone else). "$72k / 3 years / 30-day retention works for us": terms
    /// accepted in the accepter's words. Not "ok, I'll look", not "works for me" alone.
    static func echoed(_ s: String, _ m: MessageToJudge) -> String? {
        // (Bytes first: most sentences neither open with "ok" nor end in "works for ...".)
        guard opensWithOK(s) || s.hasBytes("works for"),
              let last = m.context.last, last.from.lowercased() != m.from.lowercased(), !s.hasBytes("?") else { return nil }
        let t = s.trimmingSpaces().trimming(" .!")
        let lower = t.lowercased().replacingPresent("’", with: "'")
        var body: String? = nil
        // (Told by the markers' own rules when it holds one: "ok, reverse CDC it is".)
        if lower.hasBytes(" it is") || markers.contains(where: { lower.hasBytes($0) }) { return nil }
        // ("yes, thursday noon" to "can you draft it by thursday noon?" confirms an ask: the proposal is a statement.)
        if let opener = ["ok, ", "okay, "].first(where: { lower.hasPrefix($0) }), !last.text.contains("?") {
            let rest = String(t.dropFirst(opener.count)).trimmingSpaces()
            let said = Set(Words.content(rest)), before = Set(Words.content(last.text))
            if said.count >= 3, 3 * said.intersection(before).count >= 2 * said.count { body = rest }
        } else if let tail = [" works for us", " works for me", " works for both of us"].first(where: { lower.hasSuffix($0) }) {
            let rest = String(t.dropLast(tail.count)).trimmingSpaces()
            // (Terms of three things at least, and not one's own "thursday works for me" of a date put up.)
            if Words.content(rest).count >= 4 { body = rest }
        }
        guard let b = body, let first = b.lowercased().split(separator: " ").first, !restateSubjects.contains(String(first).trimming(",")),
              !negations.contains(where: { lower.hasBytes($0) }), !pastTimes.contains(where: { lower.hasBytes($0) }) else { return nil }
        return strip(b)
    }

    /// A sentence that asks: a question mark, or a question's first word without one ("when do we need it live").
    static func asks(_ s: String) -> Bool {
        if s.hasBytes("?") { return true }
        guard let w = Words.all(s).first else { return false }
        return ["when", "which", "what", "who", "where", "how", "should", "shall"].contains(w)
    }

    /// "ok, max limit 200, default 50" right after another member's "200 is fine": the speaker's terms,
    /// approved just before in words they share, are settled. (Not the speaker's own work, "ok, I'll
    /// look", nor a report that shares no word with the approval.)
    /// Whether a sentence opens with "ok" or "okay" (any case), read off its first bytes.
    static func opensWithOK(_ s: String) -> Bool {
        let head = s.utf8.drop { $0 == 32 }.prefix(2)
        return head.count == 2 && (head.first! | 32) == 111 && (head.dropFirst().first! | 32) == 107
    }

    static func approvedTerms(_ s: String, _ m: MessageToJudge) -> String? {
        // (Its openers are "ok", "okay", "alright" and "fine": one or two bytes tell most sentences apart.)
        guard opensWithOK(s) || s.utf8.first.map({ ($0 | 32) == 97 || ($0 | 32) == 102 }) == true && (s.hasBytes("lright, ") || s.hasBytes("ine, ")),
              !s.hasBytes("?"),
              let last = m.context.last, last.from.lowercased() != m.from.lowercased() else { return nil }
        let t = s.trimmingSpaces()
        let lower = t.lowercased().replacingPresent("’", with: "'")
        guard let opener = ["ok, ", "okay, ", "alright, ", "ok so ", "ok, so ", "fine, "].first(where: { lower.hasPrefix($0) }) else { return nil }
        let rest = String(t.dropFirst(opener.count)).trimmingSpaces()
        let restLower = String(lower.dropFirst(opener.count))
        guard let firstWord = restLower.split(separator: " ").first, !restateSubjects.contains(String(firstWord).trimming(",")),
              !conclusionFillers.contains(String(firstWord).trimming(",")), !firstWord.hasSuffix("ing"),
              !negations.contains(where: { restLower.hasBytes($0) }), !pastTimes.contains(where: { restLower.hasBytes($0) }) else { return nil }
        let terms = Set(Words.content(rest))
        guard terms.count >= 3 else { return nil }
        // The approval: the message just before, by someone else, holds an approving word and a word of the terms.
        let approval = last.text.lowercased()
        let approving = ["fine", "works", "good", "agreed", "ok", "okay", "+1", "👍"].contains { w in Words.all(approval).contains(w) || w.count <= 2 && approval.hasBytes(w) }
        guard approving, !approval.contains("?"), !Set(Words.content(last.text)).isDisjoint(with: terms),
              case let padded = " " + approval + " ", ![" but ", " not ", "n't", " unless "].contains(where: { padded.hasBytes($0) }) else { return nil }
        // The terms were the speaker's to begin with ("200?"): not a plan of their own that happens to share a word.
        let me = m.from.lowercased()
        guard m.context.dropLast().contains(where: { $0.from.lowercased() == me && !Set(Words.content($0.text)).isDisjoint(with: terms) }) else { return nil }
        return strip(rest)
    }
}
