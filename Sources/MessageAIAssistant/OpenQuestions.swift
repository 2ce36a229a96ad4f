import Foundation

/// Questions still open at the end of a thread: information questions (asks for work are action
/// items) that no later message from someone else answers.
enum OpenQuestions {
    static let answerOpeners: Set<String> = ["yes", "no", "yep", "nope", "yeah", "nah", "sure", "correct", "right", "it's", "its",
                                             "they're", "we", "i", "it", "not", "probably", "maybe", "that", "the", "because",
                                             "definitely", "absolutely", "good", "looks", "confirmed", "both", "neither", "either"]

    static func open(_ judged: [MessageToJudge]) -> [String] {
        var out: [String] = []
        for (i, m) in judged.enumerated() {
            let found = ActionRules.found(m)
            for (si, s) in Sentences.split(m.text).enumerated() where s.hasSuffix("?") {
                if found.contains(where: { $0.sentence == si }) { continue }
                if Words.content(s).count < 2 { continue }
                if answered(s, asker: m.from, after: i, judged) { continue }
                out.append(s.trimmingCharacters(in: .whitespaces))
            }
        }
        return out
    }

    static func answered(_ question: String, asker: String, after i: Int, _ judged: [MessageToJudge]) -> Bool {
        let q = Set(Words.content(question))
        let later = judged.dropFirst(i + 1)
        if later.contains(where: { $0.from.lowercased() == asker.lowercased() && ["never mind", "nevermind", "ignore that", "scratch that"].contains(where: $0.text.lowercased().contains) }) { return true }
        for (k, m) in later.enumerated() where m.from.lowercased() != asker.lowercased() {
            let words = Set(Words.content(m.text))
            if q.intersection(words).count >= 2 { return true }
            if k == 0, let first = Words.all(m.text).first, answerOpeners.contains(first) { return true }
        }
        return false
    }
}
