import Foundation

/// Options put to the group ("options: a) roll back to 3.14.2 b) hotfix the middleware", "options:
/// delete indices older than 14 days, or add 2 data nodes") settled when someone then says "ok"
/// and carries one out ("ok, deleting indices older than 14 days"): after a choice was put up, that
/// is the option taken, ASSISTANT.md's outcome of the thread. Its text names the option and the
/// one not taken ("... instead of ...").
extension Agreement {
    /// The options a sentence lists after "options:", by letter or number ("a) ... b) ...") or with "or".
    static func listedOptions(_ sentence: String) -> [String] {
        guard let r = sentence.range(of: "options:", options: .caseInsensitive) else { return [] }
        let rest = String(sentence[r.upperBound...]).trimmingSpaces()
        var parts: [String] = []
        var current: [Substring] = []
        for w in rest.split(separator: " ") {
            // "a)", "b)", "1)", "(2)": a marker opens the next option.
            let bare = String(w).trimming("()")
            if bare.count == 1, w.hasSuffix(")"), bare.first.map({ $0.isLetter || $0.isNumber }) == true {
                if !current.isEmpty { parts.append(current.joined(separator: " ")) }
                current = []
                continue
            }
            current.append(w)
        }
        if !current.isEmpty { parts.append(current.joined(separator: " ")) }
        if parts.count < 2, let only = parts.first {
            parts = only.components(separatedBy: ", or ").flatMap { $0.components(separatedBy: " or ") }
        }
        let options = parts.map { $0.trimming(" ,.;") }.filter { !Words.content($0).isEmpty }
        return options.count >= 2 ? options : []
    }

    /// Words a speaker opens with when going ahead ("ok, deleting ...", "alright rolling back ...").
    static let goAheads: Set<String> = ["ok", "okay", "alright", "fine", "right"]

    /// The options taken in the thread: within the next eight messages, the first "ok" that shares
    /// two or more words with one option and fewer with every other.
    static func takenOptions(_ judged: [MessageToJudge]) -> [String] {
        var out: [String] = []
        // (A byte search before any lower-casing: most messages list no options.)
        for (i, m) in judged.enumerated() where m.text.hasBytes("ptions:") || m.text.hasBytes("PTIONS:") {
            guard let s = Sentences.split(m.text).first(where: { $0.lowercased().hasBytes("options:") }) else { continue }
            let options = listedOptions(s)
            guard !options.isEmpty else { continue }
            let stems = options.map { Set(Words.content($0)) }
            for later in judged.dropFirst(i + 1).prefix(8) {
                guard let first = Sentences.split(later.text).first, !first.contains("?"),
                      let lead = Words.all(first).first, goAheads.contains(lead) else { continue }
                let said = Set(Words.content(first))
                let shared = stems.map { $0.intersection(said).count }
                guard let best = shared.indices.max(by: { shared[$0] < shared[$1] }), shared[best] >= 2,
                      shared.indices.allSatisfy({ $0 == best || shared[$0] < shared[best] }) else { continue }
                let others = options.indices.filter { $0 != best }.map { options[$0] }
                out.append(options[best] + (others.count == 1 ? " instead of " + others[0] : ""))
                break
            }
        }
        return out
    }
}
