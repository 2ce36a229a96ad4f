import Foundation

/// The work still open at the end of a thread: asks and commitments, minus what was later
/// reported done, with a group ask given to whoever took it ("I'll take it") and a commitment
/// that answers an ask merged with it.
enum OpenActions {
    static let doneWords: Set<String> = ["done", "finished", "shipped", "merged", "landed", "sent", "posted", "deployed", "fixed",
                                         "completed", "handled", "booked", "tagged", "updated", "uploaded", "published", "resolved", "closed",
                                         "ready", "live", "added", "announced", "pinned", "filed", "submitted", "released"]

    struct Entry { var item: ActionItem; var message: Int; var offer = false }

    static func open(_ judged: [MessageToJudge], _ founds: [[ActionRules.Found]], participants: [String]) -> [ActionItem] {
        sorted(judged, founds, participants: participants).open
    }

    /// The thread's work split into what is still open and what was reported done in the thread.
    /// `marks`: each message's marked decisions when the caller has them already (a summary does).
    static func sorted(_ judged: [MessageToJudge], _ founds: [[ActionRules.Found]], participants: [String],
                       marks: [[String]]? = nil) -> (open: [ActionItem], done: [ActionItem]) {
        var entries: [Entry] = []
        for i in judged.indices {
            // A decision is not an action ("I'll make the call: 20% off the first week. Final."):
            // the sentence that states the message's decision gives no item.
            let decided = founds[i].isEmpty ? nil : (marks.map { $0[i].first } ?? DecisionRules.marked(judged[i])).map { Set(Words.content($0)) }.flatMap { $0.count >= 2 ? $0 : nil }
            let sentences = decided == nil ? [] : Sentences.split(judged[i].text)
            for (fi, found) in founds[i].enumerated() {
                if let d = decided, found.sentence < sentences.count, d.isSubset(of: Words.content(sentences[found.sentence])) { continue }
                var item = found.item
                // A handoff moves the sender's open ask to the member named ("Actually Sam will do the alert").
                if case .member(let name) = found.trigger.owner, found.trigger.verb == 0, item.who == name,
                   let k = entries.lastIndex(where: { $0.item.who == judged[i].from.lowercased() && i - $0.message <= 3 && firstWord($0.item.what) == firstWord(item.what) }) {
                    entries[k].item.who = name
                    entries[k].message = i
                    continue
                }
                // A taker in the next messages owns a group ask ("Can someone ...?" — "I'll take it").
                if item.who == "recipient" || !participants.contains(item.who) {
                    if let taker = taker(of: item, after: i, in: judged, founds) ?? taker(after: i, in: judged) { item.who = taker } else if item.who == "recipient" { item.who = "everyone" }
                }
                // "Let me check with the data team and get back to you": the promise to report back is
                // the same work as the check it follows, told once.
                if reportsBack(item.what), entries.contains(where: { $0.message == i && $0.item.who == item.who }) { continue }
                let verb = firstWord(item.what)
                let object = Set(Words.content(item.what).dropFirst())
                // "hannah could you take it?" — "yes I'll take the postmortem": taking named work on when asked
                // makes the earlier item of that work the taker's (ASSISTANT.md's owner is who takes it on).
                if let k = takenOn(item, verb: verb, at: i, judged, entries) {
                    if let due = item.due { entries[k].item.due = due }
                    entries[k].item.who = item.who
                    entries[k].message = i
                    // The "could you take it?" this answers was the same work: one item.
                    entries.removeAll { $0.item.who == item.who && takingVerbs.contains(firstWord($0.item.what)) && i - $0.message <= 2 }
                    continue
                }
                let near = entries.lastIndex(where: { $0.item.who == item.who && i - $0.message <= 3
                    && (firstWord($0.item.what) == verb || generic(item.what) || !object.isDisjoint(with: Set(Words.content($0.item.what).dropFirst()))) })
                // The same work said again later in the thread is one item, however far apart.
                let again = near ?? entries.lastIndex(where: { $0.item.who == item.who && firstWord($0.item.what) == verb
                    && !object.isEmpty && object.isSubset(of: Set(Words.content($0.item.what).dropFirst())) || $0.item.who == item.who && $0.item.what.lowercased() == item.what.lowercased() })
                if let k = again {
                    // The commitment restates the ask: keep the more specific words and due date
                    // ("by Thursday" answered "Thursday morning, after the call").
                    if entries[k].item.due == nil || moreSpecific(item.due, than: entries[k].item.due) { entries[k].item.due = item.due }
                    // (A verb alone never names more than the item it joins: skip the comparisons, most merges are of those.)
                    if item.what.contains(" "), generic(entries[k].item.what) && !generic(item.what) || names(more: item.what, than: entries[k].item.what)
                        || takerSays(item, over: entries[k], sender: judged[i].from.lowercased(), asker: judged[entries[k].message].from.lowercased()) { entries[k].item.what = item.what }
                    // An ask of the offered work takes the offer up ("I can write the scripts" — "Ken, please write them").
                    if judged[i].from.lowercased() != judged[entries[k].message].from.lowercased() { entries[k].offer = false }
                    entries[k].message = i
                    continue
                }
                if generic(item.what), let k = entries.lastIndex(where: { i - $0.message <= 2 && $0.item.who == item.who }) {
                    if entries[k].item.due == nil || moreSpecific(item.due, than: entries[k].item.due) { entries[k].item.due = item.due }
                    continue
                }
                // "Sure, I'll send a form." right after "Jonas, could you collect the dietary requirements?":
                // the acceptance says how the asked work gets done; the ask and its acceptance are one item.
                if fi == 0, found.sentence == 0, item.who == judged[i].from.lowercased(), accepts(judged[i].text),
                   let k = entries.lastIndex(where: { $0.item.who == item.who && i - $0.message <= 2 && judged[$0.message].from.lowercased() != item.who }) {
                    if entries[k].item.due == nil || moreSpecific(item.due, than: entries[k].item.due) { entries[k].item.due = item.due }
                    entries[k].message = i
                    continue
                }
                entries.append(Entry(item: item, message: i, offer: offers(found, in: judged[i])))
            }
        }
        // Each later message's statements, split and lower-cased once for every entry to read.
        let said = judged.map { m in
            Sentences.split(m.text).filter { !$0.contains("?") }.map { Said(words: Words.all($0), lower: $0.lowercased(), content: Set(Words.content($0))) }
        }
        // An ask its owner declines ("Sorry, I can't this week") is no longer theirs: whoever then takes
        // it owns it, else it has no owner (a line the summary may still tell, not a participant's work).
        for k in entries.indices where entries[k].item.who != judged[entries[k].message].from.lowercased() {
            guard let d = declined(entries[k], judged, founds) else { continue }
            entries[k].item.who = taker(after: d, in: judged) ?? "everyone"
        }
        // An offer nobody took up is no one's work yet ("I can run the technical interview." and the
        // thread moves on); the next speaker's "Great, please do" takes it.
        entries.removeAll { $0.offer && !takenUp(after: $0.message, in: judged) }
        // A verb alone that no nearby item took in ("anything I can do?" → "do") names no work a reader could act on.
        // (So does "do it" that no ask before it says what "it" is.)
        entries.removeAll { !$0.item.what.contains(" ") || generic($0.item.what) }
        // Which messages give a reviewer's verdict, read once for every review item below.
        let verdicts = entries.contains(where: { ["review", "look"].contains(firstWord($0.item.what)) })
            ? said.map { $0.contains { s in s.words.contains { verdictWords.contains($0) } || s.lower.hasBytes("looks good to me") || s.lower.hasBytes("ship it") } }
            : []
        let isDone = entries.map { reportedDone($0, judged, said, verdicts: verdicts) }
        return (entries.indices.filter { !isDone[$0] }.map { entries[$0].item }, entries.indices.filter { isDone[$0] }.map { entries[$0].item })
    }

