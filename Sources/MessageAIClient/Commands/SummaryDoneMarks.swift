import Foundation
import MessageAIProtocol

/// A summary's open work as the conversation's items say it is now: an item someone marked done
/// (`/done`, on any device: the mark reaches every device's cache by push) shows done in
/// `/summary` too. Applied when the summary is shown, not when it is made, because the server
/// caches a summary per message range and a done mark changes no message.
struct SummaryDoneMarks {
    /// The done action items of the conversation, as the cache holds them.
    let done: [AssistItem]

    init(done: [AssistItem]) { self.done = done.filter { $0.kind == .action && $0.done } }

    init(cacheOf c: Client, conversationID: UInt64) {
        let items = (try? c.store?.assistItems(conversationID: conversationID, filter: .all, kind: .action, me: c.username ?? "", limit: 500)) ?? []
        self.init(done: items)
    }

    /// Who marked this work done, if an item of the same owner names the same work: the same
    /// verb, or an object word in common ("write the runbook" and "write the migration runbook").
    func doneBy(what: String, who: String) -> String? {
        let words = Self.words(what)
        guard let verb = words.first else { return nil }
        let object = Set(words.dropFirst().filter { $0.count > 3 })
        for item in done where item.who.lowercased() == who.lowercased() {
            let other = Self.words(item.text)
            if other.first == verb && (object.isEmpty || !object.isDisjoint(with: other.dropFirst())) { return item.doneBy }
            if !object.isEmpty && object.isSubset(of: Set(other)) { return item.doneBy }
        }
        return nil
    }

    /// The summary's action rows with `done` (and `done_by`) set.
    func rows(_ actions: [(what: String, who: String, due: String?)]) -> [[String: Any]] {
        actions.map { a in
            var row: [String: Any] = ["what": a.what, "who": a.who, "due": a.due as Any? ?? NSNull(), "done": false]
            if let by = doneBy(what: a.what, who: a.who) { row["done"] = true; row["done_by"] = by }
            return row
        }
    }

    /// The summary's lines, each line of work marked done marked "[done]" ("- bob: write runbook (Thursday) [done]").
    func text(_ summary: String, _ actions: [(what: String, who: String, due: String?)]) -> String {
        let finished = actions.filter { doneBy(what: $0.what, who: $0.who) != nil }
        guard !finished.isEmpty else { return summary }
        return summary.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let body = line.hasPrefix("- ") ? line.dropFirst(2) : line[...]
            let marked = finished.contains { a in
                guard body.lowercased().hasPrefix(a.who.lowercased() + ": ") else { return false }
                let said = Set(Self.words(String(body.dropFirst(a.who.count + 2))))
                let object = Self.words(a.what).dropFirst().filter { $0.count > 3 }
                return object.isEmpty ? said.contains(Self.words(a.what).first ?? "") : object.contains(where: said.contains)
            }
            return marked ? line + " [done]" : String(line)
        }.joined(separator: "\n")
    }

    static func words(_ s: String) -> [String] {
        s.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
    }
}
