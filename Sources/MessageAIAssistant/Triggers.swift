import Foundation

/// Request and commitment patterns: where the action's verb is and whose work it is.
struct Trigger: Equatable {
    enum Owner: Equatable { case sender, addressee, group, member(String) }
    var verb: Int
    var owner: Owner
    /// A passive request ("the doc needs to be reviewed"): the object stands before the verb.
    var passiveObject: Range<Int>? = nil
}

enum Triggers {
    static let fillers: Set<String> = ["please", "pls", "plz", "also", "just", "quickly", "maybe", "then", "still", "both", "all", "guys",
                                       "definitely", "first", "now", "kindly", "actually", "go", "ahead", "and", "try", "to", "really"]
    /// Verbs after "can you" that ask for information, not work ("Can you see the dashboard?").
    static let infoVerbs: Set<String> = ["see", "hear", "know", "think", "believe", "remember", "imagine", "tell", "explain", "access", "reach", "read", "make"]
    static let hypothetical = ["if we ever", "someday", "some day", "would be nice", "would be great", "i wish", "i'd like to", "i would like to",
                               "i'd love to", "ideally we", "in an ideal world", "one day we", "it'd be nice", "happy to", "glad to",
                               "feel free", "let me know if", "if you need", "if you want", "if needed", "if that helps", "if it helps",
                               "if you'd like", "could always", "might want to", "we could", "how about", "what about",
                               "why don't we", "maybe we", "we should probably", "should we", "should i", "do we", "did you", "have you",
                               "for anything", "if anything", "in case", "i was thinking", "i'd suggest", "i suggest", "suggestion:", "what if", "no need to", "don't need to", "no rush to"]
    /// `hypothetical` as searched for in " a sentence ": the word on its own, or a label ("ideally:") starting one.
    static let hypotheticalNeedles = hypothetical.map { (word: " " + $0 + " ", start: " " + $0, label: $0.hasSuffix(":")) }

    /// "Li says the build is fine": verbs that report, not work given.
    static let reporting: Set<String> = ["says", "thinks", "knows", "feels", "believes", "wants", "needs", "likes", "seems", "looks", "sounds",
                                         "hopes", "agrees", "mentions", "notes", "reports", "means", "loves", "hates", "prefers", "gets", "has", "is", "was", "does"]
    static let imperativeExcluded: Set<String> = ["let", "look", "try", "go", "come", "get", "do", "help", "note", "report", "plan", "list", "file", "demo", "sync", "call"]
    static let notAfterImperative: Set<String> = ["you", "we", "i", "they", "is", "was", "are", "were", "looks", "went", "has", "had", "will", "should", "seems", "'s"]

