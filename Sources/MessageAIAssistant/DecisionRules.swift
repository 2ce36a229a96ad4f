import Foundation

/// Decisions: a message that records a choice made ("we'll go with", "Decision:", "X it is").
/// Questions, leanings, pending choices, proposals and requests for a decision are not.
enum DecisionRules {
    static let markers = ["we'll go with", "we will go with", "we're going with", "we are going with", "going with", "let's go with",
                          "decision:", "decided", "agreed:", "we agreed", "agreed on", "agreed to", "final call", "final decision",
                          "settled on", "we'll use", "we will use", "we're using", "we're switching to",
                          "we'll switch to", "it is.", "it is!", "it is,", "it is;", "we've decided", "we have decided", "the plan is", "sticking with",
                          "we'll stick with", "we're sticking with", "we'll keep", "we're keeping", "locking in", "locked in",
                          "confirmed:", "we're moving to", "we'll move to", "we chose", "we picked", "chosen", "we're dropping",
                          "we'll drop", "it is:", "go/no-go: go", "going ahead with", "we'll go ahead with", "green light", "greenlit", "is approved",
                          "approved:", "decided to", "the decision is", "resolved:", "conclusion:", "outcome:", "landed on", "we settled",
                          "done deal", "that's settled", "it's decided", "we're going to go with", "we are going to go with",
                          "we'll be using", "we will be using", "final answer", "we've agreed", "we have agreed", "we've chosen", "we have chosen",
                          "we've picked", "we're moving forward with", "moving forward with", "consensus", "verdict"]
    /// Markers of a thing kept as it was, read only where "stay" or "remain" is (most sentences hold neither).
    static let keptMarkers = ["stays at ", " stays as ", "stays the same", "remains at "]
    static let negations = ["lean toward", "leaning toward", "lean towards", "leaning towards", "i'd go with", "i would go with",
                            "decide by", "will decide", "need to decide", "needs to decide", "let's decide", "to decide",
                            "haven't decided", "not decided", "undecided", "still deciding", "not yet decided", "not agreed",
                            "if we", "maybe", "might", "probably", "propose", "proposal", "suggest", "what if", "should we",
                            "could we", "can we", "thinking about", "considering", "any objections", "unless", "pending",
                            "not final", "tbd", "once we", "would be", "i'd prefer", "i prefer", "before we decide", "need to", "needs to",
                            "who decided", "who approved", "answer by", "call by", "decision by", "not approved", "wasn't approved", "isn't approved", "prefer"]

    static func decision(_ m: MessageToJudge) -> String? {
        // "That works." after someone's "How about we ...?": the proposal is what was decided.
        marked(m) ?? Agreement.accepted(m)
    }

    /// A decision the message's own words mark ("Decision: ...", "we'll go with", "... Final.").
    static func marked(_ m: MessageToJudge) -> String? { allMarked(m, first: true).first }

