import Foundation

/// Clarity: a draft the reader will have to ask about. Three rules (ASSISTANT.md): a pronoun with
/// no antecedent or two, a bare definite reference to something never named, a request with no
/// owner or a deliberately vague time. The sender's own commitments and short replies pass.
enum ClarityRules {
    static func flags(_ m: MessageToJudge) -> [Flag] { flags(m, found: ActionRules.found(m)) }

    /// With the message's asks and commitments already found (the engine finds them once).
    static func flags(_ m: MessageToJudge, found: [ActionRules.Found]) -> [Flag] {
        let sentences = Sentences.split(m.text)
        if Acknowledgements.isShortReply(m.text) { return [] }
        var flags: [Flag] = []
        for (si, s) in sentences.enumerated() {
            let t = Tokenizer.tokens(s)
            let triggers = found.filter { $0.sentence == si }
            if triggers.contains(where: { $0.trigger.owner == .sender }) { continue }
            // A rude remark that asks for nothing ("Great, the build is red again", "Who approved
            // this mess?") points at what everyone is looking at: its problem is the tone, which
            // the tone check names; a request in it is still checked.
            // (Judged only when there is a reference to flag: the tone rules are the costlier part.)
            if let f = pronounFlag(t, m, si, sentences) ?? referenceFlag(t, m, si, sentences),
               !triggers.isEmpty || ToneRules.flags(MessageToJudge(from: m.from, to: m.to, text: s, context: m.context)).isEmpty {
                flags.append(f)
            }
            if let f = ownerFlag(t, m, triggers) { flags.append(f) }
        }
        var seen = Set<String>()
        return flags.filter { seen.insert($0.reason).inserted }
    }

    // MARK: Rule 3: no owner, vague timing

    static let vagueTimes = ["sometime", "some time", "whenever", "at some point", "one of these days", "eventually", "when you can", "no rush",
                             "someday", "some day", "when you have time", "at your leisure", "sooner or later", "at some stage", "down the line",
                             "in the future", "when convenient", "at your convenience", "when you get around to it", "soonish"]

    static func ownerFlag(_ t: [Token], _ m: MessageToJudge, _ found: [ActionRules.Found]) -> Flag? {
        guard let first = found.first else { return nil }
        let text = " " + t.map(\.lower).joined(separator: " ") + " "
        if let vague = vagueTimes.first(where: { text.contains(" " + $0 + " ") }) {
            return Flag(.timing, "'\(vague)' leaves the time open: say when it is needed (\"by Friday\", \"before the 3pm demo\")")
        }
        if first.trigger.passiveObject != nil {
            return Flag(.owner, "nobody is asked to \(first.item.what): name who should do it")
        }
        guard m.isGroup, first.item.who == "recipient" else { return nil }
        // "everyone", "both", or two @mentions name the owners.
        let everyone = t.contains { Addressee.groupWords.contains($0.lower) || $0.lower == "each" }
            || t.filter { $0.lower.hasPrefix("@") && $0.lower.count > 1 }.count > 1
        if everyone { return nil }
        // README's choice: "whoever picks up X" and "one of you" name nobody either.
        if [" someone ", " somebody ", " anyone ", " anybody ", " whoever ", " one of you "].contains(where: { text.contains($0) }) {
            // `to` is everyone but the sender: the group is one larger.
            return Flag(.owner, "'someone' in a group of \(m.to.count + 1) means nobody in particular: name who should \(first.item.what)")
        }
        if text.contains(" you ") {
            return Flag(.owner, "'you' is sent to \(m.to.count) people (\(m.to.joined(separator: ", "))): say which of them should \(first.item.what)")
        }
        // "Any volunteers to ...?", "Who can take ...?": the owner is still to be found.
        if [" volunteer ", " volunteers ", " who can ", " who could ", " who wants to ", " who's free ", " who is free ", " anyone free "].contains(where: { text.contains($0) }) {
            return Flag(.owner, "nobody is named to \(first.item.what) yet: name who should do it")
        }
        return nil
    }
}

/// Short replies that need no context to be understood ("Thanks!", "Done.", "LGTM").
enum Acknowledgements {
    static let words: Set<String> = ["thanks", "thank", "you", "thx", "ty", "done", "ok", "okay", "sounds", "good", "great",
                                     "lgtm", "sure", "yes", "yep", "yeah", "no", "nope", "will", "do", "on", "it", "got",
                                     "nice", "cool", "perfect", "awesome", "agreed", "noted", "ack", "np", "+1", "much",
                                     "appreciated", "works", "for", "me", "fine", "by", "all", "right", "makes", "sense",
                                     "love", "that", "this", "exactly", "same", "here", "congrats", "welcome", "yay",
                                     "shipped", "merged", "fixed", "deployed", "looks", "a", "lot", "so", "haha", "lol",
                                     "glad", "to", "hear", "wow", "amazing", "brilliant", "excellent", "morning", "hi", "hey"]

    static func isShortReply(_ text: String) -> Bool {
        let w = Tokenizer.tokens(text).map(\.lower)
        return !w.isEmpty && w.count <= 6 && w.allSatisfy { words.contains($0) || $0.hasPrefix("@") || $0.unicodeScalars.allSatisfy { !CharacterSet.letters.contains($0) } }
    }
}