    /// "Can someone take the flaky test?" — "Sure, I'll fix the flaky checkout test today.": the
    /// ask only hands the work over ("take", "handle", "grab"); the one who takes it names the work.
    static func takerSays(_ item: ActionItem, over e: Entry, sender: String, asker: String) -> Bool {
        sender == item.who && asker != item.who && ActionRules.genericVerbs.contains(firstWord(e.item.what))
            && !generic(item.what) && Words.content(item.what).count >= 2
    }

    static func moreSpecific(_ a: String?, than b: String?) -> Bool {
        guard let a, let b else { return false }
        let wa = Set(Words.all(a)), wb = Set(Words.all(b))
        return wa.count > wb.count && wb.isSubset(of: wa)
    }

    /// "draft the community post" after "draft something": the later words name what the earlier
    /// only pointed at (every object word of the earlier is in the later, which has more).
    static func names(more later: String, than earlier: String) -> Bool {
        guard firstWord(later) == firstWord(earlier) else { return false }
        let a = Set(Words.content(later).dropFirst()), said = Set(Words.content(earlier).dropFirst())
        // "draft something for the customers": a placeholder stands where the later ask names the thing.
        if !said.isDisjoint(with: placeholders) { return !a.isEmpty && a.isDisjoint(with: placeholders) }
        return a.count > said.count && said.isSubset(of: a)
    }

    /// Words that stand for an object without naming it.
    static let placeholders: Set<String> = Set(["something", "stuff", "thing", "things", "anything"].map(Words.stem))

    static func firstWord(_ s: String) -> String { String(s.split(separator: " ").first ?? "").lowercased() }