    /// Every decision the message's sentences mark, in order ("Decision: X. And we'll drop Y."):
    /// a thread lists each; a message's one `decision` is the first.
    static func allMarked(_ m: MessageToJudge, first: Bool = false) -> [String] {
        let sentences = Sentences.split(m.text)
        var out: [String] = []
        var told = -1
        for (k, s) in sentences.enumerated() where k > told {
            if first && !out.isEmpty { break }
            // A label's decision goes on in the statements after it ("calling it: no-go for 7.0 today. kenji ships the fix tonight").
            if let d = explicit(s, before: k > 0 ? sentences[k - 1] : nil).map({ withFollowing($0, sentences, after: k, told: &told) }) ?? sealedYes(s, before: k > 0 ? sentences[k - 1] : nil, m) ?? restated(s, m)
                ?? concluded(s, m) ?? approvedTerms(s, m) ?? echoed(s, m) {
                // "X. Final.": the seal repeats the sentence before, already told.
                if !out.contains(d) { out.append(d) }
                continue
            }
            let lower = " " + s.lowercased().replacingPresent("’", with: "'") + " "
            if let d = settled(s, lower: lower, next: k + 1 < sentences.count ? sentences[k + 1] : nil).map({ withFollowing($0, sentences, after: k, told: &told) }) {
                if !out.contains(d) { out.append(d) }
                continue
            }
            // "Decision for the record: we keep ...": a label naming a decision, then a colon.
            // (The byte search first: Foundation's range(of:) is the costly part of a summary's every sentence.)
            let labelled = lower.hasBytes("decision") && (lower.range(of: "decision").map { lower[$0.upperBound...].prefix(24).contains(":") } ?? false)
            // "Thursday it is", "Ramen it is then": a choice made, social ones too (README).
            // (An emoji after it says nothing: "next_page_token it is 😅".)
            // (Built only where "it is" or "stays" may end the sentence: most sentences hold neither.)
            let core = lower.hasBytes(" it is") || lower.hasBytes("stays") ? " " + String(withoutTrailingSymbols(lower)).trimming(" .!") + " " : ""
            // ("there it is", "here it is": something found, not chosen.)
            let itIs = (core.hasSuffix(" it is ") || core.hasSuffix(" it is then ")) && !core.hasSuffix(" there it is ") && !core.hasSuffix(" here it is ")
            // ("thursday 06:00 UTC stays": what was put in question is kept.)
            let kept = (lower.hasBytes("stay") || lower.hasBytes("remain")) && (keptMarkers.contains(where: { lower.hasBytes($0) }) || stays(core))
            guard markers.contains(where: { lower.hasBytes($0) }) || itIs || labelled || goCall(lower) || kept else { continue }
            if s.contains("?") || negations.contains(where: { lower.hasBytes($0) }) || pastTimes.contains(where: { lower.hasBytes($0) }) { continue }
            // "sigh, fine, next_page_token it is": the words before the choice's own clause say nothing of it.
            var said = String(withoutTrailingSymbols(s.trimmingSpaces()))
            if itIs, let comma = said.lastIndex(of: ","), case let after = String(said[said.index(after: comma)...]).trimmingSpaces(),
               Words.all(after).count >= 3, said[..<comma].split(separator: " ").allSatisfy({ choiceLeadIns.contains(String($0).lowercased().trimming(",")) }) {
                said = after
            }
            let d = withFollowing(withChoice(strip(said), m.context), sentences, after: k, told: &told)
            if !out.contains(d) { out.append(d) }
        }
        return out
    }

    /// "thursday 06:00 UTC stays": a thing of a few words kept as it was (not "v1 stays", not "only in v2, v1 stays").
    static func stays(_ core: String) -> Bool {
        guard core.hasSuffix(" stays "), !core.contains(",") else { return false }
        return Words.all(core).count >= 4
    }

    /// A go/no-go call ("Go for 4.12 with #2290 included", "no-go for 7.0 today", "we're a go"), not "go for it".
    static func goCall(_ lower: String) -> Bool {
        guard lower.hasBytes("go for") || lower.hasBytes("a go") || lower.hasBytes("no-go") || lower.hasBytes("no go") else { return false }
        // "the go/no-go for 4.12 is at 16:00 CET", "is in your morning": the meeting and its time, not its outcome.
        if lower.hasBytes("go/no-go") || lower.hasBytes("go/no go"), [" is at ", " is in ", " starts at ", " at 1", " at 0", " at 2", " meeting"].contains(where: { lower.hasBytes($0) }) {
            return false
        }
        let t = lower.trimmingSpaces()
        return t.hasPrefix("go for ") && !t.hasPrefix("go for it") || ["no-go for ", "no go for ", "it's a go", "we're a go", "it's a no-go", "it's a no go"].contains { lower.hasBytes($0) }
    }

    /// The decision with the statements that follow it in the same message and say how it is carried
    /// out ("reverse CDC it is. ingrid owns it, done friday"): no question, no one's own "I'll", no thanks,
    /// no sentence that is a decision of its own; at most two. `told` is the last sentence used.
    static func withFollowing(_ d: String, _ sentences: [String], after k: Int, told: inout Int) -> String {
        var text = d
        for j in (k + 1)..<min(sentences.count, k + 3) {
            let s = sentences[j]
            let lower = s.lowercased().replacingPresent("’", with: "'").trimmingSpaces()
            // (Not an ask of someone, "Omar, please write the notes", nor another choice put up.)
            guard !s.hasBytes("?"), Words.content(s).count >= 2, !lower.hasBytes("please"), !lower.hasBytes(" or "), !lower.hasBytes("options"),
                  !(lower.split(separator: " ").first?.hasSuffix(",") ?? false),
                  !["i'll", "i will", "i can", "i'm", "let me", "thanks", "thank", "if ", "but ", "because", "since"].contains(where: { lower.hasPrefix($0) }),
                  !markers.contains(where: { lower.hasBytes($0) }) else { break }
            text += "; " + s.trimmingSpaces().trimming(" .!")
            told = j
        }
        return text
    }

