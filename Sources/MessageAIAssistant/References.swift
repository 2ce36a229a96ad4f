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
            if let item = ActionRules.items(lineMessage).first {
                let object = item.what.split(separator: " ").dropFirst().joined(separator: " ")
                if !object.isEmpty, !ActionRules.pronouns.contains(object.lowercased()) { return object }
            }
            for s in Sentences.split(line.text) {
                if let p = NounPhrases.of(s).first { return NounPhrases.objectText(p) }
            }
        }
        return nil
    }

    /// Every thing the context and the message before `upTo` name.
    static func candidates(_ message: MessageToJudge, before sentences: ArraySlice<String>) -> [NounPhrase] {
        var all: [NounPhrase] = []
        for line in message.context { for s in Sentences.split(line.text) { all += NounPhrases.of(s) } }
        for s in sentences { all += NounPhrases.of(s) }
        return all
    }
}
