import Foundation

/// A thread's summary: each message judged with the messages before it as context; open work
/// (done items dropped, group asks given to whoever took them), decisions, unanswered questions,
/// and an extractive summary of the sentences that carry them, within 30 % of the thread's words.
enum ThreadSummarizer {
    static let budgetRatio = 0.29

    struct Line { var message: Int; var from: String; var text: String; var score: Double }

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
        let actions = OpenActions.open(judged, founds, participants: participants)
        var decisions = judged.compactMap { DecisionRules.decision($0) }
        for d in Agreement.acceptedProposals(judged) where !decisions.contains(where: { Set(Words.content($0)).intersection(Words.content(d)).count >= 2 }) {
            decisions.append(d)
        }
        let questions = OpenQuestions.open(judged, founds)

        // The lines a returning reader needs most, in this order: decisions, open work with owners
        // and dates, open questions; then the thread's other sentences by weight, as budget allows.
        let threadWords = msgs.reduce(0) { $0 + Words.all($1.text).count }
        let budget = max(8, Int(Double(threadWords) * budgetRatio))
        var used = 0
        var summary: [String] = []
        func add(_ line: String) -> Bool {
            let cost = Words.all(line).count
            guard used + cost <= budget else { return false }
            summary.append(line); used += cost
            return true
        }
        for d in decisions { _ = add("Decision: " + d) }
        // What the thread is about: its first sentence.
        var topic: String? = nil
        var topicLine: [String] = []
        if let first = msgs.first.flatMap({ Sentences.split($0.text).first }), !Acknowledgements.isShortReply(first) {
            let line = "\(msgs[0].from.lowercased()): " + Compress.sentence(first, names: Set(participants))
            if add(line) { topic = first; topicLine = [summary.removeLast()] }
        }
        for a in actions { _ = add("\(a.who): \(a.what)" + (a.due.map { " (\($0))" } ?? "")) }
        for q in questions { _ = add("Open: " + q) }
        var lines: [Line] = []
        for (i, m) in judged.enumerated() {
            let found = founds[i]
            for (si, s) in Sentences.split(m.text).enumerated() {
                if Acknowledgements.isShortReply(s) || Words.content(s).count < 3 || (i == 0 && s == topic) { continue }
                if DecisionRules.decision(MessageToJudge(from: m.from, to: m.to, text: s)) != nil { continue }
                if found.contains(where: { $0.sentence == si }) || questions.contains(Compress.sentence(s.trimmingCharacters(in: .whitespaces), names: Set(judged.map { $0.from.lowercased() }))) { continue }
                var score = Double(min(Words.content(s).count, 12)) / 12
                if i == 0 { score += si == 0 ? 5 : 3 }
                let words = Words.all(s)
                if words.contains(where: { OpenActions.doneWords.contains($0) }) { score += 3 }
                if s.contains(where: \.isNumber) || s.contains("%") { score += 2.5 }
                if s.hasSuffix("?") { score -= 2 }
                lines.append(Line(message: i, from: m.from.lowercased(), text: Compress.sentence(s, names: Set(participants)), score: score))
            }
        }
        var chosen: [Int] = []
        for idx in lines.indices.sorted(by: { lines[$0].score > lines[$1].score || lines[$0].score == lines[$1].score && $0 < $1 }) {
            let cost = Words.all(lines[idx].text).count + 1
            if used + cost <= budget { chosen.append(idx); used += cost }
        }
        let context = chosen.sorted().map { "\(lines[$0].from): \(lines[$0].text)" }
        // Read in this order: what it is about, what was said, then decisions, open work, open questions.
        let keyPoints = topicLine + context + summary
        return ThreadSummary(summary: keyPoints.map { "- " + $0 }.joined(separator: "\n"), keyPoints: keyPoints, decisions: decisions,
                             actions: actions, openQuestions: questions, coveredMessages: msgs.count, engine: engine)
    }
}

/// Shortens a sentence for the summary without changing its words: greetings, thanks and
/// fillers at the start go ("Thanks, Li. Ok so we'll ship Monday" → "we'll ship Monday").
enum Compress {
    static let openers: Set<String> = ["ok", "okay", "so", "thanks", "thanks!", "hey", "hi", "also", "well", "alright", "right",
                                       "cool", "great", "sure", "yes", "yeah", "yep", "hmm", "btw", "fyi", "oh", "ah", "and", "anyway", "honestly", "quick", "update:"]

    static func sentence(_ s: String, names: Set<String> = []) -> String {
        var words = s.split(separator: " ").map(String.init)
        while words.count > 3, let f = words.first {
            let bare = f.lowercased().trimmingCharacters(in: .punctuationCharacters)
            // Openers, and a vocative ("Omar, how long ...?").
            guard openers.contains(bare) || (names.contains(bare) && f.hasSuffix(",")) else { break }
            words.removeFirst()
        }
        if let f = words.first, let c = f.first, c.isLowercase, !f.hasPrefix("@") { words[0] = c.uppercased() + f.dropFirst() }
        return words.joined(separator: " ")
    }
}