    static func find(_ t: [Token], from start: Int, members: Set<String>, sentence: String) -> Trigger? {
        let lowerSentence = " " + t.map(\.lower).joined(separator: " ") + " "
        if hypotheticalNeedles.contains(where: { lowerSentence.hasBytes($0.word) || $0.label && lowerSentence.hasBytes($0.start) }) { return nil }
        let w = t.map { $0.lower }
        let n = w.count
        func verb(after i: Int) -> Int? {
            var j = i
            while j < n, fillers.contains(w[j]) { j += 1 }
            guard j < n else { return nil }
            // "I'll have the fix up" is work; "I'll have to", "I'll be", "I'll get back to you" are not.
            let haveWork = w[j] == "have" && j + 1 < n && !["to", "a", "been"].contains(w[j + 1])
            guard haveWork || !["not", "never", "be", "been", "have", "need", "pass", "think", "see", "wait", "probably", "bet", "guess",
                                "the", "a", "an", "to", "my", "our", "your", "his", "her", "their", "some", "home", "bed", "sleep"].contains(w[j]),
                  !(w[j] == "get" && j + 1 < n && ["back", "to", "it", "a", "some", "there"].contains(w[j + 1])) else { return nil }
            return j
        }
        // "My to-do for tomorrow: update the SDK, fix the flaky test, ..." — the sender's own list.
        if let colon = t.firstIndex(where: { $0.after.hasPrefix(":") }), colon + 1 < n, isOwnListLabel(Array(w[...colon])), Verbs.work.contains(w[colon + 1]) {
            return Trigger(verb: colon + 1, owner: .sender)
        }
        // "- Ana: update the budget sheet": an assignment in a list of action items.
        if start < n - 1, t[start].after.hasPrefix(":"), members.contains(w[start].hasPrefix("@") ? String(w[start].dropFirst()) : w[start]),
           let v = verb(after: start + 1), Verbs.work.contains(w[v]) || Verbs.base(w[v]) != nil {
            return Trigger(verb: v, owner: .member(w[start].hasPrefix("@") ? String(w[start].dropFirst()) : w[start]))
        }
        if let c = commitment(w, from: start, sentence: lowerSentence, verb: verb) { return c }
        for i in start..<n {
            let a = w[i], b = i + 1 < n ? w[i + 1] : "", c = i + 2 < n ? w[i + 2] : ""
            // Commitments: "I'll ...", "I will ...", "I'm going to ...", "Let me ...", "I can ...".
            if a == "i'll" || a == "ill" && i == start || (a == "i" && (b == "will" || b == "shall")) {
                if lowerSentence.hasBytes(" if ") { return nil }
                if let v = verb(after: a == "i" ? i + 2 : i + 1) { return Trigger(verb: v, owner: .sender) }
                if i + 1 < n, w[i + 1] == "be", i + 2 < n, Verbs.fromGerund(w[i + 2]) != nil { return Trigger(verb: i + 2, owner: .sender) }
                return nil
            }
            if (a == "i'm" && b == "going" && c == "to") || (a == "i'm" && b == "gonna") || (a == "i" && b == "am" && c == "going") {
                if lowerSentence.hasBytes(" if ") { return nil }
                let after = a == "i" ? i + 4 : (b == "gonna" ? i + 2 : i + 3)
                if let v = verb(after: after) { return Trigger(verb: v, owner: .sender) }
                return nil
            }
            if a == "let" && b == "me" && i == start, c != "know" {
                if let v = verb(after: i + 2) { return Trigger(verb: v, owner: .sender) }
            }
            if a == "i" && b == "can" && !lowerSentence.hasBytes(" if ") && !lowerSentence.hasBytes("?") && i + 2 < n,
               Verbs.work.contains(w[i + 2]), w[i + 2] != "help" {
                return Trigger(verb: i + 2, owner: .sender)
            }
            // Requests: "can you ...", "could you please ...", "would you mind reviewing ...".
            if ["can", "could", "would", "will", "can't"].contains(a) && (b == "you" || b == "u") {
                if c == "mind", i + 3 < n, Verbs.guessBase(gerund: w[i + 3]) != nil { return Trigger(verb: i + 3, owner: .addressee) }
                if c == "be" && i + 3 < n && w[i + 3] == "able", let to = w[i...].firstIndex(of: "to"), let v = verb(after: to + 1) {
                    return Trigger(verb: v, owner: .addressee)
                }
                guard let v = verb(after: i + 2) else { continue }
                guard !infoVerbs.contains(w[v]) || (w[v] == "tell" && lowerSentence.hasBytes(" tell ") && !lowerSentence.hasBytes(" me ")) else { return nil }
                return Trigger(verb: v, owner: .addressee)
            }
            // "would you be able to ...", "are you able to ...", "any chance you could ...", "do you mind reviewing ...".
            if (a == "you" && b == "be" && c == "able") || (a == "you" && (b == "able" || b == "free") && c == "to"), i > start,
               let to = w[i...].firstIndex(of: "to"), let v = verb(after: to + 1) {
                return Trigger(verb: v, owner: .addressee)
            }
            if a == "chance" && b == "you" && ["could", "can", "would"].contains(c), let v = verb(after: i + 3) { return Trigger(verb: v, owner: .addressee) }
            if (a == "mind" && i == start) || (a == "you" && b == "mind" && i > start), let g = (a == "mind" ? i + 1 : i + 2) as Int?, g < n, Verbs.guessBase(gerund: w[g]) != nil {
                return Trigger(verb: g, owner: .addressee)
            }
            // "Going to refactor the auth middleware this afternoon." — the same without "I'm" ("gonna" too).
            if (a == "going" && b == "to" || a == "gonna") && i == start, let v = verb(after: a == "gonna" ? i + 1 : i + 2), Verbs.work.contains(w[v]) || Verbs.looksLikeVerb(t, at: v) {
                return Trigger(verb: v, owner: .sender)
            }
            // "Tomorrow I'm writing the migration script": work in the present tense with a time still
            // to come is a plan of the sender's ("I'm writing it now" is a status report).
            if a == "i'm", i + 1 < n, let base = Verbs.fromGerund(b), Verbs.work.contains(base), !lowerSentence.contains("?"), !lowerSentence.hasBytes(" if "),
               [" tomorrow", " tonight", " later", " this afternoon", " this evening", " next ", " monday", " tuesday", " wednesday", " thursday", " friday",
                " after ", " by eod", " before "].contains(where: { lowerSentence.hasBytes($0) }) {
                return Trigger(verb: i + 1, owner: .sender)
            }
            // "We'll update the runbook tomorrow" in a group: the group's own commitment. ASSISTANT.md
            // gives work "for everyone" to `recipient`; a decision ("we'll go with", "we'll use") is not work.
            if (a == "we'll" || (a == "we" && b == "will")) && members.count > 2, !lowerSentence.hasBytes(" if "),
               !DecisionRules.states(sentence),
               let v = verb(after: a == "we" ? i + 2 : i + 1), Verbs.work.contains(w[v]) || Verbs.looksLikeVerb(t, at: v),
               !["go", "see", "decide", "know", "talk", "discuss", "revisit", "figure"].contains(w[v]) {
                return Trigger(verb: v, owner: .group)
            }
            // "Will send it tonight." — the sender's commitment without the "I".
            if a == "will" && i == start && b != "do" && b != "you" && b != "we" && b != "it", let v = verb(after: i + 1), Verbs.work.contains(w[v]) {
                return Trigger(verb: v, owner: .sender)
            }
            // "I'd appreciate it if you could proofread ..."
            if a == "if" && b == "you" && (c == "could" || c == "can"), ["appreciate", "grateful", "great", "helpful", "amazing"].contains(where: { lowerSentence.hasBytes($0) }),
               let v = verb(after: i + 3) {
                return Trigger(verb: v, owner: .addressee)
            }
            if (a == "need" || a == "want" || a == "like" || a == "asking") && b == "you" && c == "to", let v = verb(after: i + 3) {
                return Trigger(verb: v, owner: .addressee)
            }
            if a == "you" && (b == "need" || b == "must") , let v = verb(after: b == "need" ? i + 3 : i + 2), b == "must" || c == "to" {
                return Trigger(verb: v, owner: .addressee)
            }
            if ["please", "pls", "plz", "kindly"].contains(a), i + 2 < n, (b == "remember" && c == "to") || (b == "make" && c == "sure" && i + 3 < n && w[i + 3] == "to"),
               let v = verb(after: b == "remember" ? i + 3 : i + 4) {
                return Trigger(verb: v, owner: .addressee)
            }
            // ("Yes please, finance asks for it": after an answering "yes please," only a verb of work orders something.)
            if ["please", "pls", "plz", "kindly"].contains(a), let v = verb(after: i + 1), !["let", "don't", "do", "note", "see", "ignore"].contains(w[v]),
               !(i > 0 && ["yes", "ok", "okay", "sure", "no", "thanks"].contains(w[i - 1]) && t[i].endsClause && !Verbs.work.contains(w[v])) {
                return Trigger(verb: v, owner: .addressee)
            }
            if ["don't", "dont", "remember"].contains(a) && (b == "forget" || a == "remember") {
                let to = a == "remember" ? i + 1 : i + 2
                if to < n, w[to] == "to", let v = verb(after: to + 1) { return Trigger(verb: v, owner: .addressee) }
            }
            if a == "make" && b == "sure" && i == start, c == "to", let v = verb(after: i + 3) { return Trigger(verb: v, owner: .addressee) }
            // Nobody in particular: "can someone ...", "someone needs to ...", "who can ...?".
            if ["someone", "somebody", "anyone", "anybody"].contains(a) {
                var j = i + 1
                if j < n, ["needs", "has", "should", "must", "please", "can", "could", "to", "will", "pls"].contains(w[j]) { j += 1 }
                if j < n, w[j] == "to" { j += 1 }
                if let v = verb(after: j), Verbs.base(w[v]) != nil || j > i + 1 { return Trigger(verb: v, owner: .group) }
                return nil
            }
            if ["anyone", "anybody", "someone", "who's", "whos"].contains(a) && ["able", "free", "available", "around"].contains(b) && c == "to", let v = verb(after: i + 3) {
                return Trigger(verb: v, owner: .group)
            }
            if a == "volunteers" || (a == "volunteer" && b == "to"), let v = verb(after: i + (b == "to" ? 2 : 1) + (b == "to" || c != "to" ? 0 : 1)), Verbs.work.contains(w[v]) {
                return Trigger(verb: v, owner: .group)
            }
            if (a == "who" && (b == "can" || b == "could" || b == "wants" || b == "will")), let v = verb(after: i + 2 + (c == "to" ? 1 : 0)), Verbs.base(w[v]) != nil {
                return Trigger(verb: v, owner: .group)
            }
            if ["everyone", "everybody", "all"].contains(a) && i == start,
               ((b == "need" || b == "needs") && c == "to") || (b == "must") || (b == "have" && c == "to") || (b == "should" && a != "we") {
                if let v = verb(after: b == "must" || b == "should" ? i + 2 : i + 3) { return Trigger(verb: v, owner: .group) }
            }
            // Assignments: "Li will update ...", "Omar to book ...", "1) Li updates the dashboard by Monday".
            if i == start || (i > 0 && t[i - 1].after.hasPrefix(":")), members.contains(a.hasPrefix("@") ? String(a.dropFirst()) : a) || a.hasPrefix("@")
                || (t[i].isCapitalized && !t[i].isAllCaps && !Addressee.notNames.contains(a) && !Verbs.work.contains(a) && !NounPhrases.determiners.contains(a)
                    && ["will", "to", "'ll"].contains(b) && !["i", "we", "it", "this", "that", "they", "you", "he", "she", "there"].contains(a) && !a.hasSuffix("ing")) {
                let name = a.hasPrefix("@") ? String(a.dropFirst()) : a
                if ["will", "to", "should", "can", "must", "please", "pls"].contains(b), let v = verb(after: i + 2) { return Trigger(verb: v, owner: .member(name)) }
                if (b == "needs" || b == "has") && c == "to", let v = verb(after: i + 3) { return Trigger(verb: v, owner: .member(name)) }
                if b == "is" && c == "going", i + 3 < n, w[i + 3] == "to", let v = verb(after: i + 4) { return Trigger(verb: v, owner: .member(name)) }
                if b.hasSuffix("s"), Verbs.base(b) != nil, b != Verbs.base(b) { return Trigger(verb: i + 1, owner: .member(name)) }
                if b == "takes" || b == "owns" { return Trigger(verb: i + 1, owner: .member(name)) }
                // "Li reconciles the invoices by Friday": a verb not on the list, in an assignment with a date.
                if b.hasSuffix("s"), !b.hasSuffix("ss"), i + 2 < n, Verbs.objectStarters.contains(c), members.contains(name),
                   !Verbs.notVerbs.contains(b), !Words.function.contains(b), !reporting.contains(b), DueDates.find(t) != nil {
                    return Trigger(verb: i + 1, owner: .member(name))
                }
            }
            if a.hasSuffix("'ll"), members.contains(String(a.dropLast(3))), let v = verb(after: i + 1) { return Trigger(verb: v, owner: .member(String(a.dropLast(3)))) }
            // Passive: "The deck needs to be reviewed by Friday", "the notes should be posted".
            if i > start, ["needs", "need", "has", "have", "should", "must"].contains(a) {
                var j = i + 1
                if j < n, w[j] == "to" { j += 1 }
                if j + 1 < n, w[j] == "be", Passive.base(w[j + 1]) != nil, i - start >= 1 {
                    return Trigger(verb: j + 1, owner: .group, passiveObject: start..<i)
                }
            }
        }
        // Imperative: the sentence starts with a work verb ("Tag it and post the notes.").
        if start < n, Verbs.work.contains(w[start]) || Verbs.looksLikeVerb(t, at: start, opensSentence: true) && !members.contains(w[start]),
           // "Figure it out yourself.": the work tossed back, not given.
           w.last != "yourself",
           !imperativeExcluded.contains(w[start]), !t[start].after.hasPrefix(","),
           !(start + 1 < n && notAfterImperative.contains(w[start + 1])),
           // "Read it, looks good": a report in the past, not an order.
           !(w[start] == "read" && start + 1 < n && w[start + 1] == "it"),
           // "Release day options are ..." is a subject, not an order.
           !w[(start + 1)..<min(n, start + 4)].contains(where: { ["is", "are", "was", "were"].contains($0) }) {
            return Trigger(verb: start, owner: .addressee)
        }
        return nil
    }
}

