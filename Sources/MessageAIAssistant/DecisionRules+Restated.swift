import Foundation

/// A decision by agreement told as the accepter's own restatement of another member's proposal:
/// "I'd say only 429 and 5xx" — "+1" — "ok: retry only on 429 and 5xx."; "cursor" — "cursor" —
/// "cursor pagination confirmed". The "ok:" (a yes with a colon, announcing what follows) or the
/// closing "confirmed" is the acceptance; the words are the proposal's, so the other member's
/// statement must hold at least half of them. Without that proposal it is one member's plan or
/// status ("ok: the build is red again", "booking confirmed" after an ask), not an agreement.
extension DecisionRules {
    /// A yes with a colon: what follows is what the speaker takes up.
    static let restateOpeners = ["ok:", "okay:", "alright:", "fine:", "ok then:", "okay then:"]
    /// Words before the restatement or before "confirmed" that make it the speaker's own work or a
    /// report of a state, not the acceptance of a proposal ("ok: I'll look", "the room is confirmed").
    static let restateSubjects: Set<String> = ["i", "i'll", "i'm", "i've", "i'd", "we'll", "we've", "we're", "you", "you'll", "he", "she",
                                               "they", "it", "it's", "will", "let", "not", "is", "was", "are", "were", "been", "be",
                                               "has", "have", "had", "just", "already", "yet", "still", "now", "unconfirmed", "no"]

    /// The proposal a sentence restates as accepted, or nil. `m.context` holds the proposal.
    static func restated(_ s: String, _ m: MessageToJudge) -> String? {
        // (Most sentences neither open with a yes and a colon nor end in "confirmed": bytes first.)
        // (An opener is a yes of at most 7 letters and its colon at the start: "10:00" further on is none.)
        let lead = s.utf8.drop { $0 == 32 }.prefix(10)
        guard !m.context.isEmpty, let b = lead.first, "oOaAfF".utf8.contains(b) && lead.contains(58) || s.hasBytes("onfirmed"),
              !s.hasBytes("?") else { return nil }
        let text = s.trimmingSpaces().trimming(" .!")
        let opens = text.hasBytes(":") && restateOpeners.contains { text.utf8.count > $0.utf8.count && text.lowercased().hasPrefix($0) }
        let closes = !opens && text.utf8.count > 10 && text.lowercased().hasSuffix(" confirmed")
        guard opens || closes else { return nil }
        let lower = text.lowercased().replacingPresent("’", with: "'")
        let body: String
        if opens, let colon = text.firstIndex(of: ":") {
            body = String(text[text.index(after: colon)...]).trimmingSpaces()
            if let first = body.lowercased().split(separator: " ").first, restateSubjects.contains(String(first).trimming(",")) { return nil }
        } else {
            body = String(text.dropLast(" confirmed".count)).trimmingSpaces()
            // "cursor pagination confirmed", not "the room is confirmed" or "I've confirmed".
            let words = body.lowercased().split(separator: " ")
            if let last = words.last, restateSubjects.contains(String(last)) { return nil }
            if let first = words.first, restateSubjects.contains(String(first)) { return nil }
        }
        let words = Set(Words.content(body))
        guard words.count >= 2, !negations.contains(where: { lower.hasBytes($0) }), !pastTimes.contains(where: { lower.hasBytes($0) }) else { return nil }
        // The proposal: statements of the other members just before (a question proposes nothing here).
        let speaker = m.from.lowercased()
        var proposed = Set<String>()
        for line in m.context where line.from.lowercased() != speaker {
            for p in Sentences.split(line.text) where !p.hasBytes("?") { proposed.formUnion(Words.content(p)) }
        }
        // ("cursor pagination confirmed" keeps its seal: the thread's own words for the outcome.)
        return 2 * words.intersection(proposed).count >= words.count ? strip(opens ? body : text) : nil
    }
}
