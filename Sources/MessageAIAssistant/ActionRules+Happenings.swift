import Foundation

/// Verbs that say what will happen to someone or how they feel, not work anyone takes on:
/// "jürgen will miss that one", "I'll forget otherwise", "you'll love it". ASSISTANT.md's action
/// item is work asked or committed to; a prediction about a person is neither.
extension ActionRules {
    static let happenings: Set<String> = ["miss", "lose", "forget", "hate", "love", "enjoy", "regret", "dislike", "suffer", "oversleep"]

    static func isHappening(_ what: String) -> Bool {
        // (Every found item is asked: its first word is read off the bytes, lower-cased only when it may be one.)
        let first = what.utf8.prefix { $0 != 32 }
        guard first.count <= 9, let b = first.first, "mlfhedrsoMLFHEDRSO".utf8.contains(b) else { return false }
        return happenings.contains(String(decoding: first, as: UTF8.self).lowercased())
    }
}
