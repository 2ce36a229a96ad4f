import Foundation

/// Verbs that say what will happen to someone or how they feel, not work anyone takes on:
/// "jürgen will miss that one", "I'll forget otherwise", "you'll love it". ASSISTANT.md's action
/// item is work asked or committed to; a prediction about a person is neither.
extension ActionRules {
    static let happenings: Set<String> = ["miss", "lose", "forget", "hate", "love", "enjoy", "regret", "dislike", "suffer", "oversleep"]

    static func isHappening(_ what: String) -> Bool {
        guard let first = what.lowercased().split(separator: " ", maxSplits: 1).first else { return false }
        return happenings.contains(String(first))
    }
}
