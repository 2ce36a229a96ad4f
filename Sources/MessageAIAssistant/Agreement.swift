import Foundation

/// A proposal that another participant then accepts is a decision even without a marker:
/// "How about we keep the old read replicas until the cutover?" — "That works." Its text is the
/// proposal's content, never the acceptance. A reply that takes up someone's question is one too
/// ("Can we move the backup to 04:00?" — "Yes, let's move the backup to 04:00.").
enum Agreement {
    static let proposalMarkers = ["let's", "lets", "we should", "how about", "i propose", "proposal:", "proposed fix:", "proposed plan:", "what if we", "we could", "i suggest",
                                  "suggestion:", "then we", "so we", "we drop", "we move", "we keep", "we ship", "we use", "what about",
                                  "why don't we", "shall we", "i'd go with", "i would go with", "i'd suggest", "i'd propose", "i vote for", "my vote is", "i'd pick",
                                  "my suggestion", "my proposal", "i recommend", "i'd recommend", "recommendation:", "the plan:", "we'll"]
    static let agreements = ["agreed", "sounds good", "+1", "works for me", "makes sense", "let's do it", "fine by me", "lgtm",
                             "deal", "👍", "yes", "yep", "sgtm", "ok with me", "okay with me", "same", "i agree", "agree", "good call", "perfect",
                             "that works", "works", "that's fine", "fine with me", "fine for", "i'm in", "count me in", "ship it", "do it",
                             "let's do that", "let's go", "go for it", "yeah", "yup", "sure, let's", "ok, let's", "okay, let's",
                             "go ahead", "plan approved", "approved", "good idea", "great idea", "fair enough", "happy with that", "love it", "yes please", "fine",
                             "sounds great", "sounds right", "sounds fine", "sounds like a plan", "good with me", "i'm good with", "works for us", "fine with that",
                             "i can live with", "on board", "i'm on board", "let's go with that", "that's the plan", "sure thing", "totally agree", "fully agree", "exactly", "absolutely", "definitely",
                             "i'm fine with", "i'm ok with", "i'm okay with", "ok by me", "okay by me", "fine by us", "all good", "yes from me", "no complaints", "fair,", "👌"]
    /// The markers as searched for, built once (a summary asks every sentence).
    static let paddedProposalMarkers = proposalMarkers.map { " " + $0 + " " }
    static let paddedProposingQuestions = proposingQuestions.map { " " + $0 + " " }
    static let leadingProposalMarkers = proposalMarkers.map { " " + $0 }
    /// Words that may stand before the yes without saying anything ("Ok, that works.", "Alright, agreed").
    static let fillers: Set<String> = ["ok", "okay", "alright", "right", "oh", "ah", "well", "then", "so", "cool", "great", "nice", "sure"]

    /// The reply (lower-cased) with its leading fillers and a vocative dropped, and the agreement it opens with, if any.
    static func opening(_ t: String, names: Set<String> = []) -> (rest: String, agreement: String)? {
        if let a = agreement(opening: t) { return (t, a) }
        // A reply of one such word and nothing else ("Ok.", "Sure!") says yes to what was put to it.
        let bare = t.trimming(" .!")
        if bareYes.contains(bare) { return (bare, bare) }
        // Most replies open with no filler: only then is the reply cut into words.
        guard let lead = t.split(separator: " ", maxSplits: 1).first.map({ String($0).trimming(",.!") }),
              fillers.contains(lead) || names.contains(lead) else { return nil }
        var rest = Substring(t)
        // (The first word as split() would give it, without splitting the whole reply on every round.)
        while case let w = rest.drop(while: { " ,.!".contains($0) }).prefix(while: { !" ,.!".contains($0) }), !w.isEmpty,
              fillers.contains(String(w)) || names.contains(String(w)), rest.count > w.count {
            rest = rest.dropFirst(w.count).drop { " ,.!".contains($0) }
        }
        guard let a = agreement(opening: rest) else { return nil }
        return (String(rest), a)
    }
    /// The agreements by their first byte, in list order: a summary asks every reply whether it opens
    /// with one, and most replies open with a byte no agreement does.
    static let agreementsByFirstByte: [UInt8: [[UInt8]]] = Dictionary(grouping: agreements.map { Array($0.utf8) }, by: { $0[0] })

