import Foundation

/// A proposal that others then accept is a decision of the thread even without a marker:
/// "Then we drop the CSV import from 2.4. Agreed?" — "Agreed." — "Fine by me."
enum Agreement {
    static let proposalMarkers = ["let's", "lets", "we should", "how about", "i propose", "proposal:", "what if we", "we could", "i suggest",
                                  "suggestion:", "then we", "so we", "we drop", "we move", "we keep", "we ship", "we use"]
    static let agreements = ["agreed", "sounds good", "+1", "works for me", "makes sense", "let's do it", "fine by me", "lgtm",
                             "deal", "👍", "yes", "yep", "sgtm", "ok with me", "okay with me", "same", "i agree", "agree", "good call", "perfect"]

    static func acceptedProposals(_ judged: [MessageToJudge]) -> [String] {
        var out: [String] = []
        for (i, m) in judged.enumerated() {
            for s in Sentences.split(m.text) {
                let lower = " " + s.lowercased() + " "
                guard proposalMarkers.contains(where: { lower.hasBytes(" " + $0) }), Words.content(s).count >= 3 else { continue }
                // A question is a proposal only when it asks for agreement ("..., agreed?").
                if s.contains("?") && !["agreed?", "ok?", "okay?", "sound good?", "sounds good?", "right?", "objections?"].contains(where: { lower.hasBytes($0) }) { continue }
                if ["if we ever", "maybe", "might", "should we", "can we", "could we"].contains(where: { lower.hasBytes($0) }) { continue }
                let replies = judged.dropFirst(i + 1).prefix(3).filter { $0.from.lowercased() != m.from.lowercased() }
                let accepted = replies.contains { r in
                    let first = r.text.lowercased().trimmingSpaces()
                    return agreements.contains { first.hasPrefix($0) } && !first.hasPrefix("yes, but") && !first.contains("?")
                }
                // "Can we move the backup to 04:00?" — "Yes, let's move the backup to 04:00.": the
                // reply that takes up someone's proposal is the decision.
                let takesUp = ["yes, let's", "yes let's", "ok, let's", "okay, let's", "sure, let's", "agreed, let's", "fine, let's"].contains { lower.hasBytes(" " + $0) }
                    && judged[..<i].suffix(2).contains { $0.from.lowercased() != m.from.lowercased() && $0.text.contains("?")
                        && Set(Words.content($0.text)).intersection(Words.content(s)).count >= 2 }
                if accepted || takesUp { out.append(DecisionRules.strip(s.replacingPresent(" Agreed?", with: "").replacingPresent("?", with: ""))) }
            }
        }
        return out
    }
}
