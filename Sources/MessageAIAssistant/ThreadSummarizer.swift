import Foundation

/// A thread's summary: each message judged with the messages before it as context; open work
/// (done items dropped, group asks given to whoever took them), decisions, unanswered questions,
/// and an extractive summary of the sentences that carry them, within 30 % of the thread's words.
enum ThreadSummarizer {
    /// Under ASSISTANT.md's 30 %, with room for the word count of a reader's tokenizer to differ.
    static let budgetRatio = 0.298

    static let reversals = ["instead", "actually", "change of plan", "scratch that", "reverse", "reversing", "no longer", "after all", "back to",
                            "changed our mind", "rather than"]

    static let paddedReversals = reversals.map { r in [" ", ",", ":"].map { " " + r + $0 } }

    static let reversalWords: Set<String> = Set(reversals.flatMap { $0.split(separator: " ").map(String.init) })

    static func reverses(_ d: String) -> Bool {
        let lower = " " + d.lowercased() + " "
        return paddedReversals.contains { $0.contains(where: lower.hasBytes) }
    }

    /// A decision without the choice it names in brackets ("15 it is (do we keep the merge gate at 15
    /// minutes or raise it?)"): the question's words are not what was decided, so they make no duplicate.
    static func ownWords(_ d: String) -> String {
        guard d.hasSuffix(")"), let open = d.lastIndex(of: "("), open > d.startIndex else { return d }
        return String(d[..<open])
    }

    /// A decision as the summary tells it: a long bracket naming the choice's context is left to
    /// `/decisions` ("next_page_token it is (the mobile SDK already has helpers for ...)"), where its words
    /// do not come out of the summary's 30 %.
    static func briefly(_ d: String) -> String {
        // (How it is carried out, "; ingrid owns it, done friday", is the open work's line already.)
        if let cut = d.range(of: "; "), Words.content(String(d[..<cut.lowerBound])).count >= 3 { return briefly(String(d[..<cut.lowerBound])) }
        let own = ownWords(d)
        guard own != d, Words.all(String(d.dropFirst(own.count))).count > 8, Words.content(own).count >= 2 else { return d }
        return own.trimmingSpaces()
    }

