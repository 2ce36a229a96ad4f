import Foundation

/// Owners by turn-taking: a member who, when asked, takes on work another member held or was given
/// ("@kenji can you write the postmortem?" — "hannah could you take it?" — "yes I'll take the
/// postmortem") owns that work now; the earlier owner no longer does.
extension OpenActions {
    /// Verbs that take work on without saying what the work is ("take", "own", "grab").
    static let takingVerbs: Set<String> = ["take", "own", "grab", "handle", "cover"]

    /// The earlier entry the sender's own "I'll take X" takes on, or nil: the item's verb only takes
    /// work on, its object names an entry of another member's within the last six messages, and the
    /// message answers an ask (a question or a "can you" from another member just before it), so a
    /// spontaneous "I'll take notes" takes nobody's "write the release notes".
    /// (`verb` is the item's first word, read once by the caller: most items are passed over on it alone.)
    static func takenOn(_ item: ActionItem, verb: String, at i: Int, _ judged: [MessageToJudge], _ entries: [Entry]) -> Int? {
        guard takingVerbs.contains(verb) else { return nil }
        let me = judged[i].from.lowercased()
        guard item.who == me, !generic(item.what),
              let ask = judged[i].context.last(where: { $0.from.lowercased() != me }), ask.text.contains("?") || ask.text.lowercased().hasBytes("can you") else { return nil }
        let object = Set(Words.content(item.what).dropFirst())
        guard !object.isEmpty else { return nil }
        return entries.lastIndex { e in
            e.item.who != me && i - e.message <= 6 && !takingVerbs.contains(firstWord(e.item.what)) && !generic(e.item.what)
                && 2 * object.intersection(Words.content(e.item.what).dropFirst()).count >= object.count
        }
    }
}