    /// "do it", "take it", "take care of it": words that only point back at the ask.
    static func generic(_ what: String) -> Bool {
        let w = what.lowercased().split(separator: " ").map(String.init)
        // A verb alone ("look", "draft" in "draft tuesday 10:00") names no work either: it is the nearby item's.
        return w.count == 1 || w.count == 2 && ["do", "take", "handle", "own", "grab", "cover"].contains(w.first ?? "")
            && (ActionRules.pronouns.contains(w[1]) || w[1] == "one")
    }

    /// The first later speaker who commits to the same work or reports it done.
    static func taker(of item: ActionItem, after i: Int, in judged: [MessageToJudge], _ founds: [[ActionRules.Found]]) -> String? {
        let verb = firstWord(item.what)
        let object = Set(Words.content(item.what).dropFirst())
        for (k, m) in judged.enumerated().dropFirst(i + 1).prefix(3) where m.from.lowercased() != judged[i].from.lowercased() {
            let own = founds[k].map(\.item).filter { $0.who == m.from.lowercased() }
            if own.contains(where: { firstWord($0.what) == verb || !object.isDisjoint(with: Set(Words.content($0.what).dropFirst())) }) { return m.from.lowercased() }
            if Words.all(m.text).contains(where: { Verbs.isPast($0, of: verb) }) { return m.from.lowercased() }
        }
        return nil
    }

    static func taker(after i: Int, in judged: [MessageToJudge]) -> String? {
        for m in judged[(i + 1)...].prefix(3) {
            let lower = m.text.lowercased()
            if ["i'll take", "i can take", "i'll do it", "i'll handle", "on it", "i've got it", "i got it", "i'll grab", "mine", "i'll own", "i can do it", "i'll pick"].contains(where: { lower.hasBytes($0) }) {
                return m.from.lowercased()
            }
        }
        return nil
    }

    /// Done when a later message reports the verb in the past ("tagged", "sent") or says "done"
    /// about the same thing, or the owner answers "Done." right after.
    struct Said { var words: [String]; var lower: String; var content: Set<String> }

    /// A reviewer's verdict reports their review done ("LGTM now", "approved").
    static let verdictWords: Set<String> = ["lgtm", "approved", "approve"]

    /// `verdicts`: per message, whether one of its statements gives a reviewer's verdict (empty when no item is a review).
    static func reportedDone(_ e: Entry, _ judged: [MessageToJudge], _ said: [[Said]], verdicts: [Bool] = []) -> Bool {
        let verb = firstWord(e.item.what)
        if !verdicts.isEmpty, ["review", "look"].contains(verb),
           judged.indices.dropFirst(e.message + 1).contains(where: { verdicts[$0] && judged[$0].from.lowercased() == e.item.who }) {
            return true
        }
        let past = Verbs.pastForms(of: verb)
        let object = Set(Words.content(e.item.what).dropFirst())
        for (k, m) in judged.enumerated().dropFirst(e.message + 1) {
            for s in said[k] {
                let words = s.words
                let lowerS = " " + s.lower + " "
                let place = [" is in the ", " are in the ", " is in our ", " are in our ", " is up ", " is out "].first { lowerS.hasBytes($0) }
                // A check mark says done in any language ("Listo ✅", "✔️ dashboards").
                let ticked = ["✅", "✔", "☑"].contains { s.lower.hasBytes($0) }
                let saysDone = words.contains { past.contains($0) } || words.contains { doneWords.contains($0) } || place != nil || ticked
                guard saysDone else { continue }
                let lower = s.lower
                if ["not done", "not yet", "isn't done", "will be", "once", "when", "after", "until", "before"].contains(where: { lower.hasBytes($0) }) { continue }
                // "The draft is in the hiring folder" reports the draft, not the hiring loop: with only a
                // place to go on, the thing put there (before "is in") must be the item's.
                var said = s.content
                if let p = place, !words.contains(where: { past.contains($0) || doneWords.contains($0) }), let r = lowerS.range(of: p) {
                    said = Set(Words.content(String(lowerS[..<r.lowerBound])))
                }
                let overlap = !object.isDisjoint(with: said)
                let byOwner = m.from.lowercased() == e.item.who
                // A short "Done." by the owner closes their item; "Added both." reports other work (another verb in the past).
                let otherWork = words.contains { Verbs.isPastOfWork($0) && !past.contains($0) && !["done", "finished", "completed"].contains($0) }
                // (A place alone is no report by the owner: "Yes, it is in the infra folder" answers a question.)
                let saidDone = words.contains { past.contains($0) || doneWords.contains($0) } || ticked
                if overlap || (byOwner && words.count <= 8 && !otherWork && saidDone) || (words.count <= 3 && words.contains { past.contains($0) }) { return true }
                // "done, disk at 61% on both nodes": the owner's next word on it opens with "done".
                if byOwner, k <= e.message + 2, words.first.map({ ["done", "finished"].contains($0) }) == true { return true }
            }
        }
        return false
    }
}