extension Triggers {
    static let listWords: Set<String> = ["to-do", "todo", "to-dos", "todos", "tasks", "plan", "list", "agenda"]
    static let ownMarkers: Set<String> = ["my", "me", "i'm", "i", "i'll"]
    static let timeLabels: Set<String> = ["today", "tonight", "tomorrow", "this", "next", "week", "morning", "afternoon", "evening", "monday",
                                          "tuesday", "wednesday", "thursday", "friday", "weekend", "eod"]

    /// "My to-do for tomorrow:", "Todo for me today:", "Plan for tomorrow:" — the sender's own list
    /// (a list naming people, "Next steps: Ana ...", is a list of assignments instead).
    static func isOwnListLabel(_ w: [String]) -> Bool {
        // "Today:", "Tonight:", "This afternoon:": a label that only says when is the sender's own plan.
        if (1...3).contains(w.count), w.allSatisfy({ timeLabels.contains($0.trimmingCharacters(in: .punctuationCharacters)) }), w.contains(where: { $0 != "this" && $0 != "next" }) { return true }
        // "To do before I log off:" is "to-do" in two words.
        let twoWordTodo = w.count >= 2 && w[0] == "to" && w[1].trimmingCharacters(in: .punctuationCharacters) == "do"
        guard twoWordTodo || w.contains(where: { listWords.contains($0.trimmingCharacters(in: .punctuationCharacters)) }) else { return false }
        if twoWordTodo { return w.contains(where: { ownMarkers.contains($0) }) || w.count <= 4 }
        return w.contains(where: { ownMarkers.contains($0) }) || (w.count <= 4 && listWords.contains(w[0].trimmingCharacters(in: .punctuationCharacters)))
    }

