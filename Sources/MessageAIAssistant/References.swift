import Foundation

/// What "it"/"that" stands for: the last thing named earlier in the message, else the object of
/// the latest context message's request, else the first thing it names.
enum References {
    static func antecedent(message: MessageToJudge, sentenceIndex: Int, sentences: [String]) -> String? {
        for s in sentences[..<sentenceIndex].reversed() {
            if let p = NounPhrases.of(s).last { return NounPhrases.objectText(p) }
        }
        for line in message.context.reversed() {
            let lineMessage = MessageToJudge(from: line.from, to: [message.from], text: line.text)
            // An ask of the one replying before the asker's own work ("I'll write the draft — tomás can you send me
            // the export?" — "will send it by 9am": the export).
            let items = ActionRules.items(lineMessage)
            if let item = items.first(where: { $0.who != "sender" && $0.who != line.from.lowercased() }) ?? items.first {
                // "look at the flaky test" → "the flaky test": the particle belongs to the asked verb,
                // not to the reply's ("I'll take it" → "take the flaky test", never "take at the flaky test").
                let object = item.what.split(separator: " ").dropFirst().drop { particles.contains($0.lowercased()) }.joined(separator: " ")
                if !object.isEmpty, !ActionRules.pronouns.contains(object.lowercased()) { return object }
            }
            for s in Sentences.split(line.text) {
                if let p = NounPhrases.of(s).first { return NounPhrases.objectText(p) }
            }
        }
        return nil
    }

    /// What "both" stands for: two things another member just named with "and" ("also missing: tests for an
    /// empty page and for a message deleted between pages"), after a label's colon when there is one.
    static func pair(_ message: MessageToJudge) -> String? {
        for line in message.context.suffix(2).reversed() where line.from.lowercased() != message.from.lowercased() {
            for s in Sentences.split(line.text).reversed() where !s.hasBytes("?") && s.hasBytes(" and ") {
                var text = Substring(s.trimmingSpaces().trimming(" .!"))
                if let colon = text.lastIndex(of: ":") { text = text[text.index(after: colon)...] }
                let phrase = String(text).trimmingSpaces()
                let words = Words.all(phrase)
                guard (3...14).contains(words.count), let first = words.first, !["i", "we", "you", "they", "it", "that", "this"].contains(first),
                      !Verbs.work.contains(first) else { return nil }
                return phrase
            }
        }
        return nil
    }

    /// Particles and prepositions of a phrasal verb that open an ask's object ("look into", "follow up on").
    static let particles: Set<String> = ["at", "into", "on", "up", "over", "through", "about", "after", "out", "for", "to", "with"]

    /// Every thing the context and the message before `upTo` name.
    static func candidates(_ message: MessageToJudge, before sentences: ArraySlice<String>) -> [NounPhrase] {
        var all: [NounPhrase] = []
        for line in message.context { for s in Sentences.split(line.text) { all += NounPhrases.of(s) } }
        for s in sentences { all += NounPhrases.of(s) }
        return all
    }
}