    /// Labels that put the decision after a colon ("Let's decide: we use the existing flag").
    static let explicitLabels = ["let's decide:", "lets decide:", "decided:", "decision made:", "we decide:", "final:", "settled:", "agreed then:",
                                 "final decision:", "final call:", "calling it:", "my call:", "plan changed:", "new plan:", "updated plan:", "revised plan:"]
    /// Labels read after a filler ("ok final: ...", "so let's decide: ...", "ok, agreed then: ..."): none of them is a marker's words.
    static let fillerLabels = ["agreed then:", "calling it:", "my call:", "plan changed:", "new plan:", "updated plan:", "revised plan:"]
    /// Words a speaker may open with before a label or say before the decision they seal ("ok final: ...", "ok, X. agreed").
    static let labelFillers: Set<String> = ["ok", "okay", "so", "great", "fine", "alright", "yes", "then", "right", "cool", "good"]
    /// A sentence that only seals the one before it ("Analytics export moves to next sprint. Final.").
    static let seals: Set<String> = ["final", "that's final", "thats final", "decided", "it's decided", "done deal", "settled", "that's settled",
                                     "final answer", "case closed", "confirmed", "that's confirmed", "agreed", "agreed then",
                                     "locking that in", "locking it in", "locked in", "lock it in", "my call", "that's my call", "that's the call"]

    /// The explicit forms of ASSISTANT.md's markers that need the words around them: a label
    /// then a colon, or a statement sealed by "Final." (in its own sentence or after a comma).
    static func explicit(_ s: String, before: String?) -> String? {
        let lower = s.lowercased().replacingPresent("’", with: "'").trimmingSpaces()
        // "ok final: we extend an offer at senior", "ok, agreed then: ...": the label after a filler.
        // (Only for labels no marker reads: "ok, decided: X" is the markers' already, told in their words.)
        // (Every label ends in a colon: without one no filler is read.)
        let hasColon = lower.hasBytes(":")
        var (opened, text) = hasColon ? withoutFillers(lower, s.trimmingSpaces()) : (lower, "")
        // (After a filler only a label the markers do not read already: "ok, decided: X" is told in the markers' words.)
        if opened != lower && !fillerLabels.contains(where: { opened.hasPrefix($0) }) { (opened, text) = (lower, s.trimmingSpaces()) }
        if hasColon, let label = explicitLabels.first(where: { opened.hasPrefix($0) }) {
            let rest = String(text.dropFirst(label.count)).trimmingSpaces()
            return Words.content(rest).count >= 2 && !rest.contains("?") ? strip(rest) : nil
        }
        let bare = String(withoutTrailingSymbols(lower)).trimming(" .!")
        if seals.contains(bare), !lower.hasBytes("?"), let b = before, !b.contains("?"), Words.content(b).count >= 2 {
            // "Good point. Agreed." seals nothing: a yes is no decision's words.
            let (_, head) = withoutFillers(b.lowercased().replacingPresent("’", with: "'").trimmingSpaces(), b.trimmingSpaces())
            if bare.hasPrefix("agreed") && (Words.content(head).count < 3 || Agreement.isYes(b)) { return nil }
            // ("great — 6 months grandfathering, ... locking that in 🔒": the yes before the terms is no part of them.)
            return strip(bare.hasPrefix("agreed") ? head : Agreement.withoutOpeners(b))
        }
        for seal in [", final", " - final", " — final", "; final"] where bare.hasSuffix(seal) {
            let head = String(s.trimmingSpaces().prefix(bare.count - seal.count))
            if Words.content(head).count >= 2 { return strip(head) }
        }
        return nil
    }

    /// "ok. so: dashboard + CSV export, by dec 8" — "yes, that's the deal. final.": a seal after a yes
    /// seals the terms another member just stated (their last statement), not the yes.
    static func sealedYes(_ s: String, before: String?, _ m: MessageToJudge) -> String? {
        // (A seal is a few words: longer sentences are not lower-cased to be looked up.)
        guard let b = before, s.utf8.count <= 24, ["inal", "ecided", "eal", "ettled", "nswer", "losed", "onfirmed", "greed"].contains(where: { s.hasBytes($0) }),
              seals.contains(s.lowercased().replacingPresent("’", with: "'").trimming(" .!")), !b.contains("?"), Agreement.isYes(b),
              let line = m.context.last(where: { $0.from.lowercased() != m.from.lowercased() }),
              let terms = Sentences.split(line.text).last(where: { !$0.contains("?") && Words.content($0).count >= 3 }) else { return nil }
        let (_, text) = withoutFillers(terms.lowercased().replacingPresent("’", with: "'").trimmingSpaces(), terms.trimmingSpaces())
        return strip(text)
    }

