import Foundation

/// Due dates as written: the shortest time expression of a sentence without a leading
/// "by"/"before" ("by Friday EOD" → "Friday EOD", "the 28th", "after standup"); nil when there is
/// none or it is vague ("soon", "sometime").
enum DueDates {
    static let days: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                                    "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat", "sun"]
    static let months: Set<String> = ["january", "february", "march", "april", "may", "june", "july", "august",
                                      "september", "october", "november", "december", "jan", "feb", "mar", "apr",
                                      "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"]
    /// Words that are a time on their own.
    static let anchors: Set<String> = ["today", "tonight", "tomorrow", "tmrw", "tmr", "eod", "eow", "cob", "eom",
                                       "noon", "midnight", "midday", "tomorrow's"]
    /// Words that may continue a time expression ("Friday EOD", "tomorrow 09:00 UTC", "Monday morning").
    static let continuations: Set<String> = ["morning", "afternoon", "evening", "night", "eod", "eow", "cob", "noon",
                                             "utc", "gmt", "pst", "pdt", "est", "edt", "cet", "cest", "bst", "ist",
                                             "jst", "et", "pt", "ct", "am", "pm", "midnight", "lunch", "lunchtime"]
    static let periods: Set<String> = ["week", "month", "sprint", "quarter", "day", "release", "weekend", "year"]
    static let markers: Set<String> = ["by", "before", "until", "till", "due", "on", "at", "for"]
    static let events: Set<String> = ["standup", "stand-up", "lunch", "the", "our", "this", "retro", "planning",
                                      "review", "demo", "call", "meeting", "sync", "launch", "release", "deploy",
                                      "freeze", "weekend", "holidays", "break", "cutoff", "cut-off"]

    static func isClock(_ w: String) -> Bool {
        // Every clock has a digit; most words are ASCII without one and need no closer look.
        if w.isASCIIOnly && !w.utf8.contains(where: { $0 >= 0x30 && $0 <= 0x39 }) { return false }
        return hasClockShape(w)
    }

    /// "5pm", "09:00", "17h", "5.30pm": the test itself, without `isClock`'s shortcut.
    static func hasClockShape(_ w: String) -> Bool {
        var s = Substring(w)
        for suffix in ["am", "pm", "h", "utc", "z"] where s.hasSuffix(suffix) && s.count > suffix.count { s = s.dropLast(suffix.count); break }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else {
            let dotted = s.split(separator: ".")
            return dotted.count == 2 && w.hasSuffix("m") && dotted.allSatisfy { $0.allSatisfy(\.isNumber) }
        }
        if parts.count == 1 { return w != String(s) && (Int(parts[0]) ?? 99) <= 24 }
        return (Int(parts[0]) ?? 99) <= 24 && parts[1].count == 2
    }

    /// "3/11", "2026-11-28".
    static func isNumericDate(_ w: String) -> Bool {
        let parts = w.split(whereSeparator: { $0 == "/" || $0 == "-" })
        guard parts.count >= 2, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isNumber) }) else { return false }
        return w.contains("/") || parts[0].count == 4
    }

    static func isOrdinal(_ w: String) -> Bool {
        let digits = w.prefix { $0.isNumber }
        guard !digits.isEmpty, let n = Int(digits), n >= 1, n <= 31 else { return false }
        return ["st", "nd", "rd", "th"].contains(String(w.dropFirst(digits.count)))
    }

    /// The due expression of `tokens` and the index where it starts (its leading "by" included).
    static func find(_ tokens: [Token]) -> (text: String, start: Int)? {
        var i = 0
        while i < tokens.count {
            if let (end, start) = match(tokens, at: i) {
                let words = tokens[start..<end].map(\.raw)
                let marker = i < start ? i : start
                return (words.joined(separator: " "), marker)
            }
            i += 1
        }
        return nil
    }

    /// Matches a time expression at `i`: returns the end index and where the expression proper starts
    /// (after "by"/"before"/"on"/"at").
    private static func match(_ t: [Token], at i: Int) -> (Int, Int)? {
        var start = i
        let w = t[i].lower
        if markers.contains(w) {
            guard i + 1 < t.count, !t[i].endsClause else { return nil }
            start = i + 1
            if let end = expression(t, at: start, strict: w == "on" || w == "at" || w == "for") { return (end, start) }
            if w == "before" || w == "by" || w == "until", let end = event(t, at: start) { return (end, start) }
            return nil
        }
        if w == "after", i + 1 < t.count, let end = event(t, at: i + 1) { return (end, i) }
        // "eta 5 min", "ETA 14:00": the estimate is the due, with its label.
        if w == "eta", i + 1 < t.count, !t[i].endsClause || t[i].after.hasPrefix(":"), let end = expression(t, at: i + 1, strict: false) { return (end, i) }
        if let end = expression(t, at: i, strict: true) { return (end, start) }
        return nil
    }

    /// A time expression starting at `i`; `strict` refuses bare numbers and ordinals (used
    /// without a "by": "3 tests" is not a time).
    private static func expression(_ t: [Token], at i: Int, strict: Bool) -> Int? {
        guard i < t.count else { return nil }
        let w = t[i].lower
        var end: Int?
        if w == "first" && i + 2 < t.count && t[i + 1].lower == "thing" && (anchors.contains(t[i + 2].lower) || days.contains(t[i + 2].lower)) { end = i + 3 }
        else if (w == "in" || w == "within") && i + 2 < t.count && (t[i + 1].isNumber || ["an", "a", "the", "two", "three", "24", "48"].contains(t[i + 1].lower))
                    && units.contains(t[i + 2].lower) { end = i + 3 }
        else if t[i].isNumber && i + 1 < t.count && units.contains(t[i + 1].lower) && !strict { end = i + 2 }
        else if isNumericDate(w) { end = i + 1 }
        else if anchors.contains(w) || days.contains(w) { end = i + 1 }
        else if isClock(w) { end = i + 1 }
        else if (w == "next" || w == "this" || w == "end") && i + 1 < t.count {
            let n = t[i + 1].lower
            if w == "end" && n == "of" && i + 2 < t.count {
                var j = i + 2
                if t[j].lower == "the" || t[j].lower == "this" || t[j].lower == "next", j + 1 < t.count { j += 1 }
                if periods.contains(t[j].lower) || days.contains(t[j].lower) { end = j + 1 }
            } else if days.contains(n) || periods.contains(n) || (w == "this" && continuations.contains(n)) {
                end = i + 2
            }
        } else if w == "the" && i + 1 < t.count && isOrdinal(t[i + 1].lower) {
            end = i + 2
            if i + 3 < t.count && t[i + 2].lower == "of" && months.contains(t[i + 3].lower) { end = i + 4 }
        } else if months.contains(w) && w != "may" && i + 1 < t.count && (t[i + 1].isNumber) {
            end = i + 2
        } else if !strict && isOrdinal(w) { end = i + 1 }
        else if t[i].isNumber && i + 1 < t.count && months.contains(t[i + 1].lower) { end = i + 2 }
        guard var e = end else { return nil }
        // "Friday EOD", "tomorrow 09:00 UTC", "Monday morning", "5 pm".
        while e < t.count && !t[e - 1].endsClause {
            let n = t[e].lower
            if continuations.contains(n) || isClock(n) { e += 1; continue }
            if n == "at" && e + 1 < t.count && isClock(t[e + 1].lower) { e += 2; continue }
            if (n == "end" || n == "the") && e + 2 < t.count && t[e + 1].lower == "of" { e += 3; continue }
            break
        }
        return e
    }

    /// "standup", "the demo", "lunch": an event a task can be due before or after.
    private static func event(_ t: [Token], at i: Int) -> Int? {
        guard i < t.count else { return nil }
        let w = t[i].lower
        if w == "standup" || w == "stand-up" || w == "lunch" || w == "retro" || w == "launch" { return i + 1 }
        if (w == "the" || w == "our" || w == "this" || w == "tomorrow's" || w == "today's") && i + 1 < t.count {
            let n = t[i + 1].lower
            if events.contains(n) && n != "the" { return i + 2 }
            if i + 2 < t.count && events.contains(t[i + 2].lower) && !t[i + 1].endsClause { return i + 3 }
        }
        return nil
    }

    static let units: Set<String> = ["hour", "hours", "minutes", "minute", "mins", "min", "days", "day", "weeks", "week", "hrs", "hr"]
    static let vague: Set<String> = ["soon", "sometime", "someday", "later", "whenever", "eventually", "asap"]
}