    /// The first agreement of the list the text opens with (the phrases are lower-case, and ASCII but
    /// for 👍, so a byte prefix is a prefix of the text).
    static func agreement<S: StringProtocol>(opening t: S) -> String? {
        guard let b = t.utf8.first, let bucket = agreementsByFirstByte[b] else { return nil }
        return bucket.first { t.utf8.starts(with: $0) }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Questions that ask for agreement rather than for information.
    static let agreementAsks = ["agreed?", "ok?", "okay?", "sound good?", "sounds good?", "right?", "objections?", "does that work?", "work for everyone?",
                                 "works for everyone?", "ok with everyone?", "sound ok?", "sounds ok?", "all good with that?"]
    /// Whether a lower-cased text holds an agreement ask as words of its own: "runbook?" ends in
    /// "ok?" and asks nothing of the kind.
    static func asksAgreement(_ lower: String) -> Bool {
        // (The plain byte search first: a summary asks this of every question, and few hold an ask at all.)
        agreementAsks.contains { a in lower.hasBytes(a) && (lower.hasPrefix(a) || [" ", ",", "(", "-"].contains { lower.hasBytes($0 + a) }) }
    }

    /// A question that proposes: "How about ...?", "Can we have both?", "Shall we ...?".
    static let proposingQuestions = ["how about", "what about", "why don't we", "shall we", "can we", "could we", "should we", "what if we",
                                      "are we ok with", "are we okay with", "is everyone ok with", "is everyone okay with", "how do we feel about"]

    /// The content of a sentence that proposes something ("How about we keep X?" → "keep X"), or nil.
    static func proposal(_ s: String) -> String? {
        let lower = " " + s.lowercased().replacingPresent("’", with: "'") + " "
        guard Words.content(s).count >= 2 else { return nil }
        if ["if we ever", "maybe later", "someday", "i'll", "i will", "i can", "not sure"].contains(where: { lower.hasBytes($0) }) || continuing(lower) || weWillNoCourse(lower)
            || lower.hasBytes("decide") && !lower.hasBytes("decide:") { return nil }
        // "so: iOS 4.12 to the store thursday as planned, android waits for RC3?": the plan said back for a yes.
        if s.hasSuffix("?"), lower.hasPrefix(" so: ") || lower.hasPrefix(" so, ") || lower.hasPrefix(" so the plan"),
           Words.content(s).count >= 4, !["what", "who", "when", "where", "why", "how", "which"].contains(Words.all(s).dropFirst().first ?? "") {
            return DecisionRules.strip(String(s.trimmingSpaces().dropFirst(3)).trimming(" :,?"))
        }
        if s.contains("?") {
            // "Should we keep the retry change or revert it?" asks for a choice, not agreement.
            let asksAgreement = asksAgreement(lower)
            guard asksAgreement || paddedProposingQuestions.contains(where: { lower.hasBytes($0) }), !lower.hasBytes(" or ") else { return nil }
        } else if !paddedProposalMarkers.contains(where: { lower.hasBytes($0) }) && !lower.hasPrefix(" i'd rather ")
                    // ("use the one in the onboarding doc, v2" — "👌": a choice handed to the one who asked, taken.)
                    && !lower.hasPrefix(" use the ") && !lower.hasPrefix(" go with ") {
            // ("I'd rather not promise a credit before the RCA" — "fair, no credit talk until then": a preference
            // put to the others when it opens the sentence; "Agreed, I'd rather not rush it" is a yes.)
            return nil
        }
        return content(s)
    }

    /// The proposal without the words that only propose ("How about we", "Let's", "Agreed?").
    static func content(_ s: String) -> String {
        var text = s.trimmingSpaces()
        for tail in [" Agreed?", ", agreed?", " agreed?", ", everyone ok?", ", everyone okay?", ", all ok?", ", ok?", ", okay?", ", right?", " Objections?", "?"] where text.hasSuffix(tail) {
            text = String(text.dropLast(tail.count))
        }
        let leads = ["are we ok with ", "are we okay with ", "is everyone ok with ", "is everyone okay with ", "how do we feel about ",
                     "my suggestion: ", "my proposal: ", "my suggestion is ", "my proposal is ", "i recommend we ", "i recommend ", "i'd recommend we ",
                     "i'd recommend ", "recommendation: ", "how about we ", "what about we ", "why don't we ", "what if we ", "shall we ", "can we ", "could we ", "should we ",
                     "how about ", "what about ", "i propose we ", "i propose ", "i suggest we ", "i suggest ", "proposal: ", "proposed fix: ", "proposed plan: ", "suggestion: ",
                     "so the plan: ", "the plan: ", "so let's ", "then let's ", "ok let's ", "okay let's ", "let's ", "lets ", "we should "]
        var lower = text.lowercased().replacingPresent("’", with: "'")
        // A vocative or a filler before the proposal ("Ok, how about ...", "Team, let's ...").
        if let comma = lower.firstIndex(of: ","), lower[..<comma].split(separator: " ").count <= 2,
           case let after = String(lower[lower.index(after: comma)...]).trimmingSpaces(), leads.contains(where: { after.hasPrefix($0) }) {
            let cut = lower.distance(from: lower.startIndex, to: comma) + 1
            text = String(text.dropFirst(cut)).trimmingSpaces()
            lower = text.lowercased().replacingPresent("’", with: "'")
        }
        // A word and a dash before it ("separately — should we add alerting ...?").
        // (Byte searches first: Foundation's range(of:) is costly on every proposal.)
        if lower.hasBytes(" — ") || lower.hasBytes(" - "), let dash = lower.range(of: " — ") ?? lower.range(of: " - "), lower[..<dash.lowerBound].split(separator: " ").count <= 2,
           case let after = String(lower[dash.upperBound...]), leads.contains(where: { after.hasPrefix($0) }) {
            text = String(text.dropFirst(lower.distance(from: lower.startIndex, to: dash.upperBound)))
            lower = after
        }
        if let lead = leads.first(where: { lower.hasPrefix($0) }), text.count > lead.count + 3 { text = String(text.dropFirst(lead.count)) }
        return DecisionRules.strip(text)
    }

    /// A reply that accepts what the message before it proposed: "That works.", "Yes", "+1",
    /// "Static images are fine for launch.", "300ms debounce then." (the choice said again).
    static func accepts(_ reply: String, proposal: String) -> Bool {
        let t = withoutLeadIn(reply.lowercased().replacingPresent("’", with: "'").trimmingSpaces())
        // "No objection" answers "Any objections?": a yes said as a no; "None from me" only to that ask.
        if !t.contains("?"), noObjection.contains(where: { t.hasPrefix($0) }) || t.hasPrefix("none") && proposal.lowercased().hasBytes("objection") {
            return ![" but ", " unless ", " instead"].contains(where: { t.hasBytes($0) })
        }
        guard !t.contains("?"), !["yes, but", "yes but", "but ", "not ", "no ", "no,", "hmm", "i'd rather", "rather "].contains(where: { t.hasPrefix($0) }) else { return false }
        let words = Words.all(t)
        // A thumbs-up or an OK hand alone is a yes with no words.
        if words.isEmpty { return ["👍", "👌"].contains { t.hasPrefix($0) } }
        guard words.count <= 12 else { return false }
        let padded = " " + t + " "
        if [" but ", " not ", "n't", " unless ", " instead", " rather"].contains(where: { padded.hasBytes($0) }) { return false }
        let said = Set(Words.content(t)), proposed = Set(Words.content(proposal))
        // "Sure, let's just keep moving every deadline": an opener followed by other content is no yes.
        if let (text, opener) = opening(t) {
            let after = String(text.dropFirst(opener.count))
            // "Could we compress them?" — "Yes, I'll compress them this week.": the replier takes the
            // asked work on; that is an action item, and ASSISTANT.md's decision is not an action.
            // ("Can we get the final mocks by Thursday?" — "Yes, I'll have final mocks Thursday 9am": another verb,
            // the same thing; "Yes, I'll tell design" commits to other work beside the yes.)
            if proposal.contains("?"), let verb = committed(after),
               Words.all(proposal.lowercased()).contains(verb) || !Set(Words.content(after)).subtracting([Words.stem(verb)]).isDisjoint(with: Words.content(proposal)) {
                return false
            }
            let rest = Set(Words.content(after))
            return rest.count <= 3 || !rest.isDisjoint(with: proposed)
        }
        // "Static images are fine for launch.": the proposal's words with an approving word.
        if said.intersection(proposed).count >= 1, ["fine", "works", "good", "great", "agreed", "ok", "okay"].contains(where: { words.contains($0) }) { return true }
        // "300ms debounce then.": the choice repeated, settled with "then".
        return words.last == "then" && words.count <= 6 && said.intersection(proposed).count >= 1
    }

    /// The decision an accepting reply records: the last proposal of someone else in the two
    /// messages before it, or three behind another member's yes, or four for an approval (the
    /// server judges each message with its context, so "That works." is where an agreed decision
    /// is stored).
    static func accepted(_ m: MessageToJudge) -> String? {
        // "Sounds good. Who writes the migration?": the yes is the first sentence; what it asks next is another matter.
        if !m.context.isEmpty, m.text.contains("?"), let first = Sentences.split(m.text).first, !first.contains("?"), first != m.text,
           opening(first.lowercased().replacingPresent("’", with: "'").trimmingSpaces()) != nil {
            return accepted(MessageToJudge(from: m.from, to: m.to, text: first, context: m.context))
        }
        // Most messages are no short yes: skip them before reading the context (the summary asks for every message).
        guard !m.context.isEmpty, !m.text.contains("?") else { return nil }
        let lower = m.text.lowercased()
        guard Words.all(m.text).count <= 12 || noObjection.contains(where: { lower.hasPrefix($0) }) else { return nil }
        let me = m.from.lowercased()
        // The proposal is in the message before, or behind another member's yes to it ("No objection." —
        // "None from me."); an approval ("Plan approved") may come after a short discussion of the plan.
        let approval = approves(lower)
        var pastYes = false
        for (back, line) in m.context.suffix(approval ? 4 : 3).reversed().enumerated() {
            if line.from.lowercased() == me { continue }
            // Further back than the two messages before only behind another member's yes, or for an approval.
            if back >= 2 && !pastYes && !approval { return nil }
            if let d = proposed(in: line, acceptedBy: m.text) { return elaborated(d, m.context.dropLast(back + 1)) }
            if back == 0, let d = offeredAnswer(line, m) { return d }
            guard approval || isYes(line.text) else { return nil }
            pastYes = true
        }
        return nil
    }

    /// "I'd keep dual-write on for 2 weeks after cutover" — "2 weeks, everyone ok?" — "👍": a proposal of a
    /// few words put to the group confirms a member's statement just before that holds them all.
    static func elaborated(_ d: String, _ before: ArraySlice<ChatLine>) -> String {
        let words = Set(Words.content(d))
        guard (1...3).contains(words.count) else { return d }
        for line in before.suffix(3).reversed() {
            for s in Sentences.split(line.text).reversed() where !s.hasBytes("?") && Words.content(s).count > words.count + 1 && words.isSubset(of: Words.content(s)) {
                return DecisionRules.strip(withoutOpeners(s))
            }
        }
        return d
    }

    /// "which font are we using" — "the one from the deck?" — "that works": an answer offered as a
    /// question to a question someone else asked, then accepted, is the choice made: the offer with
    /// the question it answers ("the one from the deck (which font are we using)").
    static func offeredAnswer(_ line: ChatLine, _ m: MessageToJudge) -> String? {
        let offer = line.text.trimmingSpaces()
        guard offer.hasSuffix("?"), !offer.contains(","), Sentences.split(offer).count == 1, (1...8).contains(Words.all(offer).count),
              proposal(offer) == nil, !DecisionRules.asks(String(offer.dropLast())), Words.content(offer).count >= 1,
              accepts(m.text, proposal: offer), Words.all(m.text).count <= 6 else { return nil }
        let proposer = line.from.lowercased()
        // The question it answers: the nearest asking sentence of another member before the offer.
        for earlier in m.context.dropLast().reversed() where earlier.from.lowercased() != proposer {
            for q in Sentences.split(earlier.text).reversed() where DecisionRules.asks(q) && Words.content(q).count >= 2 {
                return String(offer.dropLast()).trimmingSpaces() + " (" + q.trimming(" ?") + ")"
            }
        }
        return nil
    }

    /// The proposal in one earlier message that a reply accepts, if any.
    static func proposed(in line: ChatLine, acceptedBy reply: String) -> String? {
        // The proposal closest to the reply; a question first is the topic ("Can we have
        // both? Make X the primary action"), so the sentence after it is the content.
        let sentences = Sentences.split(line.text)
        // "Can we have both? Make export the primary action": the question opens, the next sentence says what.
        if let k = sentences.firstIndex(where: { s in s.hasSuffix("?") && { l in paddedProposingQuestions.contains { l.hasBytes($0) } }(" " + s.lowercased()) }),
           k + 1 < sentences.count, !sentences[k + 1].contains("?"), Words.content(sentences[k + 1]).count >= 3, thin(sentences[k]),
           !sentences[k].lowercased().hasBytes(" or "), accepts(reply, proposal: line.text) {
            return DecisionRules.strip(sentences[k + 1])
        }
        for (k, s) in sentences.enumerated().reversed() {
            // "Q3 plan: X. Full sync moves to Q4. yuki, andrés, ok?": an ask with nothing but names in it proposes
            // the statements before it (below), not the names.
            if k > 0, asksForAgreement(s) { continue }
            guard let p = proposal(s), accepts(reply, proposal: line.text) else { continue }
            if s.contains("?"), k + 1 < sentences.count, Words.content(sentences[k + 1]).count >= 3, !sentences[k + 1].contains("?"), thin(s) {
                return DecisionRules.strip(sentences[k + 1])
            }
            return p
        }
        // "The shared inbox is our Q1 bet. Any objections?": the statement an agreement ask follows is proposed.
        if let k = sentences.firstIndex(where: asksForAgreement), k > 0, !sentences[k - 1].contains("?"), Words.content(sentences[k - 1]).count >= 3,
           accepts(reply, proposal: line.text) {
            // A plan put up in two statements ("Q3 plan: slim onboarding first. Full sync moves to Q4. ok?") is one proposal.
            let head = k > 1 && !sentences[k - 2].contains("?") && Words.content(sentences[k - 2]).count >= 3 ? withoutOpeners(sentences[k - 2]) + " " : ""
            return DecisionRules.strip(head + (head.isEmpty ? withoutOpeners(sentences[k - 1]) : sentences[k - 1]))
        }
        // "I can do 40k if onboarding is included." — "Deal.": an offer needs no marker, and "deal"
        // accepts nothing but an offer; terms the reply states again ("Deal, 40k with onboarding") are the decision.
        if let terms = dealTerms(reply), let offer = sentences.last(where: { !$0.contains("?") && Words.content($0).count >= 2 }) {
            return terms.isEmpty ? DecisionRules.strip(offer) : terms
        }
        return nil
    }

    /// A question that says little of its own ("Can we have both?"): the sentence after it says what is proposed.
    static func thin(_ question: String) -> Bool { Words.content(content(question)).count < 3 }

    /// A sentence without the fillers and dashes it opens with ("ok — Q3 plan: ..." → "Q3 plan: ...").
    static func withoutOpeners(_ s: String) -> String {
        var t = Substring(s.trimmingSpaces())
        while case let w = t.prefix(while: { $0 != " " }), !w.isEmpty, t.count > w.count,
              fillers.contains(w.lowercased().trimming(",")) || ["—", "-", "–", "and", "also"].contains(w.lowercased().trimming(",")) {
            t = t.dropFirst(w.count).drop { $0 == " " }
        }
        return String(t)
    }

    /// A reply that closes a negotiation ("Deal.", "It's a deal", "Deal, 40k with onboarding"): the terms it
    /// states again ("" when none), or nil when it is no such reply ("Deal with it", "What's the deal?", "Deal?").
    static func dealTerms(_ reply: String) -> String? {
        // (Most replies hold no "deal" at all: a byte search before any lower-casing.)
        guard reply.hasBytes("eal") || reply.hasBytes("EAL") else { return nil }
        let t = reply.trimmingSpaces()
        let lower = t.lowercased().replacingPresent("’", with: "'")
        guard !lower.contains("?"), let lead = ["it's a deal", "that's a deal", "you've got a deal", "you have a deal", "deal"].first(where: { lower.hasPrefix($0) }),
              case let rest = t.dropFirst(lead.count), rest.first.map({ " ,.!:;—-🤝".contains($0) }) ?? true else { return nil }
        let terms = String(rest).trimming(" ,.!:;—-🤝")
        guard !terms.isEmpty else { return "" }
        // "Deal, but ..." or "Deal with it" are no yes; the terms of a yes are a statement of at least two content words.
        guard ![" but ", " not ", "n't", " unless ", " if "].contains(where: { (" " + terms.lowercased() + " ").hasBytes($0) }),
              !terms.lowercased().hasPrefix("but"), !terms.lowercased().hasPrefix("with "), Words.content(terms).count >= 2 else { return nil }
        return DecisionRules.strip(terms)
    }

    /// The verb a reply commits its sender to ("I'll compress them" → "compress"), if it opens with one.
    static func committed(_ after: String) -> String? {
        let words = Words.all(after.replacingPresent("’", with: "'").replacingPresent("'ll", with: " will"))
        guard words.count >= 3, words[0] == "i", words[1] == "will" else { return nil }
        return words[2]
    }

    /// "Let's ship Friday then.", "OK, let's keep the old flow then!": "let's" opening the sentence and
    /// "then" closing it draw the discussion's conclusion (never "Let's talk then", with nothing in it).
    static func concludes(_ s: String, lower: String) -> Bool {
        var t = Substring(lower.replacingPresent("’", with: "'").trimming(" .!"))
        guard t.hasSuffix(" then"), !t.contains("?") else { return false }
        // (After a filler or a yes: "Ok, let's ...", "Fine, let's ...".)
        while let w = t.split(separator: " ", maxSplits: 1).first, case let bare = String(w).trimming(","),
              fillers.contains(bare) || ["yes", "fine", "agreed"].contains(bare) { t = t.dropFirst(w.count).drop { $0 == " " } }
        return (t.hasPrefix("let's ") || t.hasPrefix("lets ")) && Words.content(String(t)).count >= 2
    }

    /// "we'll need to ...", "we'll see", "we'll revisit if ...": a "we'll" that states no course of action taken.
    static func weWillNoCourse(_ lower: String) -> Bool {
        guard lower.hasBytes("we'll") else { return false }
        return ["we'll need", "we'll see", "we'll have to", "we'll revisit", "we'll talk", "we'll know", "we'll figure", "we'll find", "we'll get back",
                "we'll lose", "we'll miss", "we'll be ", "we'll end up", "we'll want", "we'll probably", "we'll likely", "we'll hear", "we'll check",
                "we'll look", "we'll circle", "we'll discuss", "we'll sync", "we'll regret", "we'll run out", "we'll get "].contains { lower.hasBytes($0) }
            && !paddedProposalMarkers.contains(where: { $0 != " we'll " && lower.hasBytes($0) })
    }

    /// "we keep getting tickets": "keep" before a gerund says what goes on, not what we keep.
    static func continuing(_ lower: String) -> Bool {
        guard lower.hasBytes(" keep ") else { return false }
        let words = Words.all(lower)
        return zip(words, words.dropFirst()).contains { $0.0 == "keep" && $0.1.hasSuffix("ing") && $0.1.count > 5 }
    }

    /// Words that accept when they are the whole reply (as an opener they may only be a filler: "Ok, but ...").
    static let bareYes: Set<String> = ["ok", "okay", "sure", "alright", "cool", "great", "ok then", "okay then", "alright then", "sold"]
    /// Replies that accept by saying nothing is against it.
    static let noObjection = ["no objection", "no objections", "no concerns", "not from me", "nothing from me"]
    /// Replies that approve a plan put up for it: they may come after some discussion of the plan.
    static func approves(_ lower: String) -> Bool {
        ["approved", "green light", "go ahead", "greenlit"].contains { lower.hasBytes($0) } && !lower.hasBytes("not approved") && !lower.hasBytes("n't")
    }
    /// A message that is itself a yes to what came before ("No objection.", "Agreed.", "+1").
    static func isYes(_ text: String) -> Bool {
        let t = withoutLeadIn(text.lowercased().replacingPresent("’", with: "'").trimmingSpaces())
        return !t.contains("?") && (noObjection.contains { t.hasPrefix($0) } || opening(t) != nil && !t.hasPrefix("yes, but"))
    }
    /// A sentence that only asks for agreement ("Any objections?", "Agreed?", "OK?").
    static func asksForAgreement(_ s: String) -> Bool {
        // (The question mark first: every sentence of a proposal's message is asked this.)
        s.utf8.last == 63 && Words.content(s).count <= 2 && asksAgreement(s.lowercased())
    }
    /// The reply without a short lead-in before a colon ("As the payments owner: plan approved").
    static func withoutLeadIn(_ t: String) -> String {
        guard let colon = t.firstIndex(of: ":"), t[..<colon].split(separator: " ").count <= 5,
              case let rest = String(t[t.index(after: colon)...]).trimmingSpaces(), !rest.isEmpty else { return t }
        return rest
    }

    static func acceptedProposals(_ judged: [MessageToJudge]) -> [String] {
        var out: [String] = []
        for (i, m) in judged.enumerated() {
            for s in Sentences.split(m.text) {
                let lower = " " + s.lowercased() + " "
                // (Two content words do for a "let's": "Fine, let's do the 14th.", "Let's ship Friday then.")
                guard leadingProposalMarkers.contains(where: { lower.hasBytes($0) }),
                      Words.content(s).count >= (lower.hasBytes("let's ") || lower.hasBytes("lets ") ? 2 : 3) else { continue }
                // A question is a proposal only when it asks for agreement ("..., agreed?").
                if s.contains("?") && !asksAgreement(lower) { continue }
                if ["if we ever", "maybe", "might", "should we", "can we", "could we"].contains(where: { lower.hasBytes($0) }) { continue }
                // "let's not decide today", "we keep getting tickets": deciding put off, and a habit, propose nothing.
                if lower.hasBytes("decide") && !lower.hasBytes("decide:") || continuing(lower) || weWillNoCourse(lower) { continue }
                // "Can we move the backup to 04:00?" — "Yes, let's move the backup to 04:00.": the
                // reply that takes up someone's proposal is the decision.
                let yesLets = [" yes, let's", " yes let's", " ok, let's", " okay, let's", " sure, let's", " agreed, let's", " fine, let's"].contains { lower.hasBytes($0) }
                // (Only a "yes, let's" or a sentence ending in "then" reads the messages before it.)
                let ends = lower.hasBytes("then")
                let others = yesLets || ends ? judged[..<i].suffix(3).filter { $0.from.lowercased() != m.from.lowercased() } : []
                let takesUp = yesLets && others.suffix(2).contains { $0.text.contains("?") && Set(Words.content($0.text)).intersection(Words.content(s)).count >= 2 }
                // "The 14th would be safer for QA." — "Fine, let's do the 14th.": a statement's option taken up;
                // "Let's ship Friday then.": a conclusion drawn from what others said just before.
                let concluded = yesLets && others.suffix(2).contains { !$0.text.contains("?") && !Set(Words.content($0.text)).isDisjoint(with: Words.content(s)) }
                    || ends && !others.isEmpty && concludes(s, lower: lower)
                let replies = judged.dropFirst(i + 1).prefix(3).filter { $0.from.lowercased() != m.from.lowercased() }
                let accepted = replies.contains { r in
                    let first = r.text.lowercased().trimmingSpaces()
                    // (A yes with a condition is no yes: "Fine with Thursday but not at 10.")
                    return opening(first).map { !$0.rest.hasPrefix("yes, but") } == true && !first.contains("?")
                        && { p in ![" but ", " not ", "n't ", " unless "].contains { p.hasBytes($0) } }(" " + first + " ")
                }
                if accepted || takesUp {
                    out.append(DecisionRules.strip(s.replacingPresent(" Agreed?", with: "").replacingPresent("?", with: "")))
                } else if concluded {
                    // The choice without the words that take it ("Fine, let's", "then"): "do the 14th".
                    var text = content(s)
                    if text.lowercased().hasSuffix(" then") { text = String(text.dropLast(5)).trimming(" ,") }
                    out.append(text)
                }
            }
        }
        return out
    }
}