    static let intentions = [["i", "plan", "to"], ["i'm", "planning", "to"], ["i", "intend", "to"], ["i", "aim", "to"],
                             ["i", "should", "be", "able", "to"], ["i'll", "be", "able", "to"], ["i", "expect", "to"],
                             ["i'm", "aiming", "to"], ["i", "promise", "to"], ["i'll", "try", "to"]]

    /// The sender's commitments beyond "I'll": stated intentions ("I plan to migrate the wiki"), and a
    /// plan in the present ("I'm deploying the hotfix tonight", "Will do, sending it after lunch")
    /// when it names a time ahead; "I'm working on it right now" is a status, not a commitment.
    static func commitment(_ w: [String], from start: Int, sentence: String, verb: (Int) -> Int?) -> Trigger? {
        let n = w.count
        if sentence.hasBytes(" if ") || sentence.hasBytes("?") { return nil }
        for i in start..<n {
            for p in intentions where i + p.count < n && w[i..<(i + p.count)].elementsEqual(p) {
                if let v = verb(i + p.count), Verbs.work.contains(w[v]) || Verbs.base(w[v]) != nil { return Trigger(verb: v, owner: .sender) }
            }
        }
        let ahead = ["tonight", "tomorrow", "today", "later", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                     "next", "after", "before", "this", "by", "eod", "noon", "first"]
        guard w.contains(where: { ahead.contains($0) }), !w.contains("was"), !w.contains("were") else { return nil }
        var g = start
        // "Will do, sending the contract over after lunch": a gerund after an acknowledgement.
        while g < n, ["will", "do", "on", "it", "sure", "ok", "okay", "yes", "yep", "and"].contains(w[g]) { g += 1 }
        if g < n, w[g] == "i'm" || w[g] == "im" { g += 1 } else if g + 1 < n, w[g] == "i", w[g + 1] == "am" { g += 2 } else if !(g > start && w[start..<g].contains("do")) { return nil }
        guard g < n, Verbs.fromGerund(w[g]) != nil, !["working", "looking", "waiting", "thinking", "going"].contains(w[g]) else { return nil }
        return Trigger(verb: g, owner: .sender)
    }
}

/// Past participles of passive requests back to the base verb ("reviewed" → "review").
enum Passive {
    static func base(_ w: String) -> String? {
        // One set lookup first: most words are no irregular form, and need not meet every verb's.
        if Verbs.allIrregularPast.contains(w) { for (verb, forms) in Verbs.irregularPast where forms.contains(w) { return verb } }
        guard w.hasSuffix("ed") else { return nil }
        let s = String(w.dropLast(2))
        if Verbs.work.contains(s) { return s }
        if Verbs.work.contains(s + "e") { return s + "e" }
        if s.hasSuffix("i"), Verbs.work.contains(String(s.dropLast()) + "y") { return String(s.dropLast()) + "y" }
        if s.count > 2, s.last == s.dropLast().last, Verbs.work.contains(String(s.dropLast())) { return String(s.dropLast()) }
        return nil
    }
}