    static func summarize(_ thread: ThreadToSummarize, engine: EngineInfo) -> ThreadSummary {
        let msgs = thread.messages
        let participants = thread.participants.isEmpty ? Array(Set(msgs.map { $0.from.lowercased() })).sorted() : thread.participants.map { $0.lowercased() }
        var judged: [MessageToJudge] = []
        for (i, m) in msgs.enumerated() {
            let to = participants.filter { $0 != m.from.lowercased() }
            judged.append(MessageToJudge(from: m.from, to: to.isEmpty ? participants : to, text: m.text, context: Array(msgs[max(0, i - 4)..<i])))
        }
        // Each message's asks and commitments, found once and shared by every part below.
        let founds = judged.map { ActionRules.found($0) }
        // Each message's marked decisions, read once for the open work and the decisions below.
        let marked = judged.map { DecisionRules.allMarked($0) }
        let (work, done) = OpenActions.sorted(judged, founds, participants: participants, marks: marked)
        // ASSISTANT.md's thread `actions` name a participant: a group ask nobody took has no owner
        // yet, so it is no one's open work; the summary may still tell it among the other lines.
        let actions = work.filter { participants.contains($0.who) }
        let unowned = work.filter { !participants.contains($0.who) }
        // Decisions the thread's words mark first, in order, a reversal replacing the earlier one on
        // the same thing ("Actually, the demo moves to Wednesday instead"); then those agreed to,
        // unless a marked one already says them.
        var decisions: [String] = []
        // Reversals with nothing marked before them to replace: they may replace an agreed one below.
        var pending: [(text: String, topic: Set<String>)] = []
        for d in marked.joined() {
            let words = Set(Words.content(d))
            // (What the decision is about, not the words that say it changed: "moves", "instead".)
            let topic = words.subtracting(SalientSentences.changes.map(Words.stem)).subtracting(reversalWords.map(Words.stem))
            if reverses(d) {
                // "Actually we'll ..." settles a thread's choice by replacing one: with nothing earlier on its topic it is a plan's detail.
                if DecisionRules.opensReversal(d) && !decisions.contains(where: { !Set(Words.content($0)).isDisjoint(with: topic) }) {
                    pending.append((d, topic))
                    continue
                }
                decisions.removeAll { !Set(Words.content($0)).isDisjoint(with: topic) }
            }
            // The same decision said again ("Decision: X" then "Agreed: X") is one: the later words stand.
            decisions.removeAll { let w = Set(Words.content($0)); return 3 * w.intersection(words).count >= 2 * min(w.count, words.count) }
            decisions.append(d)
        }
        for d in judged.indices.compactMap({ marked[$0].isEmpty ? Agreement.accepted(judged[$0]) : nil }) + Agreement.acceptedProposals(judged) + Agreement.answeredChoices(judged)
            where !decisions.contains(where: { Set(Words.content(ownWords($0))).intersection(Words.content(d)).count >= 2 }) {
            decisions.append(d)
        }
        // An option taken names both options: it is told already only when another decision holds half its words
        // ("delete indices older than 14 days instead of add 2 data nodes" is not "retention goes to 14 days").
        for d in Agreement.takenOptions(judged) where !decisions.contains(where: { 2 * Set(Words.content(ownWords($0))).intersection(Words.content(d)).count >= Set(Words.content(d)).count }) {
            decisions.append(d)
        }
        // "Percentage, it is shorter." — "Works for me." — "Actually we'll show the amount saved instead":
        // the reversal replaces the choice agreed before it (a reversal says what it reverses, so it comes after).
        for r in pending where decisions.contains(where: { !Set(Words.content($0)).isDisjoint(with: r.topic) }) {
            decisions.removeAll { !Set(Words.content($0)).isDisjoint(with: r.topic) }
            decisions.append(r.text)
        }
        let asked = OpenQuestions.open(judged, founds)
        let questions = asked + OpenQuestions.unansweredAsks(judged, founds, unowned: unowned, known: asked)

        let threadWords = msgs.reduce(0) { $0 + Words.all($1.text).count }
        let budget = max(8, Int(Double(threadWords) * budgetRatio))
        var picker = SummaryPicker(budget: budget)
        // What a returning reader needs first: decisions, open work with owners and dates, open
        // questions (ASSISTANT.md's key points), each as short as its own words allow.
        for d in decisions { picker.require(SummaryLine(text: "Decision: " + Compress.tight(Compress.decision(briefly(d))), order: .max - 3)) }
        // Open work that names no object ("get back to", "comment") competes with the rest instead.
        let actionLines = actions.map { a in (a, SummaryLine(text: "\(a.who): " + Compress.tight(a.what) + (a.due.map { " (\($0))" } ?? ""), order: .max - 2,
                                                             salience: 0.5)) }
        for (a, line) in actionLines where Words.content(a.what).count >= 2 { picker.require(line) }
        // (The summary's line leaves out the bracket that names an ask's "it": the key points around it
        // name the thing already, and the line's words come out of the same 30 %.)
        for q in questions { picker.require(SummaryLine(text: "Open: " + Compress.tight(Compress.question(OpenQuestions.withoutReferent(q))), order: .max - 1)) }
        // Then what else happened (work reported done, changes of plan, dates and figures, the
        // topic), chosen for the most new content per word so no point is told twice.
        // Work asked for and reported done in the thread, in a few words each ("omar done: roll back receipts").
        // A returning reader learns first that there is nothing for them here (ASSISTANT.md: chatter has key
        // points, but no actions, decisions or open questions).
        if actions.isEmpty && decisions.isEmpty && questions.isEmpty && unowned.isEmpty {
            picker.require(SummaryLine(text: "No decisions, open work or open questions.", order: .min))
        }
        let doneLines = done.enumerated().map { SummaryLine(text: "\($0.element.who) done: " + Compress.tight($0.element.what), order: .max - 4 - done.count + $0.offset, salience: 2) }
        let unownedLines = unowned.map { SummaryLine(text: "\($0.who): " + Compress.tight($0.what) + ($0.due.map { " (\($0))" } ?? ""), order: .max - 2, salience: 0.5) }
        picker.fill(doneLines + unownedLines + actionLines.filter { Words.content($0.0.what).count < 2 }.map(\.1) + SalientSentences.candidates(judged, founds, questions: questions, participants: participants))
        let keyPoints = picker.chosen.sorted { $0.order < $1.order }.map(\.text)
        return ThreadSummary(summary: keyPoints.map { "- " + $0 }.joined(separator: "\n"), keyPoints: keyPoints, decisions: decisions,
                             actions: actions, openQuestions: questions, coveredMessages: msgs.count, engine: engine)
    }
}

/// One line of a summary: its text, its content words and where it goes (thread order, with the
/// decisions, open work and open questions last, where a reader looks for them).
struct SummaryLine {
    let text: String
    let order: Int
    let salience: Double
    /// Counted once: the picker compares every line with what is covered on every round.
    let stems: Set<String>
    let cost: Int

    init(text: String, order: Int, salience: Double = 1) {
        self.text = text; self.order = order; self.salience = salience
        stems = Set(Words.content(text)); cost = Words.all(text).count
    }
}

/// Budgeted maximum coverage: required lines first while they fit, then greedily the line with
/// the most salient new content words per word of cost.
struct SummaryPicker {
    let budget: Int
    var used = 0
    var covered = Set<String>()
    var chosen: [SummaryLine] = []

    init(budget: Int) { self.budget = budget }

    mutating func require(_ line: SummaryLine) {
        guard used + line.cost <= budget, !line.stems.isSubset(of: covered) else { return }
        take(line)
    }

    mutating func take(_ line: SummaryLine) {
        chosen.append(line); used += line.cost; covered.formUnion(line.stems)
    }

    mutating func fill(_ candidates: [SummaryLine]) {
        var left = candidates
        while true {
            var best: (index: Int, gain: Double)? = nil
            for (k, c) in left.enumerated() where used + c.cost <= budget {
                let fresh = c.stems.subtracting(covered).count
                guard fresh >= 2 else { continue }
                let gain = c.salience * Double(fresh) / Double(max(c.cost, 3))
                if best == nil || gain > best!.gain { best = (k, gain) }
            }
            guard let b = best else { return }
            take(left.remove(at: b.index))
        }
    }
}
