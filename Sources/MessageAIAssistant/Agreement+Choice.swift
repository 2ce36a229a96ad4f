import Foundation

/// A question that puts a choice to the group ("Do we need a new beta build, or can it wait for
/// the RC?", "Do we still keep the beta servers running?") settled by the next other speaker's
/// plain answer ("New beta build, I want feedback before the RC.") is an outcome of the thread:
/// ASSISTANT.md's decisions are "outcomes agreed in the thread", and the asker put the choice up
/// for exactly that answer. Its text is the answer's, which names the option taken.
extension Agreement {
    /// Auxiliaries that open a yes/no question about what "we" do.
    static let choiceAuxiliaries: Set<String> = ["do", "does", "should", "shall", "will", "are", "is", "can", "could", "would"]
    /// Verbs after "do we" that put a course of action up, rather than ask what is known ("Do we have the logs?").
    static let choiceVerbs: Set<String> = ["still", "need", "keep", "want", "go", "use", "ship", "launch", "include", "drop", "wait", "move", "stay"]
    /// Words of an answer that only leans, hedges or puts the choice off: no outcome yet.
    static let hedges = ["i think", "i'd", "i would", "i guess", "depends", "not sure", "no idea", "good question", "let me", "i'll check",
                         "i need to", "we need to check", "maybe", "probably", "might", "perhaps", "not yet", "tbd", "prefer", "lean"]

    /// Whether a sentence asks the group to choose: a yes/no question with "we" as its subject and
    /// a course of action ("Do we still keep ...?", "Do we need ...?"), or one that names alternatives ("..., or ...?").
    static func putsChoice(_ s: String) -> Bool {
        guard s.hasSuffix("?") else { return false }
        let words = Words.all(s.replacingPresent("’", with: "'"))
        // After a short lead-in ("Also,", "Tracking:", "And"): the auxiliary, then "we".
        guard let k = words.prefix(4).indices.first(where: { choiceAuxiliaries.contains(words[$0]) && $0 + 1 < words.count && words[$0 + 1] == "we" }) else {
            // "For the annual discount badge, do we show ...?": a longer lead-in closed by a comma names the topic.
            // (Only where a "we" comes later: most questions put nothing to the group, and Foundation's range(of:) is costly.)
            guard words.dropFirst(4).contains("we"), let comma = s.range(of: ", "), Words.all(String(s[..<comma.lowerBound])).count <= 6 else { return false }
            return putsChoice(String(s[comma.upperBound...]))
        }
        let rest = words[(k + 2)...].drop { $0 == "also" }
        // "Should we also page on-call ...?": "should"/"shall" before any work verb puts up a course of action.
        // "Do we add a latency check to the pipeline?": so does "do" before one (not "do we know/have ...", which ask what is).
        if ["should", "shall", "do"].contains(words[k]), let verb = rest.first, Verbs.work.contains(verb) { return true }
        return words.contains("or") || rest.first.map { choiceVerbs.contains($0) } == true
    }

    /// Whether a sentence names two options joined by "or", the second a few words without a verb of
    /// its own ("Tuesday or Thursday", "at 9am Berlin or at 5pm Tokyo"; not "or is it created lazily?", "or not?").
    static func namesAlternatives(_ s: String) -> Bool {
        guard s.hasBytes(" or ") else { return false }
        let lower = s.lowercased().replacingPresent("’", with: "'")
        let parts = lower.components(separatedBy: " or ")
        guard parts.count == 2, let head = Words.all(parts[0]).last, !Words.function.contains(head) || head.allSatisfy(\.isNumber) else { return false }
        let second = Words.all(parts[1])
        return (1...4).contains(second.count) && !["not", "so", "something", "what", "anything", "whatever", "later"].contains(second[0])
            && !second.contains { subjects.contains($0) || Verbs.finite.contains($0) || choiceAuxiliaries.contains($0) || modals.contains($0) }
    }

    /// "phased rollout on iOS or all at once?" — "phased, the 7 day default" — "👍": options put up
    /// without a "we", answered with one of them and accepted by the one who asked.
    static func optionAccepted(after i: Int, question q: String, _ judged: [MessageToJudge]) -> String? {
        let asker = judged[i].from.lowercased()
        // (The asker's yes first: most questions get none, and reading the options is the costly part.)
        guard q.hasBytes(" or "), let k = judged.indices.dropFirst(i + 1).prefix(2).first(where: { judged[$0].from.lowercased() != asker }),
              let yes = judged.dropFirst(k + 1).first, yes.from.lowercased() == asker, isYes(yes.text),
              namesAlternatives(q), let answer = Sentences.split(judged[k].text).first, !answer.contains("?"),
              Words.all(answer).count <= 8, !Set(Words.content(answer)).isDisjoint(with: Words.content(q)) else { return nil }
        return DecisionRules.strip(answer) + " (" + q.trimming(" ?") + ")"
    }