    /// The text (lower-cased, and as written) without the fillers it opens with ("ok, ", "so ").
    static func withoutFillers(_ lower: String, _ text: String) -> (lower: String, text: String) {
        var l = Substring(lower), t = Substring(text)
        while let w = l.split(separator: " ", maxSplits: 1).first, labelFillers.contains(String(w).trimming(",.:")), l.count > w.count {
            let cut = w.count + l.dropFirst(w.count).prefix { $0 == " " }.count
            l = l.dropFirst(cut); t = t.dropFirst(cut)
        }
        return (String(l), String(t))
    }

    /// Whether a sentence by itself states a decision (the thread's own words, not a reply's).
    static func states(_ s: String) -> Bool {
        TextMemo.states(s) { marked(MessageToJudge(from: "", to: [], text: $0)) != nil }
    }

    /// "Thursday it is" says little alone: add the context's question or options that name the
    /// choice ("Release day options are Tuesday or Thursday").
    static func withChoice(_ decision: String, _ context: [ChatLine]) -> String {
        let words = decision.split(separator: " ")
        guard words.count <= 5, decision.lowercased().hasSuffix(" it is") else { return decision }
        let choice = Set(Words.content(String(decision.dropLast(6))))
        // The sentence that put the options up names what was chosen ("Release day options are Tuesday or
        // Thursday"); a supporter's repetition ("Thursday works for QA") only argues for one of them.
        for line in context.reversed() {
            for s in Sentences.split(line.text).reversed() where Agreement.namesAlternatives(s) && !choice.isDisjoint(with: Set(Words.content(s))) {
                return decision + " (" + option(s, choice: choice) + ")"
            }
        }
        for line in context.reversed() {
            for s in Sentences.split(line.text).reversed() where !choice.isDisjoint(with: Set(Words.content(s))) {
                return decision + " (" + option(s, choice: choice) + ")"
            }
        }
        return decision
    }

    /// What the choice's sentence says of the option taken: a question put to the group without its
    /// asking ("Also, do we keep the gate at 15 minutes or raise it to 20?" with "15 it is" → "keep the
    /// gate at 15 minutes"), so the line states the outcome; other sentences as written.
    static func option(_ s: String, choice: Set<String>) -> String {
        let text = s.trimming(" .?!")
        guard s.hasSuffix("?") else { return text }
        let asked = Compress.question(Compress.sentence(text))
        guard asked != Compress.sentence(text) else { return text }
        let options = asked.components(separatedBy: " or ")
        if options.count == 2, let taken = options.first(where: { !choice.isDisjoint(with: Set(Words.content($0))) }),
           options.allSatisfy({ !choice.isDisjoint(with: Set(Words.content($0))) }) == false, Words.all(taken).count >= 3 {
            return taken.prefix(1).lowercased() + taken.dropFirst()
        }
        return asked.prefix(1).lowercased() + asked.dropFirst()
    }

    /// The decision without its label: "Decision: Postgres for events." → "Postgres for events".
    static func strip(_ s: String) -> String {
        var text = s.trimmingSpaces()
        for label in ["Decision:", "Agreed:", "Final call:", "Final decision:", "Confirmed:", "decision:", "agreed:"] where text.hasPrefix(label) {
            text = String(text.dropFirst(label.count)).trimmingSpaces()
        }
        while let l = text.last, ".!".contains(l) { text.removeLast() }
        // "As release owner: freeze on the 4th": the speaker's role says who decides, not what.
        if text.hasPrefix("As "), let colon = text.firstIndex(of: ":"), text[..<colon].split(separator: " ").count <= 5,
           Words.content(String(text[text.index(after: colon)...])).count >= 2 {
            text = String(text[text.index(after: colon)...]).trimmingSpaces()
        }
        // "We'll go with that: search returns to the tab bar" — the choice is after the colon.
        if let colon = text.firstIndex(of: ":"), text[..<colon].split(separator: " ").count <= 7,
           Words.content(String(text[text.index(after: colon)...])).count >= 2 {
            let before = " " + text[..<colon].lowercased() + ":"
            if markers.contains(where: { before.hasBytes($0) }) || before.hasBytes("decision") || before.hasBytes("record") {
                text = String(text[text.index(after: colon)...]).trimmingSpaces()
            }
        }
        return text
    }
}
