/// The parts of a due date as written, before any calendar: which day, which time of day,
/// which zone, or an interval from the message. `DueTimes` places them on a calendar.
struct DuePhrase {
    enum DayPart: Equatable {
        case none
        /// Days after the message's day: today 0, tomorrow 1, "in 3 days" 3.
        case relative(Int)
        /// Calendar weekday (1 Sunday ... 7 Saturday); `next`: "next Friday".
        case weekday(Int, next: Bool)
        case date(year: Int?, month: Int?, day: Int)
        /// Friday of this week (plus whole weeks).
        case endOfWeek(Int)
        case endOfMonth
    }

    var day = DayPart.none
    var time: (hour: Int, minute: Int)?
    /// A zone the text names ("09:00 UTC", "5pm PT").
    var zone: String?
    /// "in 2 hours", "ETA 5 min": seconds after the message.
    var after: Int?
    /// False when a part could not be placed ("next sprint", "3/11"): the text stays as written.
    var understood = true

    static let weekdays: [String: Int] = ["sunday": 1, "sun": 1, "monday": 2, "mon": 2, "tuesday": 3, "tue": 3, "tues": 3,
                                          "wednesday": 4, "wed": 4, "thursday": 5, "thu": 5, "thur": 5, "thurs": 5,
                                          "friday": 6, "fri": 6, "saturday": 7, "sat": 7]
    static let months: [String: Int] = ["january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4,
                                        "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9,
                                        "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12]
    static let hours: [String: (Int, Int)] = ["morning": (9, 0), "noon": (12, 0), "midday": (12, 0), "lunch": (12, 0), "lunchtime": (12, 0),
                                             "afternoon": (15, 0), "evening": (19, 0), "night": (23, 59), "midnight": (23, 59)]
    /// Zones people write after a time. Summer and winter names map to one place: people mix them up.
    static let zones: [String: String] = ["utc": "UTC", "gmt": "UTC", "z": "UTC", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles",
                                         "pt": "America/Los_Angeles", "est": "America/New_York", "edt": "America/New_York",
                                         "et": "America/New_York", "ct": "America/Chicago", "cet": "Europe/Paris", "cest": "Europe/Paris",
                                         "bst": "Europe/London", "ist": "Asia/Kolkata", "jst": "Asia/Tokyo"]
    static let numbers: [String: Int] = ["a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10,
                                         "fifteen": 15, "twenty": 20, "thirty": 30]
    static let units: [String: Int] = ["min": 60, "mins": 60, "minute": 60, "minutes": 60, "hr": 3600, "hrs": 3600, "hour": 3600,
                                       "hours": 3600, "day": 86_400, "days": 86_400, "week": 604_800, "weeks": 604_800]
    /// Periods that cannot be placed on a calendar without knowing the team's plans.
    static let vague: Set<String> = ["sprint", "quarter", "release", "weekend", "year", "soon", "asap", "later", "sometime",
                                     // Events whose time only the team knows ("before tomorrow's standup"), and
                                     // "after", which starts a time rather than ending one.
                                     "after", "standup", "stand-up", "retro", "demo", "meeting", "call", "sync", "review",
                                     "planning", "launch", "deploy", "freeze", "cutoff", "cut-off"]

    init(_ text: String) {
        let w = Self.words(text)
        var i = 0
        func word(_ k: Int) -> String { k < w.count ? w[k] : "" }
        while i < w.count {
            let x = w[i]
            if x == "today" { day = .relative(0) }
            else if x == "tonight" { day = .relative(0); time = (23, 59) }
            else if x == "tomorrow" || x == "tmrw" || x == "tmr" { day = .relative(1) }
            else if x == "eow" { day = .endOfWeek(0) }
            else if x == "eom" { day = .endOfMonth }
            else if x == "first" && word(i + 1) == "thing" { time = (9, 0); i += 1 }
            else if x == "end" && word(i + 1) == "of" {
                var j = i + 2
                var weeks = 0
                if ["the", "this", "next"].contains(word(j)) { weeks = word(j) == "next" ? 1 : 0; j += 1 }
                switch word(j) {
                case "day": if day == .none { day = .relative(0) }
                case "week": day = .endOfWeek(weeks)
                case "month": day = weeks == 0 ? .endOfMonth : .none; understood = understood && weeks == 0
                default:
                    if let d = Self.weekdays[word(j)] { day = .weekday(d, next: weeks == 1) } else { understood = false }
                }
                i = j
            }
            else if let d = Self.weekdays[x] { day = .weekday(d, next: i > 0 && w[i - 1] == "next") }
            else if (x == "in" || x == "within" || x == "eta"), let n = Int(word(i + 1)) ?? Self.numbers[word(i + 1)],
                    let unit = Self.units[word(i + 2)] {
                if unit >= 86_400 { day = .relative(n * unit / 86_400) } else { after = n * unit }
                i += 2
            }
            else if let (y, m, d) = Self.numericDate(x) { if d == 0 { understood = false } else { day = .date(year: y, month: m, day: d) } }
            else if let m = Self.months[x], let d = Self.dayOfMonth(word(i + 1)) { day = .date(year: nil, month: m, day: d); i += 1 }
            else if let d = Self.dayOfMonth(x), x != "1", let m = Self.months[word(i + 1) == "of" ? word(i + 2) : word(i + 1)] {
                day = .date(year: nil, month: m, day: d); i += word(i + 1) == "of" ? 2 : 1
            }
            else if x.count > 2, x.first!.isNumber, let d = Self.dayOfMonth(x), Int(x) == nil { day = .date(year: nil, month: nil, day: d) }
            else if x == "eod" || x == "cob" { if day == .none { day = .relative(0) } }  // 17:00, the default time of a day
            else if let h = Self.hours[x] { time = h }
            else if let (t, z) = Self.clock(x, next: word(i + 1)) {
                time = t
                if let z { zone = z }
                if ["am", "pm"].contains(word(i + 1)) { i += 1 }
            }
            else if let z = Self.zones[x], time != nil || day != .none { zone = z }
            else if Self.vague.contains(x) || (x == "week" || x == "month") { understood = false }
            i += 1
        }
        if day == .none && time == nil && after == nil { understood = false }
    }

    /// Lower-case words without the punctuation around them; "tomorrow's" is "tomorrow".
    static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).compactMap { raw -> String? in
            var s = Substring(raw)
            while let c = s.last, ",;!?()\"'".contains(c) || (c == "." && !s.dropLast().contains(".")) { s = s.dropLast() }
            while let c = s.first, "(\"'".contains(c) { s = s.dropFirst() }
            if s.hasSuffix("'s") || s.hasSuffix("’s") { s = s.dropLast(2) }
            return s.isEmpty ? nil : String(s)
        }
    }

    /// "28", "28th", "1st" → the day of the month.
    static func dayOfMonth(_ w: String) -> Int? {
        let digits = w.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 2, let n = Int(digits), (1...31).contains(n) else { return nil }
        let rest = w.dropFirst(digits.count)
        return rest.isEmpty || ["st", "nd", "rd", "th"].contains(String(rest)) ? n : nil
    }

    /// "2026-11-28" (year, month, day); "11/28" or "28/11" where only one reading is a date.
    /// Day 0 means "a date, but ambiguous": "3/11" is March or November.
    static func numericDate(_ w: String) -> (Int?, Int?, Int)? {
        let iso = w.split(separator: "-")
        if iso.count == 3, iso[0].count == 4, let y = Int(iso[0]), let m = Int(iso[1]), let d = Int(iso[2]) { return (y, m, d) }
        let parts = w.split(separator: "/")
        guard parts.count == 2 || parts.count == 3, let a = Int(parts[0]), let b = Int(parts[1]) else { return nil }
        var year = parts.count == 3 ? Int(parts[2]) : nil
        if let y = year, y < 100 { year = 2000 + y }
        if a > 12 && b <= 12 { return (year, b, a) }
        if b > 12 && a <= 12 { return (year, a, b) }
        if a == b && a <= 12 { return (year, a, b) }
        return (nil, nil, 0)
    }

    /// "5pm", "5.30pm", "17:00", "17h", "09:00utc", or "5" followed by "pm"; the zone when glued on.
    static func clock(_ w: String, next: String) -> ((hour: Int, minute: Int), String?)? {
        var s = Substring(w)
        var zone: String?
        for (suffix, z) in [("utc", "UTC"), ("z", "UTC")] where s.hasSuffix(suffix) && s.count > suffix.count
            && s.dropLast(suffix.count).last?.isNumber == true { s = s.dropLast(suffix.count); zone = z }
        var meridiem = ""
        for m in ["am", "pm", "a.m", "p.m"] where s.hasSuffix(m) && s.count > m.count { meridiem = String(m.first!); s = s.dropLast(m.count); break }
        if meridiem.isEmpty && (next == "am" || next == "pm") { meridiem = String(next.first!) }
        if s.hasSuffix("h") && s.count > 1 { s = s.dropLast() }
        let parts = s.split(separator: s.contains(":") ? ":" : ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              var h = Int(parts[0]) else { return nil }
        let m = parts.count == 2 ? Int(parts[1])! : 0
        // A bare number is a time only with am/pm ("5 pm"), or "17h"; "3" alone is not.
        if parts.count == 1 && meridiem.isEmpty && !w.hasSuffix("h") { return nil }
        if parts.count == 2 && parts[1].count != 2 { return nil }
        if !meridiem.isEmpty {
            guard (1...12).contains(h) else { return nil }
            h = h % 12 + (meridiem == "p" ? 12 : 0)
        }
        guard h <= 24, m < 60 else { return nil }
        return h == 24 ? ((23, 59), zone) : ((h, m), zone)
    }
}