    /// The thread's choices put as questions and settled by the next other speaker's plain answer.
    static func answeredChoices(_ judged: [MessageToJudge]) -> [String] {
        var out: [String] = []
        for (i, m) in judged.enumerated() {
            // The last question of a message is the one its reply answers.
            guard m.text.contains("?"), let q = Sentences.split(m.text).last(where: { $0.hasSuffix("?") }) else { continue }
            guard putsChoice(q) else {
                if let d = optionAccepted(after: i, question: q, judged) { out.append(d) }
                continue
            }
            let asker = m.from.lowercased()
            guard let reply = judged.dropFirst(i + 1).prefix(2).first(where: { $0.from.lowercased() != asker }),
                  let answer = Sentences.split(reply.text).first, takesOption(answer, question: q), let d = settles(answer) else {
                if let d = optionAccepted(after: i, question: q, judged) { out.append(d) }
                if let d = settledThen(after: i, question: q, judged) { out.append(d) }
                continue
            }
            out.append(d)
        }
        return out
    }

    /// "Monday 9am Berlin then.": within the three messages after a choice, anyone's short line that
    /// names the option and ends in "then" settles it (the ASSISTANT.md thread's "300ms debounce then.").
    static func settledThen(after i: Int, question: String, _ judged: [MessageToJudge]) -> String? {
        for m in judged.dropFirst(i + 1).prefix(3) {
            guard let s = Sentences.split(m.text).last, !s.contains("?") else { continue }
            let words = Words.all(s)
            guard words.last == "then", (3...6).contains(words.count), !Set(Words.content(s)).isDisjoint(with: Words.content(question)),
                  !words.contains(where: { subjects.contains($0) || Verbs.finite.contains($0) }) else { continue }
            var text = s.trimmingSpaces()
            while let l = text.last, ".!".contains(l) { text.removeLast() }
            return String(text.dropLast(4)).trimming(" ,")
        }
        return nil
    }

    /// Words that make a clause a statement of fact or an argument ("It's created lazily",
    /// "Finance needs seven years"), not the option named.
    static let subjects: Set<String> = ["i", "it", "we", "they", "he", "she", "that", "this", "there", "you"]
    static let modals: Set<String> = ["must", "will", "ll", "should", "shall"]

    /// Whether the answer's first clause takes an option, as people settle a choice in one breath:
    /// the option named without a verb ("New beta build, ...", "Dedicated landing page."), an
    /// order ("Shut them down until 2.1"), or a yes/no with what will be done ("Yes, the security
    /// team must review it first"). A statement with its own subject and verb informs or argues.
    static func takesOption(_ answer: String, question: String) -> Bool {
        let clause = String(answer.split(separator: ",", maxSplits: 1).first ?? "")
        let words = Words.all(clause.replacingPresent("’", with: "'"))
        guard let first = words.first else { return false }
        if ["yes", "yep", "yeah", "no", "nope"].contains(first) {
            let rest = Words.all(answer.replacingPresent("’", with: "'")).dropFirst()
            // "Yes, page on-call whenever ...": the yes with the order that carries it out.
            return rest.contains { modals.contains($0) } || rest.first.map { Verbs.work.contains($0) && !Words.function.contains($0) } == true
        }
        if Verbs.work.contains(first) || words.count > 1 && Verbs.objectStarters.contains(words[1]) && !Verbs.notVerbs.contains(first)
            && !Words.function.contains(first) && !first.hasSuffix("s") && !first.hasSuffix("ed") && !first.hasSuffix("ing") { return true }
        return words.count <= 5 && !words.contains { subjects.contains($0) || Verbs.finite.contains($0) }
            && !Set(Words.content(clause)).isDisjoint(with: Words.content(question))
    }

    /// A reply's first sentence as the option it takes, or nil when it asks back, hedges or says too little.
    static func settles(_ answer: String) -> String? {
        let lower = " " + answer.lowercased().replacingPresent("’", with: "'") + " "
        guard !answer.contains("?"), !hedges.contains(where: { lower.hasBytes(" " + $0) }),
              !OpenQuestions.deferrals.contains(where: { lower.hasBytes($0) }) else { return nil }
        var text = answer.trimmingSpaces()
        // "Yes, the security team must review it first": the yes only points at the question.
        for lead in ["yes, ", "yes ", "yep, ", "yeah, ", "no, ", "nope, "] where text.lowercased().hasPrefix(lead) { text = String(text.dropFirst(lead.count)) }
        guard Words.content(text).count >= 2 else { return nil }
        // "New beta build, I want feedback on it first": after the option, the speaker's reason.
        if let r = text.range(of: ", "), let next = Words.all(String(text[r.upperBound...])).first, ["i", "we", "it", "that", "this"].contains(next),
           Words.content(String(text[..<r.lowerBound])).count >= 2 {
            text = String(text[..<r.lowerBound])
        }
        return DecisionRules.strip(text)
    }
}

