import Foundation

/// Who a sentence speaks to: a vocative ("Omar, can you ...", "@li please ..."), the group
/// ("Everyone, ..."), or nobody named (then a direct message's other person, or the group).
enum Addressee: Equatable {
    case name(String)
    case group
    case unnamed

    static let groupWords: Set<String> = ["everyone", "everybody", "all", "team", "folks", "guys", "y'all", "yall", "people", "both"]
    static let greetings: Set<String> = ["hey", "hi", "hello", "yo", "morning", "thanks", "thx", "ok", "okay"]
    /// Capitalised words that start a sentence with a comma but are not names.
    static let notNames: Set<String> = [
        "thanks", "thank", "ok", "okay", "sure", "yes", "yeah", "yep", "no", "nope", "also", "so", "well", "hey", "hi",
        "hello", "great", "cool", "right", "alright", "honestly", "actually", "anyway", "btw", "fyi", "sorry", "please",
        "and", "but", "then", "now", "first", "second", "finally", "perfect", "awesome", "nice", "oh", "ah", "hmm",
        "update", "reminder", "note", "today", "tomorrow", "agreed", "decision", "fine", "good", "wait", "look", "again",
    ]

    /// Finds the vocative at the start of a sentence and returns the index after it.
    static func leading(_ t: [Token], members: Set<String>) -> (Addressee, Int) {
        var i = 0
        if i < t.count, greetings.contains(t[i].lower), !t[i].endsClause, i + 1 < t.count { i += 1 }
        guard i < t.count else { return (.unnamed, 0) }
        let w = t[i]
        let name = w.lower.hasPrefix("@") ? String(w.lower.dropFirst()) : w.lower
        if w.after.hasPrefix(",") || w.after.hasPrefix(":") || (w.lower.hasPrefix("@") && !w.endsClause) {
            if groupWords.contains(name) { return (.group, i + 1) }
            if w.lower.hasPrefix("@") || members.contains(name) || (w.isCapitalized && !notNames.contains(name) && !w.isAllCaps) {
                return (.name(name), i + 1)
            }
        }
        // Chat drops the comma: "yuki can you write the note?", "omar please tag it".
        if members.contains(name), i + 1 < t.count, !w.endsClause {
            let next = t[i + 1].lower
            if next == "please" || ["can", "could", "would", "will"].contains(next) && i + 2 < t.count && t[i + 2].lower == "you" { return (.name(name), i + 1) }
        }
        // "Li and Omar, please ..." speaks to more than one person: the group.
        if i + 2 < t.count, t[i + 1].lower == "and", t[i + 2].after.hasPrefix(","), members.contains(name) { return (.group, i + 3) }
        return (.unnamed, 0)
    }

    /// The first @mention of a sentence, or a trailing vocative (", Omar?").
    static func mentioned(_ t: [Token], members: Set<String>) -> String? {
        if let m = t.first(where: { $0.lower.hasPrefix("@") && $0.lower.count > 1 }) { return String(m.lower.dropFirst()) }
        if t.count > 2, let last = t.last, t[t.count - 2].after.hasPrefix(","), members.contains(last.lower) { return last.lower }
        return nil
    }

    /// The owner's name for an action given to this addressee.
    func owner(in message: MessageToJudge) -> String {
        switch self {
        case .name(let n): return n
        case .group: return message.isGroup ? "recipient" : (message.to.first?.lowercased() ?? "recipient")
        case .unnamed: return message.isGroup ? "recipient" : (message.to.first?.lowercased() ?? "recipient")
        }
    }
}
