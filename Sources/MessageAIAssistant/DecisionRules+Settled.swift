import Foundation

/// More of the ways ASSISTANT.md's "decision that has been made" is said without its listed
/// markers: a reversal that states the new course ("Actually we'll show X instead"), a vote's
/// result ("Redis wins 3 to 1"); and one way a marker is said of something not decided here:
/// a decision of the past quoted as background ("Last year we decided to avoid X").
extension DecisionRules {
    /// Openers of a reversal that states what is done now (a reversal replaces the earlier decision).
    static let reversalOpeners = ["actually we'll ", "actually, we'll ", "actually we will ", "actually, we will ",
                                  "actually we're going to ", "actually, we're going to ", "change of plan: ",
                                  "change of plan, ", "scratch that, ", "scratch that: ", "on second thought, we'll ", "on second thought we'll "]
    /// A vote or poll said with its result: who or what won.
    static let voteResults = ["won the vote", "wins the vote", "the vote goes to", "majority voted", "majority picked", "the poll picked",
                              "poll winner", "vote winner"]
    /// Words that put a marker in the past or in someone's memory: background, not this thread's outcome.
    static let pastTimes = ["last year", "last quarter", "last month", "back then", "at the time", "originally", "previously",
                            "years ago", "months ago", "remember when", "used to", "in the past", "reminder", "last week"]

    /// A vote's count in a sentence ("3-1", "3 to 1").
    static func score(_ lower: String) -> Bool {
        let w = Words.all(lower)
        return zip(w, w.dropFirst()).contains { $0.0.allSatisfy(\.isNumber) && $0.1.allSatisfy(\.isNumber) } || lower.hasBytes(" to 1") || lower.hasBytes(" to 2")
    }

    /// Whether a decision's text opens with a reversal ("Actually we'll ...").
    static func opensReversal(_ d: String) -> Bool {
        let lower = d.lowercased().replacingPresent("’", with: "'")
        return reversalOpeners.contains { lower.hasPrefix($0) }
    }

    /// The decision a sentence settles by a reversal or a vote, or nil; `next` is the message's
    /// sentence after it ("Redis wins 3 to 1. Redis for the session cache.": the second says for what).
    static func settled(_ s: String, lower: String, next: String?) -> String? {
        // Most sentences hold none of these words: only then are the longer lists read.
        guard ["actually", "change of plan", "scratch that", "second thought", " won", " win", "vote", "poll"].contains(where: { lower.hasBytes($0) }),
              !s.contains("?"), !negations.contains(where: { lower.hasBytes($0) }), !pastTimes.contains(where: { lower.hasBytes($0) }) else { return nil }
        let trimmed = lower.trimmingSpaces()
        if reversalOpeners.contains(where: { trimmed.hasPrefix($0) }), Words.content(s).count >= 3 { return strip(s) }
        // "X wins 3 to 1": a count or a vote beside "wins"/"won" reads as the result, not as "the customer wins".
        let won = voteResults.contains { lower.hasBytes($0) }
            || (lower.hasBytes(" win ") && score(lower)) || (lower.hasBytes(" wins ") || lower.hasBytes(" won ")) && (lower.contains { $0.isNumber } || lower.hasBytes("vote") || lower.hasBytes("poll"))
        guard won else { return nil }
        var text = strip(s)
        if let n = next, !n.contains("?"), !Set(Words.content(n)).isDisjoint(with: Words.content(s)), Words.content(n).count >= 2 {
            text += "; " + strip(n)
        }
        return text
    }
}

